package dev.guard.drain.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * One pod's annotations, written through the Kubernetes API server from inside that pod, as an
 * in-cluster client does: the API server at {@code https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT},
 * the pod's service account token, CA bundle and namespace from the files the kubelet mounts
 * (<a href="https://kubernetes.io/docs/tasks/run-application/access-api-from-pod/">Accessing the
 * Kubernetes API from a Pod</a>: {@code /var/run/secrets/kubernetes.io/serviceaccount/token},
 * {@code ca.crt}, {@code namespace}), and the pod's own name from {@value #ENV_POD_NAME}, which the
 * Deployment sets through the downward API ({@code fieldRef: metadata.name}); {@code HOSTNAME} is
 * the fallback (a pod's hostname is its name unless {@code spec.hostname} says otherwise).
 *
 * <p>Each write is one JSON merge patch (RFC 7386, {@code Content-Type: application/merge-patch+json},
 * a content type the API server documents for PATCH: "Patch" in
 * <a href="https://kubernetes.io/docs/reference/using-api/api-concepts/">API concepts</a>):
 * {@code {"metadata":{"annotations":{KEY:VALUE}}}} sets that one annotation and leaves every other
 * field as it is, so no read and no resourceVersion are needed, and the only permission is
 * {@code patch} on {@code pods} in the pod's namespace. The response is the pod as stored: the
 * annotation is checked there, not assumed. The token is read for each request, since bound service
 * account tokens are rotated by the kubelet in place.
 */
public final class PodApi {

    /** Where the kubelet mounts a pod's service account (token, ca.crt, namespace). */
    public static final Path SERVICE_ACCOUNT = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");
    /** The pod's name, set through the downward API. */
    public static final String ENV_POD_NAME = "POD_NAME";
    /** The pod's namespace, when it is to override the service account's namespace file. */
    public static final String ENV_POD_NAMESPACE = "POD_NAMESPACE";
    static final String ENV_HOST = "KUBERNETES_SERVICE_HOST";
    static final String ENV_PORT = "KUBERNETES_SERVICE_PORT";
    static final String MERGE_PATCH = "application/merge-patch+json";
    /** The field manager recorded in the pod's managedFields for guard's writes. */
    static final String FIELD_MANAGER = "guard";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI server;
    private final String namespace;
    private final String pod;
    private final String podOrigin;
    private final Path tokenFile;
    private final HttpClient http;
    private final Duration timeout;

    private PodApi(URI server, String namespace, String pod, String podOrigin, Path tokenFile, SSLContext tls,
            Duration timeout) {
        this.server = server;
        this.namespace = namespace;
        this.pod = pod;
        this.podOrigin = podOrigin;
        this.tokenFile = tokenFile;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().sslContext(tls).connectTimeout(timeout).build();
    }

    /** Why this process cannot reach its pod through the API server: not in a pod, or the pod hides its service account. */
    public static final class NotInPod extends Exception {
        private static final long serialVersionUID = 1L;

        NotInPod(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The in-cluster client of this process's own pod, from {@code env} and the service account mounted at {@link #SERVICE_ACCOUNT}. */
    public static PodApi inCluster(Map<String, String> env) throws NotInPod {
        return inCluster(env, SERVICE_ACCOUNT, Duration.ofSeconds(10));
    }

    /**
     * The in-cluster client, the service account's files read from {@code serviceAccount} (tests and
     * the scale-down experiment point it at a stand-in); {@code timeout} bounds each connect and request.
     */
    public static PodApi inCluster(Map<String, String> env, Path serviceAccount, Duration timeout) throws NotInPod {
        String host = env.get(ENV_HOST);
        String port = env.get(ENV_PORT);
        if (blank(host) || blank(port)) {
            throw new NotInPod(ENV_HOST + (blank(host) ? " is unset" : "=" + host) + " and " + ENV_PORT
                    + (blank(port) ? " is unset" : "=" + port) + ": this process does not run in a Kubernetes pod (the"
                    + " kubelet sets both in every container)", null);
        }
        String pod = env.get(ENV_POD_NAME);
        String podOrigin = "env " + ENV_POD_NAME;
        if (blank(pod)) {
            pod = env.get("HOSTNAME");
            podOrigin = "env HOSTNAME (" + ENV_POD_NAME + " unset; set it through the downward API to be sure:"
                    + " valueFrom.fieldRef.fieldPath: metadata.name)";
        }
        if (blank(pod)) {
            throw new NotInPod(ENV_POD_NAME + " and HOSTNAME are unset: the pod's name is unknown. Set " + ENV_POD_NAME
                    + " through the downward API (env: - name: " + ENV_POD_NAME + ", valueFrom: {fieldRef: {fieldPath:"
                    + " metadata.name}})", null);
        }
        Path tokenFile = serviceAccount.resolve("token");
        Path caFile = serviceAccount.resolve("ca.crt");
        String namespace = env.get(ENV_POD_NAMESPACE);
        try {
            if (blank(namespace)) {
                namespace = Files.readString(serviceAccount.resolve("namespace"), StandardCharsets.UTF_8).trim();
            }
            readToken(tokenFile);
            SSLContext tls = trusting(caFile);
            String h = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
            return new PodApi(URI.create("https://" + h + ":" + port.trim()), namespace, pod.trim(), podOrigin, tokenFile,
                    tls, timeout);
        } catch (NoSuchFileException e) {
            throw new NotInPod("the pod's service account is not mounted: " + e.getFile() + " does not exist. The pod"
                    + " must mount its token (automountServiceAccountToken must not be false, in the pod or its"
                    + " ServiceAccount)", e);
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            throw new NotInPod("the pod's service account at " + serviceAccount + " cannot be used: " + e, e);
        }
    }

    /** {@link Answer#status()} when TLS failed: the server's certificate does not verify against ca.crt. */
    public static final int UNTRUSTED = -1;

    /**
     * The API server's answer to one patch: its HTTP status (0: no answer; {@link #UNTRUSTED}: the
     * server was not trusted), the Status reason and message on failure, Retry-After.
     */
    public record Answer(int status, String reason, String message, Optional<Duration> retryAfter) {

        public boolean ok() {
            return status / 100 == 2;
        }

        /** A failure that a later try may not have: throttled (429), the server's own (5xx), or no answer at all (0). */
        public boolean transientFailure() {
            return status == 0 || status == 429 || status >= 500;
        }

        @Override
        public String toString() {
            return status <= 0 ? message
                    : status + (reason.isEmpty() ? "" : " " + reason) + (message.isEmpty() ? "" : ": " + message);
        }
    }

    /**
     * Sets one annotation of this pod, or removes it when {@code value} is null (a merge patch's
     * null deletes the key). The answer is OK only when the pod the server returns carries the value.
     */
    public Answer annotate(String key, String value) {
        ObjectNode body = JSON.createObjectNode();
        body.putObject("metadata").putObject("annotations").put(key, value);
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(podUri()).timeout(timeout)
                    .header("Authorization", "Bearer " + readToken(tokenFile))
                    .header("Content-Type", MERGE_PATCH).header("Accept", "application/json")
                    .method("PATCH", HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8))
                    .build();
        } catch (IOException e) {
            return new Answer(0, "", "the service account token " + tokenFile + " cannot be read: " + e, Optional.empty());
        }
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof SSLException) {
                    return new Answer(UNTRUSTED, "", "the API server at " + server + " is not trusted: its certificate does"
                            + " not verify against the service account's ca.crt (" + t.getMessage() + ")", Optional.empty());
                }
            }
            return new Answer(0, "", "PATCH " + podUri() + " failed: " + e, Optional.empty());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(0, "", "interrupted", Optional.empty());
        }
        return answer(response, key, value);
    }

    private Answer answer(HttpResponse<String> response, String key, String value) {
        int status = response.statusCode();
        Optional<Duration> retryAfter = response.headers().firstValue("Retry-After").flatMap(PodApi::seconds);
        JsonNode json;
        try {
            json = JSON.readTree(response.body());
        } catch (IOException e) {
            json = null;
        }
        if (status / 100 == 2) {
            JsonNode stored = json == null ? null : json.path("metadata").path("annotations").get(key);
            String got = stored == null || stored.isNull() ? null : stored.asText();
            if (!Objects.equals(got, value)) {
                return new Answer(0, "", "the API server answered " + status + " but the pod it returned has " + key + "="
                        + got + ", not " + value, retryAfter);
            }
            return new Answer(status, "", "", retryAfter);
        }
        // a failure: the body is a Status object (kind Status, reason, message) as the API conventions define
        String reason = json == null ? "" : json.path("reason").asText("");
        String message = json == null ? abbreviate(response.body()) : json.path("message").asText("");
        return new Answer(status, reason, message, retryAfter);
    }

    private URI podUri() {
        return server.resolve("/api/v1/namespaces/" + enc(namespace) + "/pods/" + enc(pod) + "?fieldManager=" + FIELD_MANAGER);
    }

    /** The pod's namespace. */
    public String namespace() {
        return namespace;
    }

    /** The pod's name. */
    public String pod() {
        return pod;
    }

    /** Where the pod's name came from. */
    public String podOrigin() {
        return podOrigin;
    }

    /** The API server's address. */
    public URI server() {
        return server;
    }

    @Override
    public String toString() {
        return "pod " + namespace + "/" + pod + " via " + server;
    }

    private static String readToken(Path tokenFile) throws IOException {
        String token = Files.readString(tokenFile, StandardCharsets.UTF_8).trim();
        if (token.isEmpty()) {
            throw new IOException(tokenFile + " is empty");
        }
        return token;
    }

    private static SSLContext trusting(Path caFile) throws IOException, GeneralSecurityException {
        Collection<? extends Certificate> certs;
        try (InputStream in = Files.newInputStream(caFile)) {
            certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
        }
        if (certs.isEmpty()) {
            throw new GeneralSecurityException(caFile + " holds no certificate");
        }
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        int i = 0;
        for (Certificate c : certs) {
            store.setCertificateEntry("ca-" + i++, c);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, tmf.getTrustManagers(), null);
        return tls;
    }

    private static Optional<Duration> seconds(String header) {
        try {
            return Optional.of(Duration.ofSeconds(Long.parseLong(header.trim())));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String abbreviate(String body) {
        String s = body == null ? "" : body.strip();
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
