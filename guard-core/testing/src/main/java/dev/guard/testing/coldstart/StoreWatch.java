package dev.guard.testing.coldstart;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a run's two {@link OutcomeStore}s: now and then while the run waits (how many enqueued jobs
 * have an outcome yet, and when that last grew), and once at the end for the reconciliation.
 */
final class StoreWatch {
  /**
   * Reads while waiting are spaced at least this far apart, and at least twice as far as the last
   * read took (a Kafka topic is read with a new consumer): a store is a server, not a local file.
   */
  private static final Duration POLL_EVERY = Duration.ofMillis(400);

  private final OutcomeStore results;
  private final OutcomeStore deadLetters;
  private final Map<String, String> contract;
  private Instant lastReadAt = Instant.EPOCH;
  private Duration lastReadTook = Duration.ZERO;
  private int covered;
  private Instant lastGrowthAt;

  StoreWatch(OutcomeStore results, OutcomeStore deadLetters, Map<String, String> contract) {
    this.results = results;
    this.deadLetters = deadLetters;
    this.contract = contract;
  }

  /**
   * How many of {@code enqueued} either store holds, read again if the last read is older than the
   * poll interval; a store that cannot be read yet (its server is still starting) counts as no news.
   */
  int poll(Set<String> enqueued) {
    Instant now = Instant.now();
    Duration spacing = lastReadTook.multipliedBy(2).compareTo(POLL_EVERY) > 0 ? lastReadTook.multipliedBy(2) : POLL_EVERY;
    if (Duration.between(lastReadAt, now).compareTo(spacing) < 0) {
      return covered;
    }
    lastReadAt = now;
    try {
      Set<String> ids = new HashSet<>(Reconciler.attribute(results.read(contract), enqueued).ids());
      ids.addAll(Reconciler.attribute(deadLetters.read(contract), enqueued).ids());
      if (ids.size() > covered) {
        covered = ids.size();
        lastGrowthAt = Instant.now();
      }
    } catch (Exception e) {
      // read again next time; the final read reports a store that stays unreadable
    }
    lastReadTook = Duration.between(now, Instant.now());
    return covered;
  }

  /** Enqueued jobs with an outcome in either store, as of the last read. */
  int covered() {
    return covered;
  }

  /** When the stores last held more outcomes than before; null until they held one. */
  Instant lastGrowthAt() {
    return lastGrowthAt;
  }

  /** The store's records now; an unreadable store adds a problem and counts as empty. */
  Reconciler.Stored readFinal(OutcomeStore store, List<String> problems) {
    String description = store.describe(contract);
    try {
      Collection<String> records = store.read(contract);
      return new Reconciler.Stored(description, List.copyOf(records));
    } catch (Exception e) {
      problems.add("could not read " + description + " after the run: " + e
          + " (every job it should hold counts as missing)");
      return new Reconciler.Stored(description, List.of());
    }
  }
}
