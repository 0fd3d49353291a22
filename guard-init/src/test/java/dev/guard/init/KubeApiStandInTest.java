package dev.guard.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.KubeApiServer;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okio.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stand-in API server that guard's deletion-cost tests and the scale-down experiment write
 * to ({@link KubeApiServer}), checked with a client nobody here wrote: the official Kubernetes Java
 * client (io.kubernetes:client-java-api, generated from the API server's OpenAPI document). It
 * patches a pod's annotation there with a merge patch, over TLS with the service account's CA and
 * token, and reads the answer as the API's own {@code V1Pod} (whose JSON check refuses a field the
 * API does not define) and the failures as {@code ApiException}s with the Status' code. So what
 * guard's own client is tested against answers as the API does for that client too.
 */
class KubeApiStandInTest {

    static final String MERGE = "application/merge-patch+json";

    /** The official client on the stand-in: base path, CA, bearer token; PATCH bodies sent as merge patches. */
    static CoreV1Api client(KubeApiServer api, Path serviceAccount) throws Exception {
        ApiClient c = new ApiClient();
        c.setBasePath("https://127.0.0.1:" + api.port());
        try (InputStream ca = Files.newInputStream(serviceAccount.resolve("ca.crt"))) {
            c.setSslCaCert(ca);
        }
        c.setApiKeyPrefix("Bearer");
        c.setApiKey(Files.readString(serviceAccount.resolve("token")).trim());
        // the generated call picks the first of the API's patch types (JSON Patch); client-java's
        // PatchUtils swaps the body's media type the same way
        c.setHttpClient(c.getHttpClient().newBuilder().addInterceptor(chain -> {
            Request r = chain.request();
            if (!"PATCH".equals(r.method()) || r.body() == null) {
                return chain.proceed(r);
            }
            Buffer b = new Buffer();
            r.body().writeTo(b);
            return chain.proceed(r.newBuilder().method("PATCH", RequestBody.create(b.readByteArray(), MediaType.get(MERGE)))
                    .build());
        }).build());
        return new CoreV1Api(c);
    }

    @Test
    void theOfficialClientPatchesAnAnnotationThereAndReadsTheFailuresAsTheApiSendsThem(@TempDir Path dir) throws Exception {
        try (KubeApiServer api = KubeApiServer.start(dir)) {
            api.pod("jobs", "worker-1");
            CoreV1Api core = client(api, api.serviceAccount("jobs", "worker", true));
            V1Pod pod = core.patchNamespacedPod("worker-1", "jobs",
                    new V1Patch("{\"metadata\":{\"annotations\":{\"" + KubeApiServer.DELETION_COST + "\":\"100\"}}}")).execute();
            assertEquals("100", pod.getMetadata().getAnnotations().get(KubeApiServer.DELETION_COST));
            assertEquals("worker-1", pod.getMetadata().getName());
            assertEquals(100, api.deletionCost("jobs", "worker-1"));

            ApiException missing = assertThrows(ApiException.class, () -> core.patchNamespacedPod("worker-9", "jobs",
                    new V1Patch("{\"metadata\":{\"annotations\":{\"a\":\"b\"}}}")).execute());
            assertEquals(404, missing.getCode());
            assertTrue(missing.getResponseBody().contains("\"reason\":\"NotFound\""), missing.getResponseBody());

            ApiException invalid = assertThrows(ApiException.class, () -> core.patchNamespacedPod("worker-1", "jobs",
                    new V1Patch("{\"metadata\":{\"annotations\":{\"" + KubeApiServer.DELETION_COST + "\":\"high\"}}}"))
                    .execute());
            assertEquals(422, invalid.getCode());

            CoreV1Api plain = client(api, api.serviceAccount("jobs", "plain", false));
            ApiException forbidden = assertThrows(ApiException.class, () -> plain.patchNamespacedPod("worker-1", "jobs",
                    new V1Patch("{\"metadata\":{\"annotations\":{\"a\":\"b\"}}}")).execute());
            assertEquals(403, forbidden.getCode());
            assertTrue(forbidden.getResponseBody().contains("cannot patch resource \\\"pods\\\""), forbidden.getResponseBody());
            assertEquals(100, api.deletionCost("jobs", "worker-1"), "no failed patch changed the pod");
        }
    }
}
