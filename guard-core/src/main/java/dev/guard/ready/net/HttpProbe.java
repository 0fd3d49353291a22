package dev.guard.ready.net;

import dev.guard.config.Redaction;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.internal.Classify;
import dev.guard.ready.internal.Timer;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;

/**
 * An HTTP(S) GET that must answer 2xx, e.g. a backend's health URL.
 * 401/403 is AUTH, 404 MISSING, any other status LOADING (it answers, but not healthy yet), an
 * answer that is not HTTP PROTOCOL.
 *
 * <p>Through the JDK's {@link HttpURLConnection}, blocking, in the caller's thread, direct (no
 * proxy), following redirects within the same scheme. Not {@code java.net.http.HttpClient}: in Java
 * 17 it cannot be closed, and its selector thread sits in native code until the client is
 * collected, so a CLI that exits after its last probe waited 300 ms for it (HotSpot's
 * {@code VM_Exit} waits that long for threads in native); it also loaded the TLS stack and the
 * trust store for plain {@code http://} (about 1,000 classes: guard-init's {@code wait
 * http://...} took 0.61-0.66 s in its image, against 0.17-0.24 s now).
 */
public final class HttpProbe implements Probe {

    private final URI uri;
    private final String target;

    HttpProbe(URI uri) {
        this.uri = uri;
        this.target = Redaction.maskSettingValue(uri.toString());
    }

    /** @throws IllegalArgumentException not an absolute http(s) URL */
    public static HttpProbe of(String url) {
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("malformed HTTP URL '" + Redaction.maskSettingValue(url) + "': "
                    + Redaction.maskText(e.getReason()));
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("HTTP URL '" + Redaction.maskSettingValue(url) + "' must start with http:// or https://");
        }
        if (u.getHost() == null) {
            throw new IllegalArgumentException("HTTP URL '" + Redaction.maskSettingValue(url) + "' has no host");
        }
        return new HttpProbe(u);
    }

    @Override
    public String kind() {
        return "http";
    }

    @Override
    public String target() {
        return target;
    }

    @Override
    public ProbeResult check(Duration attemptTimeout) {
        Timer timer = new Timer();
        HttpURLConnection connection = null;
        try {
            int timeoutMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, attemptTimeout.toMillis()));
            connection = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
            connection.setConnectTimeout(timeoutMillis);
            connection.setReadTimeout(timeoutMillis);
            connection.setInstanceFollowRedirects(true);
            connection.setUseCaches(false);
            connection.setRequestMethod("GET");
            int status = connection.getResponseCode();
            if (status < 100) {
                return ProbeResult.of(this, ProbeState.PROTOCOL, "the answer is not HTTP (no status line)", null,
                        timer.elapsed());
            }
            String detail = "HTTP " + status;
            if (status >= 200 && status < 300) {
                return ProbeResult.of(this, ProbeState.READY, detail, null, timer.elapsed());
            }
            if (status == 401 || status == 403) {
                return ProbeResult.of(this, ProbeState.AUTH, detail + ": credentials missing or rejected", null,
                        timer.elapsed());
            }
            if (status == 404) {
                return ProbeResult.of(this, ProbeState.MISSING, detail + ": no such path (yet)", null, timer.elapsed());
            }
            return ProbeResult.of(this, ProbeState.LOADING, detail + ": answers, but not healthy yet", null,
                    timer.elapsed());
        } catch (Exception e) {
            ProbeState s = Classify.generic(e);
            if (s == null) {
                return ProbeResult.of(this, ProbeState.PROTOCOL, "the answer is not HTTP", e, timer.elapsed());
            }
            return ProbeResult.of(this, s, "", e, timer.elapsed());
        } finally {
            if (connection != null) {
                connection.disconnect(); // the body is not read: a status is the answer
            }
        }
    }

    @Override
    public void close() {
        // nothing held between attempts: each attempt's connection is closed when it ends
    }
}
