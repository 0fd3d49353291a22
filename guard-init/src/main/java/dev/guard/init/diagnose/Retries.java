package dev.guard.init.diagnose;

import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a worker's own retry lines say about how long each failed connect took. Many log the wait
 * before the next attempt ({@code retrying in 1s}, celery's {@code Trying again in 2.00
 * seconds...}, tenacity's {@code Retrying ... in 1.0 seconds}); when the attempts come further
 * apart than the waits add up to, the rest was spent inside the connect: a refused connect fails
 * in milliseconds, a dropped one hangs until the client's connect timeout. That tells a black
 * hole from a closed port even when the client's error says neither.
 */
final class Retries {
    private static final Pattern WAIT = Pattern.compile(
            "(?i)\\b(?:retry(?:ing)?|trying again|reconnect(?:ing)?|again)\\b[^\\d]{0,40}?\\bin\\s+(\\d{1,6}(?:\\.\\d{1,3})?)\\s*"
                    + "(ms|milliseconds?|s|secs?|seconds?)\\b");
    /** Hang per attempt above which connects are not refused but dropped. */
    static final long HANG_MS = 1_000;

    private int count;
    private Instant first;
    private Instant last;
    private long waitsMs;
    private long lastWaitMs;

    /** Reads a line that holds one of the retry words; returns whether it stated a wait. */
    boolean read(String text, Instant time) {
        if (time == null) {
            return false;
        }
        Matcher m = WAIT.matcher(text);
        if (!m.find()) {
            return false;
        }
        double v = Double.parseDouble(m.group(1));
        long ms = Math.round(m.group(2).toLowerCase(java.util.Locale.ROOT).startsWith("m") ? v : v * 1000);
        if (first == null) {
            first = time;
        }
        last = time;
        waitsMs += ms;
        lastWaitMs = ms;
        count++;
        return true;
    }

    /** Attempts seen (retry lines with a stated wait and a timestamp). */
    int attempts() {
        return count;
    }

    /**
     * The time each attempt spent beyond the waits the worker stated, averaged over the attempts
     * between the first and the last retry line; -1 with fewer than three such lines.
     */
    long hangMs() {
        if (count < 3) {
            return -1;
        }
        long span = last.toEpochMilli() - first.toEpochMilli();
        long waits = waitsMs - lastWaitMs;
        return Math.max(0, (span - waits) / (count - 1));
    }

    /** The mean stated wait, for the report. */
    long meanWaitMs() {
        return count == 0 ? 0 : waitsMs / count;
    }
}
