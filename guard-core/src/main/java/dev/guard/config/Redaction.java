package dev.guard.config;

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
     * scheme://userinfo@ ; userinfo runs to the last '@' before whitespace or a comma, so a raw
     * (not percent-encoded) password containing '/', '?' or '#' is masked too (over-eager on an
     * '@' in a path, which is harmless).
     */
    private static final Pattern URL_USERINFO =
            Pattern.compile("(?i)\\b([a-z][a-z0-9+.\\-]*://)([^\\s@,\"'<>]*(?:@[^\\s@,\"'<>]*)*)@");

    /** user:password@host without a scheme (Spring's spring.rabbitmq.addresses allows it). */
    private static final Pattern BARE_USERINFO =
            Pattern.compile("(?<![\\w/:.@%+\\-])([\\w.%+\\-]+):([^\\s/@,\"'<>]+)@(?=[\\w\\[])");

    /** name=value pairs in a query string or in free text (password=..., token: ...). */
    private static final Pattern SECRET_PAIR = Pattern.compile(
            "(?i)\\b([a-z0-9_.\\-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|credential)[a-z0-9_.\\-]*)(=|:\\s?)([^\\s&;,\"']+)");

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
        return maskText(value);
    }

    /** Masks URL passwords and secret name=value pairs anywhere in free text. */
    public static String maskText(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String masked = text;
        if (text.indexOf('@') >= 0) { // both userinfo patterns end in '@'
            masked = maskBareUserInfo(maskUserInfo(masked));
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
            return userInfo.substring(0, colon) + ":" + MASK;
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
