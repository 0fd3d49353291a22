package dev.guard.testing;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks the secret in a URL's user info before a fixture prints it: {@code redis://:pw@host} becomes
 * {@code redis://:****@host}, {@code amqp://user:pw@host} {@code amqp://user:****@host}, and a token
 * alone ({@code nats://token@host}) {@code nats://****@host}. The fixtures depend on no guard module,
 * so they do not use guard's own redaction. Public for the cold-start harness's messages.
 */
public final class Masking {

    private static final Pattern USER_INFO = Pattern.compile("(//)([^/@\\s]*)@");

    private Masking() {}

    /** {@code text} with the secret of every URL in it masked; null stays null. */
    public static String url(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = USER_INFO.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String info = m.group(2);
            int colon = info.indexOf(':');
            String masked = colon < 0 ? "****" : info.substring(0, colon + 1) + "****";
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + masked + "@"));
        }
        m.appendTail(out);
        return out.toString();
    }
}
