package dev.guard.schema.internal;

import java.util.List;
import java.util.Optional;
import org.everit.json.schema.FormatValidator;

/**
 * The {@code format}s guard checks itself, by hand, exactly as their RFCs define them and without
 * regular expressions or allocation on a valid value: {@code date-time}, {@code date} and {@code time}
 * (RFC 3339 section 5.6, leap seconds only at 23:59 UTC) and {@code email} (an RFC 5321 Mailbox:
 * dot-string or quoted local part, host name or address literal). everit's versions of these cost
 * about 3.5 µs of a 10 µs validation in the bench; these a few tens of nanoseconds.
 */
public final class Formats {

    private Formats() {}

    /** The validators to register with everit. */
    public static List<FormatValidator> validators() {
        return List.of(
                named("date-time", s -> dateTime(s) ? null : "[" + s + "] is not a valid date-time (RFC 3339 date-time, e.g. 2026-12-01T16:36:06Z)"),
                named("date", s -> s.length() == 10 && fullDate(s, 0) ? null : "[" + s + "] is not a valid date (RFC 3339 full-date, e.g. 2026-12-01)"),
                named("time", s -> fullTime(s, 0, s.length()) ? null : "[" + s + "] is not a valid time (RFC 3339 full-time, e.g. 16:36:06Z)"),
                named("email", s -> email(s) ? null : "[" + s + "] is not a valid email address (RFC 5321 mailbox)"));
    }

    /** The same checks as networknt formats (2019-09 and 2020-12 with format assertion on). */
    public static List<com.networknt.schema.format.Format> networknt() {
        List<com.networknt.schema.format.Format> out = new java.util.ArrayList<>();
        for (FormatValidator v : validators()) {
            out.add(new com.networknt.schema.format.Format() {
                @Override
                public String getName() {
                    return v.formatName();
                }

                @Override
                public boolean matches(com.networknt.schema.ExecutionContext context, String value) {
                    return v.validate(value).isEmpty();
                }
            });
        }
        return out;
    }

    private interface Check {
        String failure(String subject);
    }

    private static FormatValidator named(String name, Check check) {
        return new FormatValidator() {
            @Override
            public Optional<String> validate(String subject) {
                return Optional.ofNullable(check.failure(subject));
            }

            @Override
            public String formatName() {
                return name;
            }
        };
    }

    // ---- RFC 3339 ------------------------------------------------------------------------------

    /** {@code full-date "T" full-time}, T and Z in either case. */
    public static boolean dateTime(String s) {
        if (s.length() < 20 || !fullDate(s, 0)) {
            return false;
        }
        char t = s.charAt(10);
        if (t != 'T' && t != 't') {
            return false;
        }
        return fullTime(s, 11, s.length());
    }

    /** {@code YYYY-MM-DD} at {@code from}, with the day valid for the month (and February 29 in leap years). */
    static boolean fullDate(String s, int from) {
        if (s.length() < from + 10 || s.charAt(from + 4) != '-' || s.charAt(from + 7) != '-') {
            return false;
        }
        int year = num(s, from, 4);
        int month = num(s, from + 5, 2);
        int day = num(s, from + 8, 2);
        return year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
    }

    /**
     * {@code HH:MM:SS[.frac](Z|+HH:MM|-HH:MM)} from {@code from} to {@code end}. A leap second (:60) is
     * valid only when the time in UTC is 23:59:60.
     */
    static boolean fullTime(String s, int from, int end) {
        if (end - from < 9 || s.charAt(from + 2) != ':' || s.charAt(from + 5) != ':') {
            return false;
        }
        int hour = num(s, from, 2);
        int minute = num(s, from + 3, 2);
        int second = num(s, from + 6, 2);
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) {
            return false;
        }
        int i = from + 8;
        if (i < end && s.charAt(i) == '.') {
            int digits = ++i;
            while (i < end && isDigit(s.charAt(i))) {
                i++;
            }
            if (i == digits) {
                return false;
            }
        }
        if (i >= end) {
            return false;
        }
        char z = s.charAt(i);
        int offsetMinutes;
        if (z == 'Z' || z == 'z') {
            if (i + 1 != end) {
                return false;
            }
            offsetMinutes = 0;
        } else if (z == '+' || z == '-') {
            if (end - i != 6 || s.charAt(i + 3) != ':') {
                return false;
            }
            int oh = num(s, i + 1, 2);
            int om = num(s, i + 4, 2);
            if (oh < 0 || oh > 23 || om < 0 || om > 59) {
                return false;
            }
            offsetMinutes = (z == '+' ? 1 : -1) * (oh * 60 + om);
        } else {
            return false;
        }
        if (second == 60) {
            int utc = Math.floorMod(hour * 60 + minute - offsetMinutes, 24 * 60);
            return utc == 23 * 60 + 59;
        }
        return true;
    }

    private static int daysIn(int year, int month) {
        switch (month) {
            case 2:
                return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4:
            case 6:
            case 9:
            case 11:
                return 30;
            default:
                return 31;
        }
    }

    /** The ASCII decimal number of {@code len} digits at {@code from}; -1 if any is not an ASCII digit. */
    private static int num(String s, int from, int len) {
        if (from + len > s.length()) {
            return -1;
        }
        int n = 0;
        for (int i = from; i < from + len; i++) {
            char c = s.charAt(i);
            if (!isDigit(c)) {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    // ---- RFC 5321 Mailbox --------------------------------------------------------------------------

    /** {@code Local-part "@" ( Domain / address-literal )}, at most 64 octets of local part and 254 in all. */
    public static boolean email(String s) {
        int n = s.length();
        if (n < 3 || n > 254) {
            return false;
        }
        int at = localPartEnd(s);
        if (at <= 0 || at > 64 || at >= n - 1 || s.charAt(at) != '@') {
            return false;
        }
        if (s.charAt(at + 1) == '[') {
            return s.charAt(n - 1) == ']' && addressLiteral(s, at + 2, n - 1);
        }
        return domain(s, at + 1, n);
    }

    /** The index just after a dot-string or quoted-string local part; -1 when there is none. */
    private static int localPartEnd(String s) {
        int n = s.length();
        if (s.charAt(0) == '"') {
            int i = 1;
            while (i < n) {
                char c = s.charAt(i);
                if (c == '"') {
                    return i + 1;
                }
                if (c == '\\') {
                    if (i + 1 >= n || s.charAt(i + 1) < 32 || s.charAt(i + 1) > 126) {
                        return -1;
                    }
                    i += 2;
                } else if (c >= 32 && c <= 126) {
                    i++;
                } else {
                    return -1;
                }
            }
            return -1;
        }
        int i = 0;
        boolean atomStart = true;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '.') {
                if (atomStart) {
                    return -1;
                }
                atomStart = true;
            } else if (isAtext(c)) {
                atomStart = false;
            } else {
                return atomStart ? -1 : i;
            }
            i++;
        }
        return -1;
    }

    private static boolean isAtext(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || "!#$%&'*+-/=?^_`{|}~".indexOf(c) >= 0;
    }

    /** {@code sub-domain *("." sub-domain)}, each a letter-digit-hyphen label of 1 to 63 characters. */
    static boolean domain(String s, int from, int end) {
        int labelStart = from;
        for (int i = from; i <= end; i++) {
            if (i == end || s.charAt(i) == '.') {
                int len = i - labelStart;
                if (len < 1 || len > 63 || s.charAt(labelStart) == '-' || s.charAt(i - 1) == '-') {
                    return false;
                }
                labelStart = i + 1;
            } else {
                char c = s.charAt(i);
                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '-')) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Inside the brackets: an IPv4 address, {@code IPv6:} and an IPv6 address, or {@code tag:text}. */
    private static boolean addressLiteral(String s, int from, int end) {
        if (s.regionMatches(true, from, "IPv6:", 0, 5)) {
            return ipv6(s, from + 5, end);
        }
        if (ipv4(s, from, end)) {
            return true;
        }
        int colon = s.indexOf(':', from);
        if (colon <= from || colon >= end - 1) {
            return false;
        }
        for (int i = from; i < colon; i++) {
            char c = s.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '-')) {
                return false;
            }
        }
        for (int i = colon + 1; i < end; i++) {
            char c = s.charAt(i);
            if (c < 33 || c > 126 || c == '[' || c == ']' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    /** Four decimal numbers 0 to 255 of one to three digits. */
    static boolean ipv4(String s, int from, int end) {
        int parts = 0;
        int i = from;
        while (i <= end) {
            int start = i;
            int v = 0;
            while (i < end && isDigit(s.charAt(i)) && i - start < 3) {
                v = v * 10 + (s.charAt(i) - '0');
                i++;
            }
            if (i == start || v > 255) {
                return false;
            }
            parts++;
            if (i == end) {
                return parts == 4;
            }
            if (s.charAt(i) != '.' || parts == 4) {
                return false;
            }
            i++;
        }
        return false;
    }

    /** RFC 4291 text form: eight groups of 1 to 4 hex digits, one {@code ::}, an IPv4 tail. */
    static boolean ipv6(String s, int from, int end) {
        int groups = 0;
        boolean compressed = false;
        int i = from;
        if (end - from >= 2 && s.charAt(from) == ':' && s.charAt(from + 1) == ':') {
            compressed = true;
            i += 2;
            if (i == end) {
                return true;
            }
        } else if (from < end && s.charAt(from) == ':') {
            return false;
        }
        while (i < end) {
            int start = i;
            while (i < end && Character.digit(s.charAt(i), 16) >= 0 && s.charAt(i) < 128 && i - start < 5) {
                i++;
            }
            if (i < end && s.charAt(i) == '.') {
                return ipv4(s, start, end) && groups + 2 <= (compressed ? 7 : 8) && (compressed || groups + 2 == 8);
            }
            int len = i - start;
            if (len < 1 || len > 4) {
                return false;
            }
            groups++;
            if (i == end) {
                break;
            }
            if (s.charAt(i) != ':') {
                return false;
            }
            i++;
            if (i < end && s.charAt(i) == ':') {
                if (compressed) {
                    return false;
                }
                compressed = true;
                i++;
                if (i == end) {
                    break;
                }
            } else if (i == end) {
                return false;
            }
        }
        return compressed ? groups <= 7 : groups == 8;
    }
}
