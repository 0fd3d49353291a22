package dev.guard.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks secrets before anything is printed: passwords in URL user-info, secret query
 * parameters, and the whole value of any setting whose name says it is a secret.
 *
 * <p>Every log line, error message, JSON report and dead-letter header that may carry a
 * configured value goes through here. Masking is deliberately over-eager: a user name that
 * looks like a token is masked too.
 */
public final class Redaction {

    /** What a masked secret prints as. */
    public static final String MASK = "****";

    private static final Pattern SECRET_NAME =
            Pattern.compile("(?i).*(PASSWORD|PASSWD|PASSPHRASE|PWD|SECRET|TOKEN|KEY|CREDENTIAL|AUTH|JAAS|(?:^|[_.\\-])PASS(?:$|[_.\\-])).*");

    /**
     * scheme://userinfo@ ; userinfo runs to the last '@' before whitespace, a comma or kombu's ';scheme://', so a raw
     * (not percent-encoded) password containing '/', '?' or '#' is masked too (over-eager on an
     * '@' in a path, which is harmless).
     */
    private static final Pattern URL_USERINFO =
            Pattern.compile("(?i)\\b([a-z][a-z0-9+.\\-]*://)((?:(?!;[a-z][a-z0-9+.\\-]*://)[^\\s@,\"'<>])*"
                    + "(?:@(?:(?!;[a-z][a-z0-9+.\\-]*://)[^\\s@,\"'<>])*)*)@");

    /** user:password@host without a scheme (Spring's spring.rabbitmq.addresses allows it). */
    private static final Pattern BARE_USERINFO =
            Pattern.compile("(?<![\\w/:.@%+\\-])([\\w.%+\\-]+):([^\\s/@,\"'<>]+)@(?=[\\w\\[])");

    /** name=value pairs in a query string or in free text (password=..., token: ...). */
    private static final Pattern SECRET_PAIR = Pattern.compile(
            "(?i)\\b([a-z0-9_.\\-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|credential)[a-z0-9_.\\-]*)(=|:\\s?)([^\\s&;,\"']+)");

    /**
     * A user name that may be shown: letters, digits and {@code . _ - + %}. Anything else before
     * the ':' ({@code nats://to:ken@host}, a token with a colon read as user and password) is
     * masked with the password.
     */
    private static final Pattern PLAIN_USER = Pattern.compile("[A-Za-z0-9._+%\\-]*");

    private static final Pattern HOST_PORT = Pattern.compile("\\s*(?:\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9_.\\-]+)(?::\\d+)?\\s*");

    private Redaction() {}

    /** True when a variable or setting with this name holds a secret, by its name alone. */
    public static boolean isSecretName(String name) {
        return name != null && SECRET_NAME.matcher(name).matches();
    }

    /**
     * The value as it may be printed: fully masked when the name says secret, otherwise with
     * any URL password or secret query parameter masked.
     */
    public static String maskValue(String name, String value) {
        if (value == null) {
            return null;
        }
        if (isSecretName(name)) {
            return MASK;
        }
        return maskSettingValue(value);
    }

    /** Where a URL starts inside a value: a scheme not preceded by a scheme character. */
    private static final Pattern SCHEME_START = Pattern.compile("(?i)(?<![a-z0-9+.\\-])[a-z][a-z0-9+.\\-]*://");

    /**
     * One setting's value (a URL, a list of URLs or {@code user:pass@host} entries) as it may be
     * printed. Unlike {@link #maskText(String)}, which must find URLs in free text and so stops a
     * password at white space, a comma or a quote, this knows the whole string is one value: a
     * URL's user info runs from {@code ://} to the last {@code '@'} before the next URL, whatever
     * it holds ({@code / ? # [ ] , ;}, spaces, quotes, any script), and everything after the user
     * name is replaced. Without a scheme, everything from the start to the last {@code '@'} is user
     * info unless every comma-separated entry carries its own. Secret {@code name=value} pairs are
     * masked as in {@link #maskText(String)}.
     */
    public static String maskSettingValue(String value) {
        if (value == null || value.isEmpty()) {
            return value;
        }
        String masked = value.indexOf('@') < 0 ? value : maskUserInfoRegions(value);
        return mayHoldSecretPair(masked) ? maskPairs(masked) : masked;
    }

    private static String maskUserInfoRegions(String value) {
        List<int[]> starts = new ArrayList<>(); // {scheme start, region start}
        Matcher m = SCHEME_START.matcher(value);
        while (m.find()) {
            starts.add(new int[] {m.start(), m.end()});
        }
        if (starts.isEmpty()) {
            return maskBareValue(value);
        }
        StringBuilder out = new StringBuilder(value.length());
        out.append(value, 0, starts.get(0)[0]);
        for (int i = 0; i < starts.size(); i++) {
            int schemeStart = starts.get(i)[0];
            int from = starts.get(i)[1];
            int limit = i + 1 < starts.size() ? starts.get(i + 1)[0] : value.length();
            String scheme = value.substring(schemeStart, from - 3);
            int at = value.lastIndexOf('@', limit - 1);
            out.append(value, schemeStart, from);
            if (at < from) {
                out.append(value, from, limit);
            } else {
                out.append(maskUserInfo(scheme, value.substring(from, at))).append(value, at, limit);
            }
        }
        return out.toString();
    }

    /** {@code user:pass@host[,user:pass@host]}: per entry when each has one '@', else up to the last '@'. */
    private static String maskBareValue(String value) {
        String[] entries = value.split(",", -1);
        boolean each = entries.length > 1;
        for (String e : entries) {
            each &= e.indexOf('@') >= 0 && e.indexOf('@') == e.lastIndexOf('@') && e.indexOf(':') >= 0
                    && e.indexOf(':') < e.indexOf('@') && HOST_PORT.matcher(e.substring(e.indexOf('@') + 1)).matches();
        }
        if (!each) {
            int at = value.lastIndexOf('@');
            return maskUserInfo("", value.substring(0, at)) + value.substring(at);
        }
        List<String> out = new ArrayList<>();
        for (String e : entries) {
            int at = e.indexOf('@');
            out.add(maskUserInfo("", e.substring(0, at)) + e.substring(at));
        }
        return String.join(",", out);
    }

    /** Masks URL passwords and secret name=value pairs anywhere in free text. */
    public static String maskText(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String masked = text;
        if (text.indexOf('@') >= 0) { // both userinfo patterns end in '@'
            masked = maskWideUserInfo(maskBareUserInfo(maskUserInfo(masked)));
        }
        return mayHoldSecretPair(masked) ? maskPairs(masked) : masked;
    }

    /** Secret-pair names, lower case: each {@link #SECRET_PAIR} match contains one of them. */
    private static final String[] PAIR_WORDS = {"pass", "pwd", "secret", "token", "key", "credential"};

    /**
     * False when {@link #SECRET_PAIR} cannot match: no '=' or ':' or no name word in the text.
     * Most texts (a probe's detail, an exception message) have none, and the regular expressions
     * were most of a readiness attempt's CPU: a fleet of 500 gates on one core felt it.
     */
    private static boolean mayHoldSecretPair(String text) {
        if (text.indexOf('=') < 0 && text.indexOf(':') < 0) {
            return false;
        }
        for (String word : PAIR_WORDS) {
            for (int i = 0, last = text.length() - word.length(); i <= last; i++) {
                if (text.regionMatches(true, i, word, 0, word.length())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A URL in free text whose password holds what {@link #URL_USERINFO} stops at (a space, a comma,
     * a quote): {@code redis://app:pa ss@redis:6379}. On one line, from {@code ://} to the last '@'
     * before the next URL, when that part holds {@code user:} followed by something that is not a
     * port and the '@' is followed by a host. {@code redis://redis:6379 is down, mail ops@x.io} is left
     * alone (a port follows the ':'); a password that starts with digits and then a space is not
     * recognised in free text (a setting's value is masked whole by {@link #maskSettingValue}).
     */
    private static String maskWideUserInfo(String text) {
        Matcher m = SCHEME_START.matcher(text);
        List<int[]> starts = new ArrayList<>();
        while (m.find()) {
            starts.add(new int[] {m.start(), m.end()});
        }
        if (starts.isEmpty()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int copied = 0;
        for (int i = 0; i < starts.size(); i++) {
            int from = starts.get(i)[1];
            int lineEnd = text.indexOf('\n', from);
            int limit = Math.min(i + 1 < starts.size() ? starts.get(i + 1)[0] : text.length(), lineEnd < 0 ? text.length() : lineEnd);
            int at = text.lastIndexOf('@', limit - 1);
            if (at < from || at + 1 >= text.length()) {
                continue;
            }
            String region = text.substring(from, at);
            int colon = region.indexOf(':');
            char next = text.charAt(at + 1);
            boolean maskedAlready = region.equals(MASK) || (colon >= 0 && region.length() == colon + 1 + MASK.length()
                    && region.startsWith(MASK, colon + 1));
            if (region.isEmpty() || maskedAlready || !(Character.isLetterOrDigit(next) || next == '[')) {
                continue;
            }
            String scheme = text.substring(starts.get(i)[0], from - 3);
            if (colon < 0) {
                // a token alone (nats://to"ken@host): masked for the schemes that take one, up to a password's length
                if (userIsSecret(scheme) && region.length() <= 128) {
                    out.append(text, copied, from).append(MASK);
                    copied = at;
                }
                continue;
            }
            int portEnd = colon + 1;
            while (portEnd < region.length() && Character.isDigit(region.charAt(portEnd))) {
                portEnd++;
            }
            boolean port = portEnd > colon + 1 && (portEnd == region.length() || "/ ,;)".indexOf(region.charAt(portEnd)) >= 0);
            if (port) {
                continue;
            }
            out.append(text, copied, from).append(maskUserInfo(scheme, region));
            copied = at;
        }
        return copied == 0 ? text : out.append(text, copied, text.length()).toString();
    }

    private static String maskUserInfo(String text) {
        Matcher m = URL_USERINFO.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (m.find()) {
            String scheme = m.group(1);
            String userInfo = m.group(2);
            m.appendReplacement(out, Matcher.quoteReplacement(scheme + maskUserInfo(scheme, userInfo) + "@"));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String maskUserInfo(String scheme, String userInfo) {
        int colon = userInfo.indexOf(':');
        if (colon >= 0) {
            String user = userInfo.substring(0, colon);
            return (PLAIN_USER.matcher(user).matches() ? user : MASK) + ":" + MASK;
        }
        if (userIsSecret(scheme) || isSecretName(userInfo)) {
            return userInfo.isEmpty() ? userInfo : MASK;
        }
        return userInfo;
    }

    /**
     * True when a URL of this scheme carries a password or token alone as its user:
     * {@code redis://secret@host}, {@code nats://token@host}, {@code tls://token@host}.
     */
    public static boolean userIsSecret(String scheme) {
        String s = scheme == null ? "" : scheme.toLowerCase(Locale.ROOT);
        return s.startsWith("redis") || s.startsWith("nats") || s.startsWith("tls");
    }

    private static String maskBareUserInfo(String text) {
        Matcher m = BARE_USERINFO.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + ":" + MASK + "@"));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String maskPairs(String text) {
        Matcher m = SECRET_PAIR.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (m.find()) {
            String value = m.group(3);
            String replacement = value.equals(MASK) ? m.group() : m.group(1) + m.group(2) + MASK;
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }
}
