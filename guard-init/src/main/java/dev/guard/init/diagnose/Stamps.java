package dev.guard.init.diagnose;

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
     * A line's RFC 3339 prefix, read once: its text (without the space after it) and, when it is
     * the UTC form docker and kubectl write, its epoch nanoseconds ({@link Long#MIN_VALUE} otherwise).
     */
    record Stamp(String text, long nanos) {}

    /** The line's RFC 3339 prefix, or null when it has none. */
    static Stamp prefix(String l) {
        if (l.length() < 21 || l.charAt(4) != '-' || l.charAt(10) != 'T' || !Character.isDigit(l.charAt(0))) {
            return null;
        }
        int sp = l.indexOf(' ', 19);
        if (sp < 0 || sp > 40) {
            return null;
        }
        long nanos = utc(l, sp);
        if (nanos == Long.MIN_VALUE && !RFC3339.matcher(l).region(0, sp).matches()) {
            return null;
        }
        return new Stamp(l.substring(0, sp), nanos);
    }

    /**
     * Epoch nanoseconds of {@code yyyy-MM-ddTHH:mm:ss[.fraction]Z} in {@code s[0, end)}, read by hand
     * (docker and kubectl write every line's time so); {@link Long#MIN_VALUE} for any other form.
     */
    static long utc(String s, int end) {
        if (end < 20 || s.charAt(end - 1) != 'Z' || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T'
                || s.charAt(13) != ':' || s.charAt(16) != ':') {
            return Long.MIN_VALUE;
        }
        int y = digits(s, 0, 4);
        int mo = digits(s, 5, 7);
        int d = digits(s, 8, 10);
        int h = digits(s, 11, 13);
        int mi = digits(s, 14, 16);
        int se = digits(s, 17, 19);
        if (y < 0 || y > 2261 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59) {
            return Long.MIN_VALUE;
        }
        long nanos = 0;
        int i = 19;
        if (s.charAt(i) == '.') {
            int scale = 100_000_000;
            for (i = 20; i < end - 1; i++) {
                char c = s.charAt(i);
                if (c < '0' || c > '9' || i > 28) {
                    return Long.MIN_VALUE;
                }
                nanos += (c - '0') * (long) scale;
                scale /= 10;
            }
            if (i == 20) {
                return Long.MIN_VALUE;
            }
        } else if (i != end - 1) {
            return Long.MIN_VALUE;
        }
        boolean leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
        if (d > (mo == 2 ? (leap ? 29 : 28) : MONTH_DAYS[mo])) {
            return Long.MIN_VALUE;
        }
        long day = epochDay(y, mo, d);
        return ((day * 24 + h) * 60 + mi) * 60_000_000_000L + se * 1_000_000_000L + nanos;
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

    private static int digits(String s, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + c - '0';
        }
        return v;
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
        return time(stamp == null ? null : new Stamp(stamp, utc(stamp, stamp.length())), text);
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
