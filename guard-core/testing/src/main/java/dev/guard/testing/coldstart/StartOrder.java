package dev.guard.testing.coldstart;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The order a run starts the stack's parts in, and the random pauses between two starts: drawn from
 * the series' seed (so a seed replays a series), or fixed by the test.
 */
final class StartOrder {

  /** One run's draw: the parts in start order, and the pause before each (the first is 0). */
  record Draw(List<Component> order, List<Long> gapsMillis) {}

  private StartOrder() {}

  /** The parts a stack on this broker has. */
  static List<Component> parts(JobBroker broker) {
    List<Component> parts = new ArrayList<>(List.of(Component.REDIS, Component.BACKEND, Component.WORKER));
    if (broker.separate()) {
      parts.add(Component.BROKER);
    }
    return parts;
  }

  /** Throws unless {@code fixed} names each part of the stack once. */
  static void check(List<Component> fixed, JobBroker broker) {
    List<Component> needed = parts(broker);
    if (fixed.size() != needed.size() || !fixed.containsAll(needed)) {
      throw new IllegalStateException("order(...) must name each of " + needed + " once, was " + fixed);
    }
  }

  /** The next run's order (shuffled unless {@code fixed} is given) and pauses, both from {@code random}. */
  static Draw draw(Random random, List<Component> fixed, JobBroker broker, Duration maxGap) {
    List<Component> order = fixed;
    if (order == null) {
      order = parts(broker);
      Collections.shuffle(order, random);
    }
    List<Long> gaps = new ArrayList<>();
    for (int i = 0; i < order.size(); i++) {
      gaps.add(i == 0 ? 0L : (long) (random.nextDouble() * maxGap.toMillis()));
    }
    return new Draw(List.copyOf(order), List.copyOf(gaps));
  }
}
