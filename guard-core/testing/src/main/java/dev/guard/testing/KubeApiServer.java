package dev.guard.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for the Kubernetes API server's pod PATCH, for the in-cluster client of guard's pod
 * deletion cost (no API server runs on the machines these tests run on). It answers as the
 * API documents, not as guard's client expects:
 *
 * <ul>
 *   <li>HTTPS only, with a certificate made for this run ({@link SelfSigned}, SAN 127.0.0.1); the
 *       service accounts it hands out carry that certificate as {@code ca.crt}, as the kubelet
 *       mounts the cluster CA.
 *   <li>{@code PATCH /api/v1/namespaces/{ns}/pods/{name}} with {@code application/merge-patch+json}
 *       (RFC 7386: objects merge, null deletes a key, anything else replaces) or
 *       {@code application/strategic-merge-patch+json} (for the maps of {@code metadata}, the same
 *       merge); other content types get 415 (this stand-in does not apply JSON Patch, which the real
 *       server does). 200 with the whole pod as stored, its {@code resourceVersion} raised.
 *   <li>Failures as {@code Status} objects (API conventions: kind Status, status Failure, message,
 *       reason, code): 401 Unauthorized for a missing or unknown bearer token; 403 Forbidden when the
 *       service account has no patch on pods in that namespace, and for any GET (the accounts handed
 *       out here are bound, at most, to a Role with patch on pods alone; RBAC's message: {@code pods "x" is
 *       forbidden: User "system:serviceaccount:ns:sa" cannot patch resource "pods" in API group ""
 *       in the namespace "ns"}); 404 NotFound for an unknown pod; 422 Invalid for a
 *       {@code controller.kubernetes.io/pod-deletion-cost} that is not an int32 ("Invalid values will
 *       be rejected by the API server", ReplicaSet docs); 429 TooManyRequests with Retry-After when
 *       told to throttle (API Priority and Fairness answers so).
 * </ul>
 *
 * <p>Every patch is recorded with its time, so that a test can check how often a pod was written.
 */
public final class KubeApiServer implements AutoCloseable {

    public static final String DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";
    private static final Pattern POD = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final HttpsServer server;
    private final Path caCert;
    /** token to service account (namespace, name, may patch pods). */
    private final Map<String, Account> tokens = new ConcurrentHashMap<>();
    private final Map<String, ObjectNode> pods = new ConcurrentHashMap<>();
    private final Map<String, List<Long>> patchTimes = new ConcurrentHashMap<>();
    private final AtomicInteger throttle = new AtomicInteger();
    private volatile int retryAfterSeconds = 1;
    private volatile long resourceVersion = 1000;

    private record Account(String namespace, String name, boolean mayPatchPods) {}

    private KubeApiServer(Path dir) throws IOException {
        this.dir = dir;
        SelfSigned cert = SelfSigned.make(dir, "apiserver", "kube-apiserver");
        this.caCert = cert.pem();
        this.server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setHttpsConfigurator(new HttpsConfigurator(cert.serverContext()));
        server.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "kube-api-stand-in");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", this::handle);
        server.start();
    }

    /** Starts one on a free port of 127.0.0.1, its files (certificate, service accounts) under {@code dir}. */
    public static KubeApiServer start(Path dir) throws IOException {
        Files.createDirectories(dir);
        return new KubeApiServer(dir);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Registers a running pod with no annotations. */
    public KubeApiServer pod(String namespace, String name) {
        ObjectNode pod = JSON.createObjectNode();
        pod.put("kind", "Pod").put("apiVersion", "v1");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("name", name).put("namespace", namespace).put("uid", UUID.randomUUID().toString())
                .put("resourceVersion", Long.toString(nextVersion()));
        meta.putObject("labels").put("app", "worker");
        pod.putObject("spec").putArray("containers").addObject().put("name", "worker").put("image", "worker:1");
        pod.putObject("status").put("phase", "Running");
        pods.put(namespace + "/" + name, pod);
        return this;
    }

    /** Removes a pod (it was deleted). */
    public void deletePod(String namespace, String name) {
        pods.remove(namespace + "/" + name);
    }

    /**
     * A service account's mounted files (token, ca.crt, namespace) in a directory of their own, as
     * the kubelet mounts them; {@code mayPatchPods} says whether a RoleBinding grants it patch on
     * pods in its namespace.
     */
    public Path serviceAccount(String namespace, String name, boolean mayPatchPods) throws IOException {
        String token = UUID.randomUUID().toString().replace("-", "");
        tokens.put(token, new Account(namespace, name, mayPatchPods));
        Path sa = dir.resolve("sa-" + namespace + "-" + name + "-" + token.substring(0, 6));
        Files.createDirectories(sa);
        Files.writeString(sa.resolve("token"), token);
        Files.writeString(sa.resolve("namespace"), namespace);
        Files.copy(caCert, sa.resolve("ca.crt"));
        return sa;
    }

    /** Invalidates every token (as if rotated and the old ones expired). */
    public void revokeTokens() {
        tokens.clear();
    }

    /** The environment the kubelet and a downward-API env entry give a container of pod {@code name}. */
    public Map<String, String> env(String podName) {
        Map<String, String> env = new HashMap<>();
        env.put("KUBERNETES_SERVICE_HOST", "127.0.0.1");
        env.put("KUBERNETES_SERVICE_PORT", Integer.toString(port()));
        env.put("POD_NAME", podName);
        return env;
    }

    /** The next {@code n} requests are answered 429 with {@code Retry-After: retryAfterSeconds}. */
    public void throttle(int n, int retryAfterSeconds) {
        this.retryAfterSeconds = retryAfterSeconds;
        throttle.set(n);
    }

    /** The pod's annotations as stored now (empty when none; null when there is no such pod). */
    public Map<String, String> annotations(String namespace, String name) {
        ObjectNode pod = pods.get(namespace + "/" + name);
        if (pod == null) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode a = pod.path("metadata").path("annotations");
        for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    /** The pod's deletion cost as the ReplicaSet controller reads it: the annotation, or 0 when unset. */
    public int deletionCost(String namespace, String name) {
        Map<String, String> a = annotations(namespace, name);
        String v = a == null ? null : a.get(DELETION_COST);
        return v == null ? 0 : Integer.parseInt(v);
    }

    /** When each patch that changed the pod arrived (System.nanoTime()), in order. */
    public List<Long> patchTimes(String namespace, String name) {
        List<Long> times = patchTimes.get(namespace + "/" + name);
        if (times == null) {
            return List.of();
        }
        synchronized (times) {
            return List.copyOf(times);
        }
    }

    /** Merges a patch into a target as RFC 7386 defines it; returns the result (the target, changed, where both are objects). */
    static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode t = target != null && target.isObject() ? (ObjectNode) target : JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isNull()) {
                t.remove(e.getKey());
            } else {
                t.set(e.getKey(), mergePatch(t.get(e.getKey()), e.getValue()));
            }
        }
        return t;
    }

    private synchronized long nextVersion() {
        return ++resourceVersion;
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            String path = x.getRequestURI().getRawPath();
            Matcher m = POD.matcher(path);
            if (throttle.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                x.getResponseHeaders().add("Retry-After", Integer.toString(retryAfterSeconds));
                status(x, 429, "TooManyRequests", "Too many requests, please try again later.");
                return;
            }
            String auth = x.getRequestHeaders().getFirst("Authorization");
            Account account = auth != null && auth.startsWith("Bearer ") ? tokens.get(auth.substring(7).trim()) : null;
            if (account == null) {
                status(x, 401, "Unauthorized", "Unauthorized");
                return;
            }
            if (!m.matches()) {
                status(x, 404, "NotFound", "the server could not find the requested resource");
                return;
            }
            String ns = URLDecoder.decode(m.group(1), StandardCharsets.UTF_8);
            String name = URLDecoder.decode(m.group(2), StandardCharsets.UTF_8);
            String method = x.getRequestMethod();
            String verb = switch (method) {
                case "GET" -> "get";
                case "PATCH" -> "patch";
                default -> null;
            };
            if (verb == null) {
                status(x, 405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
                return;
            }
            if (!account.mayPatchPods() || !account.namespace().equals(ns) || verb.equals("get")) {
                status(x, 403, "Forbidden", "pods \"" + name + "\" is forbidden: User \"system:serviceaccount:"
                        + account.namespace() + ":" + account.name() + "\" cannot " + verb + " resource \"pods\" in API"
                        + " group \"\" in the namespace \"" + ns + "\"");
                return;
            }
            String type = String.valueOf(x.getRequestHeaders().getFirst("Content-Type")).split(";")[0].trim();
            if (!type.equals("application/merge-patch+json") && !type.equals("application/strategic-merge-patch+json")) {
                status(x, 415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media"
                        + " types include: application/json-patch+json, application/merge-patch+json,"
                        + " application/apply-patch+yaml, application/strategic-merge-patch+json");
                return;
            }
            JsonNode patch;
            try {
                patch = JSON.readTree(x.getRequestBody());
            } catch (IOException e) {
                status(x, 400, "BadRequest", "error decoding patch: " + e.getMessage());
                return;
            }
            ObjectNode answer;
            synchronized (this) {
                ObjectNode pod = pods.get(ns + "/" + name);
                if (pod == null) {
                    status(x, 404, "NotFound", "pods \"" + name + "\" not found");
                    return;
                }
                ObjectNode merged = (ObjectNode) mergePatch(pod.deepCopy(), patch);
                JsonNode cost = merged.path("metadata").path("annotations").get(DELETION_COST);
                if (cost != null && !validInt32(cost)) {
                    status(x, 422, "Invalid", "Pod \"" + name + "\" is invalid: metadata.annotations[" + DELETION_COST
                            + "]: Invalid value: " + cost + ": must be a 32bit integer");
                    return;
                }
                ((ObjectNode) merged.get("metadata")).put("resourceVersion", Long.toString(nextVersion()));
                pods.put(ns + "/" + name, merged);
                List<Long> times = patchTimes.computeIfAbsent(ns + "/" + name, k -> new ArrayList<>());
                synchronized (times) {
                    times.add(System.nanoTime());
                }
                answer = merged.deepCopy();
            }
            send(x, 200, answer);
        } catch (RuntimeException e) {
            status(x, 500, "InternalError", e.toString());
        }
    }

    private static boolean validInt32(JsonNode v) {
        if (!v.isTextual()) {
            return false; // annotations are strings; a number here is a decoding error on the real server
        }
        try {
            Integer.parseInt(v.asText());
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static void status(HttpExchange x, int code, String reason, String message) throws IOException {
        ObjectNode s = JSON.createObjectNode();
        s.put("kind", "Status").put("apiVersion", "v1").putObject("metadata");
        s.put("status", "Failure").put("message", message).put("reason", reason).put("code", code);
        send(x, code, s);
    }

    private static void send(HttpExchange x, int code, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        x.getResponseHeaders().set("Content-Type", "application/json");
        x.sendResponseHeaders(code, bytes.length);
        x.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
