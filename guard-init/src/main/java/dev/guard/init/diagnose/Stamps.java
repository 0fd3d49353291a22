package dev.guard.init.diagnose;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Timestamps of captured lines: the RFC 3339 prefix {@code docker compose logs --timestamps} and
 * {@code kubectl logs --timestamps} write, an application's own leading time, Redis's. Parsed only
 * for lines that say something: a gigabyte of job lines needs none.
 */
final class Stamps {
    /** docker / kubectl --timestamps: RFC 3339 with nanoseconds, then one space. */
    private static final Pattern RFC3339 = Pattern.compile(
            "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:\\d{2})");
    /** An application's own leading timestamp: 2026-11-30 09:00:01,123 / [2026-11-30T09:00:01.123Z]. */
    private static final Pattern APP_TIME = Pattern.compile(
            "^\\[?(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2}:\\d{2})(?:[.,](\\d{1,9}))?(Z|[+-]\\d{2}:?\\d{2})?");
    /** Redis: 1:M 30 Nov 2026 09:00:01.123 * ... */
    static final Pattern REDIS_TIME = Pattern.compile(
            "^\\d+:[XCSM] (\\d{1,2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d{3}) ");
    private static final DateTimeFormatter REDIS_FORMAT =
            DateTimeFormatter.ofPattern("d MMM yyyy HH:mm:ss.SSS", Locale.ENGLISH);

    private Stamps() {}

    /**
     * A line's RFC 3339 prefix, read once: its length (the text follows after one space), its epoch
     * nanoseconds when it is the UTC form docker and kubectl write ({@link Long#MIN_VALUE} otherwise),
     * and its text only in that other case (an offset form, parsed when a time is asked for).
     */
    record Stamp(int length, long nanos, String text) {}

    /** The line's RFC 3339 prefix, or null when it has none. */
    static Stamp prefix(String l) {
        if (l.length() < 21 || l.charAt(4) != '-' || l.charAt(10) != 'T') {
            return null;
        }
        // every character of a prefix is ASCII, so its bytes stand where its characters do
        byte[] b = l.substring(0, Math.min(l.length(), 42)).getBytes(StandardCharsets.UTF_8);
        return new Reader().prefix(b, 0, b.length);
    }

    /**
     * Reads the RFC 3339 prefixes of one file's lines on their bytes, before they are decoded: the
     * date and time of the last prefix are remembered to the second, so a line of the same second
     * costs its fraction. Not thread-safe; one per reading thread.
     */
    static final class Reader {
        private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
        /** Nanoseconds per unit of a fraction with this many digits. */
        private static final long[] SCALE = {0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};
        private final byte[] second = new byte[19];
        private long secondNanos = Long.MIN_VALUE;

        /** The prefix of the line {@code b[from, to)}, or null when it has none. */
        Stamp prefix(byte[] b, int from, int to) {
            if (to - from < 21 || b[from + 4] != '-' || b[from + 10] != 'T' || !digit(b[from])) {
                return null;
            }
            int sp = -1;
            for (int i = from + 19, last = Math.min(to, from + 41); i < last; i++) {
                if (b[i] == ' ') {
                    sp = i - from;
                    break;
                }
            }
            if (sp < 0) {
                return null;
            }
            long nanos = utc(b, from, sp);
            if (nanos != Long.MIN_VALUE) {
                return new Stamp(sp, nanos, null);
            }
            String text = new String(b, from, sp, StandardCharsets.ISO_8859_1);
            return RFC3339.matcher(text).matches() ? new Stamp(sp, Long.MIN_VALUE, text) : null;
        }

        /**
         * Epoch nanoseconds of {@code yyyy-MM-ddTHH:mm:ss[.fraction]Z} in {@code b[from, from + len)},
         * read by hand (docker and kubectl write every line's time so); {@link Long#MIN_VALUE} for
         * any other form.
         */
        long utc(byte[] b, int from, int len) {
            if (len < 20 || b[from + len - 1] != 'Z') {
                return Long.MIN_VALUE;
            }
            long base = sameSecond(b, from) ? secondNanos : second(b, from);
            if (base == Long.MIN_VALUE) {
                return Long.MIN_VALUE;
            }
            int i = from + 19;
            int end = from + len - 1;
            if (b[i] != '.') {
                return i == end ? base : Long.MIN_VALUE;
            }
            int digits = end - i - 1;
            if (digits < 1 || digits > 9) {
                return Long.MIN_VALUE;
            }
            long fraction = 0;
            for (i++; i < end; i++) {
                byte c = b[i];
                if (c < '0' || c > '9') {
                    return Long.MIN_VALUE;
                }
                fraction = fraction * 10 + c - '0';
            }
            return base + fraction * SCALE[digits];
        }

        /** True when {@code b[from, from + 19)} is the remembered second: compared as three longs (bytes 11 to 18 last). */
        private boolean sameSecond(byte[] b, int from) {
            return secondNanos != Long.MIN_VALUE && (long) LONGS.get(b, from + 11) == (long) LONGS.get(second, 11)
                    && (long) LONGS.get(b, from) == (long) LONGS.get(second, 0)
                    && (long) LONGS.get(b, from + 8) == (long) LONGS.get(second, 8);
        }

        /** The epoch nanoseconds of {@code yyyy-MM-ddTHH:mm:ss}, remembered; {@link Long#MIN_VALUE} when it is no such time. */
        private long second(byte[] b, int from) {
            if (b[from + 4] != '-' || b[from + 7] != '-' || b[from + 10] != 'T' || b[from + 13] != ':' || b[from + 16] != ':') {
                return Long.MIN_VALUE;
            }
            int y = digits(b, from, from + 4);
            int mo = digits(b, from + 5, from + 7);
            int d = digits(b, from + 8, from + 10);
            int h = digits(b, from + 11, from + 13);
            int mi = digits(b, from + 14, from + 16);
            int se = digits(b, from + 17, from + 19);
            if (y < 0 || y > 2261 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59
                    || se < 0 || se > 59) {
                return Long.MIN_VALUE;
            }
            boolean leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
            if (d > (mo == 2 ? (leap ? 29 : 28) : MONTH_DAYS[mo])) {
                return Long.MIN_VALUE;
            }
            long nanos = (((epochDay(y, mo, d) * 24 + h) * 60 + mi) * 60 + se) * 1_000_000_000L;
            System.arraycopy(b, from, second, 0, 19);
            secondNanos = nanos;
            return nanos;
        }

        private static boolean digit(byte c) {
            return c >= '0' && c <= '9';
        }

        private static int digits(byte[] b, int from, int to) {
            int v = 0;
            for (int i = from; i < to; i++) {
                byte c = b[i];
                if (c < '0' || c > '9') {
                    return -1;
                }
                v = v * 10 + c - '0';
            }
            return v;
        }
    }

    private static final int[] MONTH_DAYS = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil), without allocating. */
    static long epochDay(int y, int m, int d) {
        long yy = m <= 2 ? y - 1 : y;
        long era = Math.floorDiv(yy, 400);
        long yoe = yy - era * 400;
        long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    /** A cheap look: does the line start with a date or a Redis time? */
    static boolean looksStamped(String l) {
        int i = l.startsWith("[") ? 1 : 0;
        if (l.length() >= i + 10 && Character.isDigit(l.charAt(i)) && l.charAt(i + 4) == '-' && l.charAt(i + 7) == '-') {
            return true;
        }
        int colon = l.indexOf(':');
        return colon > 0 && colon < 10 && l.length() > colon + 2 && "XCSM".indexOf(l.charAt(colon + 1)) >= 0
                && l.charAt(colon + 2) == ' ' && REDIS_TIME.matcher(l).find();
    }

    /** As {@link #time(Stamp, String)} for a prefix given as text (or null). */
    static Instant timeOf(String stamp, String text) {
        return time(stamp == null ? null : new Stamp(stamp.length(), utcOf(stamp), stamp), text);
    }

    /** {@link Reader#utc} of a whole text; {@link Long#MIN_VALUE} when it is not that form. */
    static long utcOf(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return b.length != s.length() ? Long.MIN_VALUE : new Reader().utc(b, 0, b.length);
    }

    /** The line's time: its RFC 3339 prefix when it had one, else its own leading time; null without. */
    static Instant time(Stamp stamp, String text) {
        if (stamp != null) {
            long n = stamp.nanos();
            if (n != Long.MIN_VALUE) {
                return Instant.ofEpochSecond(Math.floorDiv(n, 1_000_000_000L), Math.floorMod(n, 1_000_000_000L));
            }
            try {
                return OffsetDateTime.parse(stamp.text()).toInstant();
            } catch (DateTimeParseException e) {
                // fall through to the line's own time
            }
        }
        return appTime(text);
    }

    static Instant appTime(String l) {
        Matcher m = APP_TIME.matcher(l);
        if (m.find()) {
            String frac = m.group(3) == null ? "" : "." + m.group(3);
            String zone = m.group(4);
            try {
                LocalDateTime ldt = LocalDateTime.parse(m.group(1) + "T" + m.group(2) + frac);
                ZoneOffset off = ZoneOffset.UTC;
                if (zone != null && !zone.equals("Z")) {
                    off = ZoneOffset.of(zone.length() == 5 ? zone.substring(0, 3) + ":" + zone.substring(3) : zone);
                }
                return ldt.toInstant(off);
            } catch (java.time.DateTimeException e) {
                return null;
            }
        }
        Matcher r = REDIS_TIME.matcher(l);
        if (r.find()) {
            try {
                return LocalDateTime.parse(r.group(1), REDIS_FORMAT).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                return null;
            }
        }
        return null;
    }
}
