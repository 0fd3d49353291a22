package dev.guard.ready.net;

import dev.guard.config.Redaction;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.internal.Classify;
import dev.guard.ready.internal.Timer;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;

/**
 * An HTTP(S) GET (java.net.http) that must answer 2xx, e.g. a backend's health URL.
 * 401/403 is AUTH, 404 MISSING, any other status LOADING (it answers, but not healthy yet).
 */
public final class HttpProbe implements Probe {

    private final URI uri;
    private final String target;
    private final Object lock = new Object();
    private HttpClient client;
    private Duration clientTimeout;

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
        try {
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(attemptTimeout).GET().build();
            HttpResponse<Void> response = client(attemptTimeout).send(request, HttpResponse.BodyHandlers.discarding());
            int status = response.statusCode();
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
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ProbeResult.of(this, ProbeState.TIMEOUT, "interrupted", e, timer.elapsed());
        } catch (Exception e) {
            ProbeState s = Classify.generic(e);
            if (s == null) {
                return ProbeResult.of(this, ProbeState.PROTOCOL, "the answer is not HTTP", e, timer.elapsed());
            }
            return ProbeResult.of(this, s, "", e, timer.elapsed());
        }
    }

    private HttpClient client(Duration timeout) {
        synchronized (lock) {
            if (client == null || !timeout.equals(clientTimeout)) {
                client = HttpClient.newBuilder().connectTimeout(timeout)
                        .followRedirects(HttpClient.Redirect.NORMAL).build();
                clientTimeout = timeout;
            }
            return client;
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            client = null;
            clientTimeout = null;
        }
    }
}
