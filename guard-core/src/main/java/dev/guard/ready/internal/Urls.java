package dev.guard.ready.internal;

import dev.guard.config.Redaction;
import dev.guard.endpoint.Endpoint;
import dev.guard.endpoint.Endpoints;
import java.util.List;

/** The probe builders' use of {@link Endpoints}: one URL of an expected family of schemes, with messages that name it. */
public final class Urls {

    private Urls() {}

    /**
     * Parses {@code url} as one endpoint whose scheme is one of {@code schemes}.
     *
     * @param what    the broker, for messages ({@code Redis})
     * @param form    the expected form, for messages ({@code redis://[user:password@]host[:port][/db]})
     * @throws IllegalArgumentException naming the fault, with any password masked
     */
    public static Endpoint single(String url, String what, List<String> schemes, String form) {
        List<Endpoint> all = all(url, what, schemes, form);
        if (all.size() != 1) {
            throw new IllegalArgumentException(what + " URL '" + Redaction.maskSettingValue(url) + "' names " + all.size()
                    + " hosts; expected one (" + form + ")");
        }
        return all.get(0);
    }

    /** As {@link #single}, for a comma-separated list of URLs or hosts ({@code nats://a:4222,nats://b:4222}). */
    public static List<Endpoint> all(String url, String what, List<String> schemes, String form) {
        List<Endpoint> all;
        try {
            all = Endpoints.parse(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed " + what + " URL '" + Redaction.maskSettingValue(url) + "': " + e.getMessage());
        }
        for (Endpoint e : all) {
            if (e.scheme() == null || !schemes.contains(e.scheme())) {
                throw new IllegalArgumentException(what + " URL '" + Redaction.maskSettingValue(url) + "' must start with "
                        + String.join(" or ", schemes.stream().map(s -> s + "://").toList()));
            }
            if (e.host().isEmpty()) {
                throw new IllegalArgumentException(what + " URL '" + Redaction.maskSettingValue(url) + "' has no host (expected " + form + ")");
            }
        }
        return all;
    }
}
