package dev.guard.ready.redis;

import dev.guard.ready.ProbeState;
import dev.guard.ready.internal.Classify;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What every lettuce-bound Redis probe shares: one {@link ClientResources} per process, the client
 * options of a probe (no auto-reconnect, connect and command timeout = the attempt timeout), and
 * the reading of lettuce's exceptions and Redis's replies as a {@link ProbeState}.
 */
final class LettuceSupport {

    private static final Pattern PERC = Pattern.compile("[0-9]+(\\.[0-9]+)?");
    private static final Pattern WHOLE = Pattern.compile("-?[0-9]+");

    private LettuceSupport() {}

    /** A state and the words for it. */
    record Found(ProbeState state, String detail) {}

    /** Options for a probe's client: fail fast, never reconnect behind the probe's back. */
    static ClientOptions options(Duration timeout) {
        return ClientOptions.builder()
                .autoReconnect(false)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .build();
    }

    /** What a failed exchange means ({@code took} words a timeout). */
    static Found classify(Throwable e, Duration took) {
        if (isLoading(e)) {
            return new Found(ProbeState.LOADING, "dataset loading (answered -LOADING)");
        }
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String name = c.getClass().getName();
            if (name.contains("Ssl") || name.contains("SSL")) {
                return new Found(ProbeState.TLS, "TLS handshake failed");
            }
        }
        ProbeState s = Classify.generic(e);
        if (s == ProbeState.AUTH) {
            return new Found(s, "the password/ACL user was rejected (NOAUTH/WRONGPASS)");
        }
        if (s == ProbeState.TIMEOUT) {
            return new Found(s, "connected, but no reply within " + took.toMillis() + " ms");
        }
        if (s != null) {
            return new Found(s, "");
        }
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String name = c.getClass().getSimpleName();
            if (name.contains("ProtocolException") || name.contains("DecoderException")) {
                return new Found(ProbeState.PROTOCOL, "the reply is not Redis protocol");
            }
        }
        if (Classify.peerClosed(e)) {
            return new Found(ProbeState.REFUSED, "the server closed the connection");
        }
        return new Found(ProbeState.PROTOCOL, "unexpected reply or error");
    }

    static boolean isLoading(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String m = c.getMessage();
            if (c.getClass().getSimpleName().equals("RedisLoadingException")
                    || (m != null && m.startsWith("LOADING"))) {
                return true;
            }
        }
        return false;
    }

    /** The first message in the chain that starts with {@code prefix} ({@code ERR No such master}), or null. */
    static String errorStarting(Throwable e, String prefix) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String m = c.getMessage();
            if (m != null && m.startsWith(prefix)) {
                return m;
            }
        }
        return null;
    }

    /** {@code dataset 40% loaded, eta 3s} from {@code INFO persistence} text; plain text when unreadable. */
    static String loadingDetail(String info) {
        return loadingDetail(RedisInfo.fields(info));
    }

    /** {@code dataset 40% loaded, eta 3s} from the fields of {@code INFO persistence}; plain text when unreadable. */
    static String loadingDetail(Map<String, String> info) {
        String perc = info.get("loading_loaded_perc");
        if (perc == null || !PERC.matcher(perc).matches()) {
            return "dataset loading (progress unreadable)";
        }
        long eta = wholeNumber(info, "loading_eta_seconds");
        String etaText = eta >= 0 ? ", eta " + eta + "s" : "";
        return "dataset " + (long) Math.floor(Double.parseDouble(perc)) + "% loaded" + etaText;
    }

    /** The field's whole number, or -1 when it is missing or not one (or negative: Redis's "unknown"). */
    static long wholeNumber(Map<String, String> info, String field) {
        String v = info.get(field);
        return v == null || !WHOLE.matcher(v).matches() ? -1 : Long.parseLong(v);
    }

    /*
     * One ClientResources (event loops, timer) for every Redis probe in the process, created on the
     * first check and shut down when the last probe using it is closed: creating resources per
     * attempt or per probe costs tens to thousands of milliseconds.
     */
    private static final Object SHARED_LOCK = new Object();
    private static ClientResources shared;
    private static int sharedUsers;

    static ClientResources acquireShared() {
        synchronized (SHARED_LOCK) {
            if (shared == null) {
                // the JDK resolver: starts faster than netty's DNS client and reports UnknownHostException
                shared = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(2)
                        .addressResolverGroup(io.netty.resolver.DefaultAddressResolverGroup.INSTANCE)
                        .commandLatencyRecorder(io.lettuce.core.metrics.CommandLatencyRecorder.disabled())
                        .commandLatencyPublisherOptions(io.lettuce.core.event.DefaultEventPublisherOptions.disabled())
                        .build();
            }
            sharedUsers++;
            return shared;
        }
    }

    static void releaseShared() {
        synchronized (SHARED_LOCK) {
            sharedUsers--;
            if (sharedUsers <= 0 && shared != null) {
                try {
                    shared.shutdown(0, 200, TimeUnit.MILLISECONDS);
                } catch (RuntimeException e) {
                    // closing must never throw
                }
                shared = null;
                sharedUsers = 0;
            }
        }
    }
}
