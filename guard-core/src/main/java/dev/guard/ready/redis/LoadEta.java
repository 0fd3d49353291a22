package dev.guard.ready.redis;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * When a loading Redis will be done, from the progress it reports in {@code INFO persistence}
 * ({@code loading_loaded_bytes} of {@code loading_total_bytes}) sampled at each attempt: the rate
 * is measured over the last {@link #WINDOW} of samples on this process's clock, the rest of the
 * file divided by it is the estimate. With one sample only, Redis's own whole-second
 * {@code loading_eta_seconds} is used when it is at least 2 s. A load that runs past its
 * prediction by more than {@link #OVERDUE} gives no estimate (the gate falls back to its plain
 * backoff), and so does any text without progress. Not thread-safe: one per probe, used under its
 * attempt.
 */
final class LoadEta {

    /** The rate is measured over samples at most this old (a load's speed changes with its keys). */
    static final Duration WINDOW = Duration.ofSeconds(2);
    /** Past the predicted end by this much, the prediction is void. */
    static final Duration OVERDUE = Duration.ofMillis(60);
    /** Samples closer together than this do not measure a rate (granularity of Redis's progress). */
    static final Duration MIN_SPAN = Duration.ofMillis(20);

    private record Sample(long nanos, long loaded) {}

    private final Deque<Sample> samples = new ArrayDeque<>();
    private long total = -1;
    private long startTime = -1;
    /** The predicted end on the nano clock, or Long.MIN_VALUE. */
    private long predictedEnd = Long.MIN_VALUE;

    /**
     * Records the progress in {@code info} as seen at {@code nanos} (System.nanoTime of the reply's
     * midpoint) and returns the time from {@code nanos} until the load is expected to end, or null.
     */
    Duration update(String info, long nanos) {
        return update(RedisInfo.fields(info), nanos);
    }

    /** {@link #update(String, long)} on the fields of the reply, read once by the caller. */
    Duration update(Map<String, String> info, long nanos) {
        long loaded = LettuceSupport.wholeNumber(info, "loading_loaded_bytes");
        long tot = LettuceSupport.wholeNumber(info, "loading_total_bytes");
        long start = LettuceSupport.wholeNumber(info, "loading_start_time");
        if (loaded < 0 || tot <= 0) {
            reset();
            return null;
        }
        Sample last = samples.peekLast();
        if (tot != total || start != startTime || (last != null && loaded < last.loaded)) {
            reset(); // another load (a restart, another file)
            total = tot;
            startTime = start;
        }
        samples.addLast(new Sample(nanos, loaded));
        while (samples.size() > 2 && nanos - samples.peekFirst().nanos > WINDOW.toNanos()) {
            samples.removeFirst();
        }
        Sample first = samples.peekFirst();
        long span = nanos - first.nanos;
        long left = Math.max(0, tot - loaded);
        if (left == 0) {
            // the file is read and Redis is finishing: the end was due by now
            predictedEnd = predictedEnd == Long.MIN_VALUE ? nanos : Math.min(predictedEnd, nanos);
        } else if (span >= MIN_SPAN.toNanos() && loaded > first.loaded) {
            double bytesPerNano = (double) (loaded - first.loaded) / span;
            predictedEnd = nanos + (long) (left / bytesPerNano);
        } else {
            long eta = LettuceSupport.wholeNumber(info, "loading_eta_seconds");
            if (eta >= 2) {
                predictedEnd = nanos + Duration.ofSeconds(eta).toNanos();
            }
            // else: no measure yet (or a stall); an earlier prediction stands until overdue
        }
        if (predictedEnd == Long.MIN_VALUE || nanos - predictedEnd > OVERDUE.toNanos()) {
            return null;
        }
        return Duration.ofNanos(Math.max(0, predictedEnd - nanos));
    }

    void reset() {
        samples.clear();
        total = -1;
        startTime = -1;
        predictedEnd = Long.MIN_VALUE;
    }

}
