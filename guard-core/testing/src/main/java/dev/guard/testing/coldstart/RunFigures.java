package dev.guard.testing.coldstart;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A run's figures, from what the harness saw and what the processes logged: how long the cold start
 * took, how long the worker's gate waited, how long Redis loaded, how much later than the worker
 * the dependencies were ready, and how soon after that the gate opened.
 */
final class RunFigures {

  private static final Pattern GATE_PASSED_AT = Pattern.compile(" at (\\d{10,})");

  private RunFigures() {}

  /** What the harness recorded of one run, for {@link #of}. */
  record Observed(
      Instant startedAt,
      Instant lastOutcomeAt,
      Instant stoppedAt,
      Instant workerStartedAt,
      Instant redisLoadingSeenAt,
      CompletableFuture<Instant> redisLoaded,
      Part worker,
      Part backend) {}

  static RunReconciliation.Figures of(Observed seen, Reconciler.Tally tally, List<String> workerLines,
      List<String> backendLines) {
    boolean complete = tally.missing().isEmpty() && !tally.enqueued().isEmpty();
    Duration coldStart = Duration.between(seen.startedAt(),
        complete && seen.lastOutcomeAt() != null ? seen.lastOutcomeAt() : seen.stoppedAt());
    Optional<Instant> loadedAt = Optional.empty();
    CompletableFuture<Instant> loaded = seen.redisLoaded();
    if (loaded != null && loaded.isDone() && !loaded.isCompletedExceptionally()) {
      loadedAt = Optional.of(loaded.join());
    }
    Optional<Duration> loading = loadedAt.flatMap(l -> Optional.ofNullable(seen.redisLoadingSeenAt())
        .map(s -> Duration.between(s, l)));
    Optional<Long> waitMs = Optional.empty();
    Optional<Instant> gatePassedAt = Optional.empty();
    for (String line : workerLines) {
      Matcher m = StackContract.WAIT_LINE.matcher(line);
      if (m.find()) {
        waitMs = Optional.of(Long.parseLong(m.group(1)));
        Matcher at = GATE_PASSED_AT.matcher(line);
        if (at.find()) {
          gatePassedAt = Optional.of(Instant.ofEpochMilli(Long.parseLong(at.group(1))));
        }
      }
    }
    Optional<Instant> markerAt = Optional.empty();
    for (String line : backendLines) {
      Matcher m = StackContract.MARKER_LINE.matcher(line);
      if (m.find()) {
        markerAt = Optional.of(Instant.ofEpochMilli(Long.parseLong(m.group(1))));
      }
    }
    Optional<Instant> depsReady = Stream.of(loadedAt, markerAt).flatMap(Optional::stream).max(Comparator.naturalOrder());
    Optional<Duration> depsAfterWorker = Optional.empty();
    Optional<Duration> reaction = Optional.empty();
    if (seen.workerStartedAt() != null && depsReady.isPresent()) {
      Duration d = Duration.between(seen.workerStartedAt(), depsReady.get());
      depsAfterWorker = Optional.of(d.isNegative() ? Duration.ZERO : d);
      if (!d.isNegative() && gatePassedAt.isPresent()) {
        reaction = Optional.of(Duration.between(depsReady.get(), gatePassedAt.get()));
      }
    }
    return new RunReconciliation.Figures(coldStart, waitMs.map(Duration::ofMillis), loading, depsAfterWorker, reaction,
        exit(seen.worker()), exit(seen.backend()));
  }

  private static Optional<Integer> exit(Part part) {
    return part == null ? Optional.empty() : part.exit();
  }
}
