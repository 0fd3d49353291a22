package dev.guard.drain.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.ExitCodes;
import dev.guard.testing.KubeApiServer;
import dev.guard.testing.SelfSigned;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-cluster client against a stand-in API server that answers as the API documents
 * ({@link KubeApiServer}: HTTPS with the service account's CA, merge patch, Status objects, RBAC's
 * 403, 404, 422, 429): what a pod's write of its own annotation does, and each way it fails.
 */
class PodApiTest {

    static final Duration TIMEOUT = Duration.ofSeconds(10);
    static KubeApiServer api;
    static Path dir;

    @BeforeAll
    static void start(@TempDir Path tmp) throws Exception {
        dir = tmp;
        api = KubeApiServer.start(tmp.resolve("api"));
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    private static PodApi client(String pod, Path sa) throws Exception {
        return PodApi.inCluster(api.env(pod), sa, TIMEOUT);
    }

    @Test
    void aMergePatchSetsOneAnnotationLeavesTheOthersAndNullRemovesIt() throws Exception {
        api.pod("jobs", "worker-a");
        PodApi pod = client("worker-a", api.serviceAccount("jobs", "worker", true));
        assertEquals("jobs", pod.namespace(), "the namespace comes from the service account's namespace file");
        assertTrue(pod.annotate("team", "payments").ok());
        PodApi.Answer a = pod.annotate(DeletionCost.ANNOTATION, "100");
        assertTrue(a.ok(), a.toString());
        assertEquals(Map.of("team", "payments", DeletionCost.ANNOTATION, "100"), api.annotations("jobs", "worker-a"));
        assertTrue(pod.annotate(DeletionCost.ANNOTATION, null).ok());
        assertEquals(Map.of("team", "payments"), api.annotations("jobs", "worker-a"),
                "a merge patch's null deletes the key and nothing else");
        assertEquals(3, api.patchTimes("jobs", "worker-a").size());
    }

    @Test
    void aServiceAccountWithoutPatchOnPodsGets403AndTheStartIsRefusedWithTheRoleItNeeds() throws Exception {
        api.pod("jobs", "worker-b");
        PodApi pod = client("worker-b", api.serviceAccount("jobs", "plain", false));
        PodApi.Answer a = pod.annotate(DeletionCost.ANNOTATION, "0");
        assertEquals(403, a.status());
        assertEquals("Forbidden", a.reason());
        assertTrue(a.message().contains("cannot patch resource \"pods\""), a.message());
        DeletionCost.Refused r = assertThrows(DeletionCost.Refused.class, () -> DeletionCost.start(pod, Duration.ofSeconds(1)));
        assertEquals(ExitCodes.NO_PERMISSION, r.exitCode());
        assertTrue(r.getMessage().contains("verbs: [\"patch\"]") && r.getMessage().contains("RoleBinding")
                && r.getMessage().contains("GUARD_DELETION_COST=off"), r.getMessage());
        assertEquals(Map.of(), api.annotations("jobs", "worker-b"), "nothing was written");
    }

    @Test
    void aServiceAccountOfAnotherNamespaceIsForbiddenThere() throws Exception {
        api.pod("jobs", "worker-c");
        Map<String, String> env = api.env("worker-c");
        env.put(PodApi.ENV_POD_NAMESPACE, "jobs");
        PodApi pod = PodApi.inCluster(env, api.serviceAccount("other", "worker", true), TIMEOUT);
        assertEquals("jobs", pod.namespace(), "POD_NAMESPACE overrides the namespace file");
        assertEquals(403, pod.annotate(DeletionCost.ANNOTATION, "0").status());
    }

    @Test
    void aRevokedTokenIs401AndARotatedTokenFileIsReadAgain() throws Exception {
        api.pod("jobs", "worker-d");
        Path sa = api.serviceAccount("jobs", "worker", true);
        PodApi pod = client("worker-d", sa);
        assertTrue(pod.annotate(DeletionCost.ANNOTATION, "0").ok());
        api.revokeTokens();
        PodApi.Answer a = pod.annotate(DeletionCost.ANNOTATION, "100");
        assertEquals(401, a.status(), a.toString());
        assertFalse(a.transientFailure());
        // the kubelet writes the new token into the same file
        Path fresh = api.serviceAccount("jobs", "worker", true);
        Files.copy(fresh.resolve("token"), sa.resolve("token"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertTrue(pod.annotate(DeletionCost.ANNOTATION, "100").ok(), "the token is read for each request");
        assertEquals("100", api.annotations("jobs", "worker-d").get(DeletionCost.ANNOTATION));
    }

    @Test
    void aWrongPodNameIs404AndTheRefusalSaysWhereTheNameCameFrom() throws Exception {
        Path sa = api.serviceAccount("jobs", "worker", true);
        Map<String, String> env = api.env("x");
        env.remove(PodApi.ENV_POD_NAME);
        env.put("HOSTNAME", "worker-custom-hostname");
        PodApi pod = PodApi.inCluster(env, sa, TIMEOUT);
        PodApi.Answer a = pod.annotate(DeletionCost.ANNOTATION, "0");
        assertEquals(404, a.status());
        assertEquals("NotFound", a.reason());
        DeletionCost.Refused r = assertThrows(DeletionCost.Refused.class, () -> DeletionCost.start(pod, Duration.ofSeconds(1)));
        assertEquals(ExitCodes.CONFIG, r.exitCode());
        assertTrue(r.getMessage().contains("env HOSTNAME") && r.getMessage().contains("downward API"), r.getMessage());
    }

    @Test
    void theApiServerRejectsADeletionCostThatIsNotAnInt32() throws Exception {
        api.pod("jobs", "worker-e");
        PodApi pod = client("worker-e", api.serviceAccount("jobs", "worker", true));
        PodApi.Answer a = pod.annotate(DeletionCost.ANNOTATION, "2147483648");
        assertEquals(422, a.status());
        assertEquals("Invalid", a.reason());
        assertNull(api.annotations("jobs", "worker-e").get(DeletionCost.ANNOTATION));
    }

    @Test
    void outsideAPodOrWithoutAMountedServiceAccountItSaysWhy() throws Exception {
        PodApi.NotInPod e = assertThrows(PodApi.NotInPod.class, () -> PodApi.inCluster(new HashMap<>(), dir, TIMEOUT));
        assertTrue(e.getMessage().contains("KUBERNETES_SERVICE_HOST is unset"), e.getMessage());
        PodApi.NotInPod e2 = assertThrows(PodApi.NotInPod.class,
                () -> PodApi.inCluster(api.env("w"), dir.resolve("no-such-mount"), TIMEOUT));
        assertTrue(e2.getMessage().contains("automountServiceAccountToken"), e2.getMessage());
        Map<String, String> noName = api.env("w");
        noName.remove(PodApi.ENV_POD_NAME);
        PodApi.NotInPod e3 = assertThrows(PodApi.NotInPod.class,
                () -> PodApi.inCluster(noName, api.serviceAccount("jobs", "w", true), TIMEOUT));
        assertTrue(e3.getMessage().contains("fieldPath: metadata.name"), e3.getMessage());
    }

    @Test
    void aServerWhoseCertificateTheCaDidNotSignIsNotTrustedAndTheStartIsRefused() throws Exception {
        api.pod("jobs", "worker-f");
        Path sa = api.serviceAccount("jobs", "worker", true);
        Path other = SelfSigned.make(dir, "other", "someone-else").pem();
        Files.copy(other, sa.resolve("ca.crt"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        PodApi pod = client("worker-f", sa);
        PodApi.Answer a = pod.annotate(DeletionCost.ANNOTATION, "0");
        assertEquals(PodApi.UNTRUSTED, a.status(), a.toString());
        assertFalse(a.transientFailure());
        DeletionCost.Refused r = assertThrows(DeletionCost.Refused.class, () -> DeletionCost.start(pod, Duration.ofSeconds(1)));
        assertTrue(r.getMessage().contains("ca.crt"), r.getMessage());
        assertEquals(List.of(), api.patchTimes("jobs", "worker-f"));
    }

    @Test
    void aThrottledFirstWriteDoesNotRefuseTheStartAndIsRetriedNoSoonerThanRetryAfter() throws Exception {
        api.pod("jobs", "worker-g");
        PodApi pod = client("worker-g", api.serviceAccount("jobs", "worker", true));
        api.throttle(1, 1);
        long before = System.nanoTime();
        try (DeletionCost cost = DeletionCost.start(pod, Duration.ofMillis(100))) {
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (cost.published().isEmpty() && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertEquals(DeletionCost.IDLE, cost.published().orElse(-1), "the write went through on a later try");
            List<Long> times = api.patchTimes("jobs", "worker-g");
            assertEquals(1, times.size(), "one write changed the pod");
            assertTrue(times.get(0) - before >= Duration.ofMillis(950).toNanos(),
                    "the retry honours Retry-After: 1, though the rule's own pause is 100 ms");
            assertEquals(2, cost.writes());
        }
    }
    /**
     * The API server gone (its process stopped, the port refusing): the first write has no answer,
     * which a later try may have, so the start is not refused and the worker's jobs go on; the
     * annotation stays unwritten until the server answers.
     */
    @Test
    void anApiServerThatIsGoneDoesNotStopTheWorker(@TempDir Path tmp) throws Exception {
        KubeApiServer gone = KubeApiServer.start(tmp);
        gone.pod("jobs", "worker-h");
        PodApi pod = PodApi.inCluster(gone.env("worker-h"), gone.serviceAccount("jobs", "worker", true), TIMEOUT);
        gone.close();
        PodApi.Answer a = pod.annotate(DeletionCost.ANNOTATION, "0");
        assertEquals(0, a.status(), a.toString());
        assertTrue(a.transientFailure(), a.toString());
        try (DeletionCost cost = DeletionCost.start(pod, Duration.ofMillis(100))) {
            cost.jobStarted();
            cost.jobEnded();
            assertTrue(cost.published().isEmpty(), "nothing was confirmed");
            assertTrue(cost.writes() >= 1, "the first write was tried");
        }
    }
}
