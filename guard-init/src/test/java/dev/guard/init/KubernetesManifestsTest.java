package dev.guard.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** examples/kubernetes/: parsed, and checked for what loses jobs on scale-down or at start-up. */
class KubernetesManifestsTest {
    static final Path DIR = Manifests.repoRoot().resolve("examples/kubernetes");
    static final Map<String, Map<String, Object>> BY_KIND = new HashMap<>();

    @BeforeAll
    static void load() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(DIR)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no manifests in " + DIR);
        for (Path f : files) {
            for (Map<String, Object> doc : Manifests.loadAll(f)) {
                assertNotNull(doc.get("apiVersion"), f + ": a document without apiVersion");
                String kind = String.valueOf(doc.get("kind"));
                assertNotNull(Manifests.map(doc, "metadata").get("name"), f + ": " + kind + " without a name");
                assertTrue(BY_KIND.put(kind, doc) == null, "two " + kind + " documents; this test expects one each");
            }
        }
    }

    static Map<String, Object> podSpec() {
        return Manifests.map(Manifests.map(Manifests.map(BY_KIND.get("Deployment"), "spec"), "template"), "spec");
    }

    static List<Map<String, Object>> containers(String key) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object c : Manifests.list(podSpec().get(key), key)) {
            out.add(Manifests.map(c, key + " entry"));
        }
        return out;
    }

    @Test
    void deploymentLeavesReplicasToTheHpaAndGraceCoversTheLongestJob() {
        Map<String, Object> deployment = BY_KIND.get("Deployment");
        assertEquals("apps/v1", deployment.get("apiVersion"));
        assertFalse(Manifests.map(deployment, "spec").containsKey("replicas"),
                "spec.replicas would reset the HPA's count on every apply");
        long longestJob = Long.parseLong(String.valueOf(
                Manifests.map(Manifests.map(deployment, "metadata"), "annotations").get("guard.dev/longest-job-seconds")));
        long grace = ((Number) podSpec().get("terminationGracePeriodSeconds")).longValue();
        assertTrue(grace > longestJob, "terminationGracePeriodSeconds " + grace + " must exceed the longest job " + longestJob);
        assertTrue(grace >= longestJob + 10, "leave time to hand back unstarted jobs: " + grace);
    }

    @Test
    void guardInitRunsFirstAsInitContainersInExecForm() {
        List<Map<String, Object>> init = containers("initContainers");
        assertEquals(List.of("check-env", "wait"), init.stream().map(c -> String.valueOf(
                Manifests.list(c.get("args"), c.get("name") + ".args").get(0))).toList());
        for (Map<String, Object> c : init) {
            assertTrue(String.valueOf(c.get("image")).startsWith("guard-init:"), c.toString());
            assertFalse(c.containsKey("command"), "initContainer " + c.get("name")
                    + " must use the image's exec-form ENTRYPOINT (no command override)");
        }
        List<Object> waitArgs = Manifests.list(init.get(1).get("args"), "wait args");
        assertTrue(waitArgs.contains("--timeout"), "wait has an explicit deadline: " + waitArgs);
        for (Map<String, Object> c : containers("containers")) {
            List<Object> cmd = Manifests.list(c.get("command"), c.get("name") + ".command");
            assertEquals("java", cmd.get(0), "the JVM itself is PID 1 (exec form, no sh -c): " + cmd);
        }
    }

    @Test
    void everyVariableTheInitContainersUseIsOneTheWorkerReadsUnderTheSameName() {
        Set<String> provided = new HashSet<>();
        provided.addAll(Manifests.map(BY_KIND.get("ConfigMap"), "data").keySet());
        provided.addAll(Manifests.map(BY_KIND.get("Secret"), "stringData").keySet());
        List<Object> workerEnvFrom = Manifests.list(containers("containers").get(0).get("envFrom"), "worker envFrom");
        for (Map<String, Object> c : containers("initContainers")) {
            assertEquals(workerEnvFrom, c.get("envFrom"), c.get("name") + " reads the worker's own ConfigMap and Secret");
            for (Object arg : Manifests.list(c.get("args"), "args")) {
                Matcher m = Pattern.compile("\\$\\(([A-Z0-9_]+)\\)").matcher(String.valueOf(arg));
                while (m.find()) {
                    assertTrue(provided.contains(m.group(1)), "$(" + m.group(1) + ") in " + c.get("name")
                            + " is in neither the ConfigMap nor the Secret: " + provided);
                }
            }
        }
        String checked = String.valueOf(Manifests.list(containers("initContainers").get(0).get("args"), "args").get(2));
        for (String name : checked.split(",")) {
            assertTrue(provided.contains(name.split(":")[0]), "check-env requires " + name + ", which nothing provides");
        }
        for (String secretish : List.of("AMQP_URL")) {
            assertFalse(Manifests.map(BY_KIND.get("ConfigMap"), "data").containsKey(secretish),
                    secretish + " carries a password: Secret, not ConfigMap");
        }
    }

    /**
     * The shipped check-env initContainer, run over the shipped ConfigMap and Secret as the pod sees
     * them: the Secret's {@code change-me-in-cluster} password is refused (exit 78, masked), and once
     * a real password replaces it every setting passes, each checked as what its name says.
     */
    @Test
    void theShippedCheckEnvRefusesTheSecretsPlaceholderUntilItIsReplaced() {
        Map<String, String> env = new java.util.LinkedHashMap<>();
        Manifests.map(BY_KIND.get("ConfigMap"), "data").forEach((k, v) -> env.put(k, String.valueOf(v)));
        Manifests.map(BY_KIND.get("Secret"), "stringData").forEach((k, v) -> env.put(k, String.valueOf(v)));
        env.put("KUBERNETES_SERVICE_HOST", "10.96.0.1"); // as in every pod
        String[] args = Manifests.list(containers("initContainers").get(0).get("args"), "args").stream()
                .map(String::valueOf).toArray(String[]::new);

        Cli.Result shipped = Cli.run(env, args);
        assertEquals(ExitCodes.CONFIG, shipped.code(), shipped.toString());
        assertTrue(shipped.err().contains("ERROR PLACEHOLDER: AMQP_URL's password is a placeholder"), shipped.toString());
        assertEquals(1, shipped.err().lines().filter(l -> l.startsWith("ERROR ")).count(), shipped.toString());
        assertFalse(shipped.both().contains("change-me-in-cluster"), "the placeholder password is printed: " + shipped);

        env.put("AMQP_URL", String.valueOf(env.get("AMQP_URL")).replace("change-me-in-cluster", "Zq8-real-pw"));
        Cli.Result replaced = Cli.run(env, args);
        assertEquals(ExitCodes.OK, replaced.code(), replaced.toString());
        assertFalse(replaced.both().contains("Zq8-real-pw"), replaced.toString());
        for (String inferred : List.of("REDIS_URL  .*\\(checked as a URL: the name ends in _URL\\)",
                "KAFKA_BOOTSTRAP  .*\\(checked as a host list: the name contains BOOTSTRAP .*\\)")) {
            assertTrue(replaced.out().lines().anyMatch(l -> l.trim().matches(inferred)), inferred + " in\n" + replaced);
        }
    }

    @Test
    void podDisruptionBudgetCoversTheWorkerPods() {
        Map<String, Object> pdb = BY_KIND.get("PodDisruptionBudget");
        assertEquals("policy/v1", pdb.get("apiVersion"));
        Map<String, Object> spec = Manifests.map(pdb, "spec");
        assertTrue(spec.containsKey("maxUnavailable") || spec.containsKey("minAvailable"), spec.toString());
        Object podLabels = Manifests.map(Manifests.map(Manifests.map(BY_KIND.get("Deployment"), "spec"), "template"), "metadata")
                .get("labels");
        assertEquals(podLabels, Manifests.map(spec, "selector").get("matchLabels"), "the PDB selects the worker's pods");
    }

    @Test
    void hpaScalesDownGently() {
        Map<String, Object> hpa = BY_KIND.get("HorizontalPodAutoscaler");
        assertEquals("autoscaling/v2", hpa.get("apiVersion"));
        Map<String, Object> spec = Manifests.map(hpa, "spec");
        Map<String, Object> target = Manifests.map(spec, "scaleTargetRef");
        assertEquals("Deployment", target.get("kind"));
        assertEquals(Manifests.map(BY_KIND.get("Deployment"), "metadata").get("name"), target.get("name"));
        assertTrue(((Number) spec.get("minReplicas")).intValue() >= 2,
                "with one replica the PDB (maxUnavailable 1) lets a drain take every worker");
        Map<String, Object> down = Manifests.map(Manifests.map(spec, "behavior"), "scaleDown");
        assertTrue(((Number) down.get("stabilizationWindowSeconds")).intValue() >= 300, "scale-down stabilization: " + down);
        List<Object> policies = Manifests.list(down.get("policies"), "scaleDown.policies");
        assertFalse(policies.isEmpty());
        for (Object p : policies) {
            Map<String, Object> policy = Manifests.map(p, "policy");
            int value = ((Number) policy.get("value")).intValue();
            int period = ((Number) policy.get("periodSeconds")).intValue();
            assertTrue(period >= 60, "scale-down period " + period + " s: " + policy);
            assertTrue(policy.get("type").equals("Pods") ? value <= 1 : value <= 10, "scale-down step too large: " + policy);
        }
        assertEquals("Min", down.get("selectPolicy"), "of several policies, the gentlest applies");
    }
}
