package dev.guard.init;

import dev.guard.ExitCodes;
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
    static final Path DIR = dev.guard.testing.Checkout.root().resolve("examples/kubernetes");
    static final Map<String, Map<String, Object>> BY_KIND = new HashMap<>();
    /** Every document by kind/name (two ConfigMaps: the worker's env and guard-init's guard.conf). */
    static final Map<String, Map<String, Object>> BY_NAME = new HashMap<>();
    /** Every document as it was read, with its file, for the API schema check. */
    static final List<Map.Entry<Path, Map<String, Object>>> DOCS = new ArrayList<>();

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
                Object name = Manifests.map(doc, "metadata").get("name");
                assertNotNull(name, f + ": " + kind + " without a name");
                assertTrue(BY_NAME.put(kind + "/" + name, doc) == null, "two " + kind + "/" + name + " documents");
                BY_KIND.merge(kind, doc, (a, b) -> a); // the first of a kind
                DOCS.add(Map.entry(f, doc));
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
        // the grace period guard's drain reads is the pod's, and its budget covers the longest job
        java.time.Duration drainGrace = dev.guard.config.GuardSettings.parseDuration(String.valueOf(workerEnv().get("GUARD_GRACE_PERIOD")));
        java.time.Duration margin = dev.guard.config.GuardSettings.parseDuration(String.valueOf(workerEnv().get("GUARD_SAFETY_MARGIN")));
        assertEquals(grace, drainGrace.toSeconds(), "GUARD_GRACE_PERIOD must be the pod's terminationGracePeriodSeconds");
        assertEquals(longestJob, dev.guard.config.GuardSettings.parseDuration(String.valueOf(workerEnv().get("GUARD_LONGEST_JOB")))
                .toSeconds(), "the worker's timeout budget judges the longest job the annotation states");
        assertTrue(drainGrace.minus(margin).toSeconds() >= longestJob, "the drain lets the job in hand run "
                + drainGrace.minus(margin).toSeconds() + " s: less than the longest job, " + longestJob + " s");
    }

    static Map<String, Object> doc(String kindAndName) {
        Map<String, Object> d = BY_NAME.get(kindAndName);
        assertNotNull(d, kindAndName + " not in " + DIR + ": " + BY_NAME.keySet());
        return d;
    }

    static Map<String, Object> workerEnv() {
        return Manifests.map(doc("ConfigMap/worker-env"), "data");
    }

    /** The pod's environment as the worker sees it: ConfigMap, then Secret (stringData). */
    static Map<String, String> podEnv() {
        Map<String, String> env = new java.util.LinkedHashMap<>();
        workerEnv().forEach((k, v) -> env.put(k, String.valueOf(v)));
        Manifests.map(doc("Secret/worker-secrets"), "stringData").forEach((k, v) -> env.put(k, String.valueOf(v)));
        env.put("KUBERNETES_SERVICE_HOST", "10.96.0.1"); // as in every pod
        return env;
    }

    /** guard.conf from ConfigMap worker-guard, written where an initContainer's GUARD_CONFIG would name it. */
    static Path guardConf(Path dir) throws IOException {
        Path conf = dir.resolve("guard.conf");
        Files.writeString(conf, String.valueOf(Manifests.map(doc("ConfigMap/worker-guard"), "data").get("guard.conf")));
        return conf;
    }

    @Test
    void guardInitRunsFirstAsInitContainersOnTheImagesEntrypointWithNoCredentialInArgs() {
        List<Map<String, Object>> init = containers("initContainers");
        assertEquals(List.of(List.of("check-env"), List.of("wait")), init.stream().map(c -> c.get("args")).toList(),
                "the initContainers' args name the command only: targets and deadline come from guard.conf");
        for (Map<String, Object> c : init) {
            assertTrue(String.valueOf(c.get("image")).matches("[a-z0-9.-]+\\.[a-z]+(:\\d+)?/.+/guard-init:[0-9.]+"),
                    "a fully qualified image name (registry host first): " + c.get("image"));
            assertFalse(c.containsKey("command"), "initContainer " + c.get("name")
                    + " must use the image's exec-form ENTRYPOINT (no command override)");
            List<Object> env = Manifests.list(c.get("env"), c.get("name") + ".env");
            assertTrue(env.contains(Map.of("name", "GUARD_CONFIG", "value", "/etc/guard/guard.conf")), env.toString());
            assertTrue(Manifests.list(c.get("volumeMounts"), "volumeMounts").stream()
                    .anyMatch(m -> "/etc/guard".equals(Manifests.map(m, "mount").get("mountPath"))), c.get("name") + " mounts guard.conf");
        }
        for (Map<String, Object> c : containers("containers")) {
            assertFalse(c.containsKey("command"), "the image's exec-form ENTRYPOINT (the JVM itself is PID 1): " + c.get("command"));
            assertEquals(List.of("dev.guard.examples.stack.GuardedWorker"), c.get("args"));
            assertTrue(String.valueOf(c.get("image")).matches("[a-z0-9.-]+\\.[a-z]+(:\\d+)?/.+:[0-9.]+"), c.get("image").toString());
        }
        // nothing a process list shows carries a password or expands a variable into one
        for (String key : List.of("initContainers", "containers")) {
            for (Map<String, Object> c : containers(key)) {
                for (String field : List.of("command", "args")) {
                    String text = String.valueOf(c.get(field));
                    assertFalse(text.contains("$(") || Pattern.compile("://[^/@\\s]*:[^/@\\s]+@").matcher(text).find(),
                            c.get("name") + "." + field + " would put a credential on the command line: " + text);
                }
            }
        }
        assertEquals(Boolean.FALSE, podSpec().get("automountServiceAccountToken"),
                "no token for every container: only the worker's projected one");
    }

    /**
     * The deletion cost: the worker (and no initContainer) gets a rotated token, the cluster CA and
     * the namespace where guard's PodApi reads them, its pod name from the downward API, and the
     * ServiceAccount may patch pods in its namespace and do nothing else.
     */
    @Test
    void onlyTheWorkerMayPatchItsPodAndOnlyThat() {
        assertEquals("worker", podSpec().get("serviceAccountName"));
        Map<String, Object> account = doc("ServiceAccount/worker");
        assertEquals(Boolean.FALSE, account.get("automountServiceAccountToken"));
        Map<String, Object> role = doc("Role/worker-deletion-cost");
        assertEquals(List.of(Map.of("apiGroups", List.of(""), "resources", List.of("pods"), "verbs", List.of("patch"))),
                role.get("rules"), "exactly the permission a merge patch of the pod's annotation needs");
        Map<String, Object> binding = doc("RoleBinding/worker-deletion-cost");
        assertEquals(Map.of("apiGroup", "rbac.authorization.k8s.io", "kind", "Role", "name", "worker-deletion-cost"),
                binding.get("roleRef"));
        assertEquals(List.of(Map.of("kind", "ServiceAccount", "name", "worker")), binding.get("subjects"));
        assertEquals(1, BY_NAME.keySet().stream().filter(k -> k.startsWith("Role/") || k.startsWith("ClusterRole")).count(),
                "one Role, no ClusterRole: " + BY_NAME.keySet());

        String mountPath = dev.guard.drain.kubernetes.PodApi.SERVICE_ACCOUNT.toString();
        Map<String, Object> worker = containers("containers").get(0);
        assertTrue(Manifests.list(worker.get("volumeMounts"), "volumeMounts").stream().map(m -> Manifests.map(m, "mount"))
                .anyMatch(m -> mountPath.equals(m.get("mountPath")) && "api-token".equals(m.get("name"))
                        && Boolean.TRUE.equals(m.get("readOnly"))), "the worker mounts its token where PodApi reads it");
        for (Map<String, Object> c : containers("initContainers")) {
            assertFalse(String.valueOf(c.get("volumeMounts")).contains("api-token"), c.get("name") + " must not get the token");
        }
        Map<String, Object> volume = Manifests.list(podSpec().get("volumes"), "volumes").stream()
                .map(v -> Manifests.map(v, "volume")).filter(v -> "api-token".equals(v.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("no api-token volume"));
        String sources = String.valueOf(Manifests.map(volume, "projected").get("sources"));
        assertTrue(sources.contains("serviceAccountToken={path=token") && sources.contains("key=ca.crt, path=ca.crt")
                && sources.contains("path=namespace") && sources.contains("fieldPath=metadata.namespace"), sources);
        List<Object> env = Manifests.list(worker.get("env"), "worker.env");
        assertTrue(env.contains(Map.of("name", "POD_NAME", "valueFrom", Map.of("fieldRef", Map.of("fieldPath", "metadata.name")))),
                env.toString());
        assertTrue(env.contains(Map.of("name", dev.guard.drain.kubernetes.DeletionCost.ENV, "value", "on")), env.toString());
    }

    @Test
    void everyVariableTheInitContainersUseIsOneTheWorkerReadsUnderTheSameName() {
        Set<String> provided = new HashSet<>(podEnv().keySet());
        List<Object> workerEnvFrom = Manifests.list(containers("containers").get(0).get("envFrom"), "worker envFrom");
        for (Map<String, Object> c : containers("initContainers")) {
            assertEquals(workerEnvFrom, c.get("envFrom"), c.get("name") + " reads the worker's own ConfigMap and Secret");
        }
        String conf = String.valueOf(Manifests.map(doc("ConfigMap/worker-guard"), "data").get("guard.conf"));
        Matcher m = Pattern.compile("\\$\\{([A-Z0-9_]+)\\}").matcher(conf);
        int substitutions = 0;
        while (m.find()) {
            substitutions++;
            assertTrue(provided.contains(m.group(1)), "${" + m.group(1) + "} in guard.conf is in neither the ConfigMap nor the Secret: " + provided);
        }
        assertTrue(substitutions > 0, "guard.conf builds its targets from the pod's environment: " + conf);
        for (String withPassword : Manifests.map(doc("Secret/worker-secrets"), "stringData").keySet()) {
            assertFalse(workerEnv().containsKey(withPassword), withPassword + " carries a password: Secret, not ConfigMap");
        }
    }

    /**
     * The shipped check-env initContainer, run over the shipped ConfigMaps and Secret as the pod sees
     * them: the Secret's {@code change-me-in-cluster} password is refused (exit 78, masked), and once
     * a real password replaces it every setting passes.
     */
    @Test
    void theShippedCheckEnvRefusesTheSecretsPlaceholderUntilItIsReplaced(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Map<String, String> env = podEnv();
        env.put("GUARD_CONFIG", guardConf(dir).toString());
        String[] args = Manifests.list(containers("initContainers").get(0).get("args"), "args").stream()
                .map(String::valueOf).toArray(String[]::new);

        Cli.Result shipped = Cli.run(env, args);
        assertEquals(ExitCodes.CONFIG, shipped.code(), shipped.toString());
        assertTrue(shipped.err().contains("ERROR PLACEHOLDER: REDIS_URL's password is a placeholder"), shipped.toString());
        assertEquals(1, shipped.err().lines().filter(l -> l.startsWith("ERROR ")).count(), shipped.toString());
        assertFalse(shipped.both().contains("change-me-in-cluster"), "the placeholder password is printed: " + shipped);

        env.put("REDIS_URL", env.get("REDIS_URL").replace("change-me-in-cluster", "Zq8-real-pw"));
        Cli.Result replaced = Cli.run(env, args);
        assertEquals(ExitCodes.OK, replaced.code(), replaced.toString());
        assertFalse(replaced.both().contains("Zq8-real-pw"), replaced.toString());
        assertTrue(replaced.out().lines().anyMatch(l -> l.trim().matches("REDIS_URL  .*\\(checked as a URL: the name ends in _URL\\)")),
                replaced.toString());
    }

    @Test
    void theWaitInitContainerWaitsForWhatTheWorkerUsesAndNothingElse(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        // the real CLI over the shipped guard.conf, Redis pointed at a closed port: it gives up after
        // --timeout and lists every target it waited for
        Map<String, String> env = podEnv();
        env.put("GUARD_CONFIG", guardConf(dir).toString());
        env.put("REDIS_URL", "redis://:Zq8-real-pw@127.0.0.1:1");
        Cli.Result r = Cli.run(env, "wait", "--json", "--timeout", "1s");
        assertEquals(ExitCodes.UNAVAILABLE, r.code(), r.toString());
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
        List<String> kinds = new ArrayList<>();
        json.get("targets").forEach(t -> kinds.add(t.get("kind").asText()));
        assertEquals("redis", workerEnv().get("JOB_BROKER"));
        assertEquals(List.of("redis"), kinds, "the worker uses Redis only: " + r.out());
        assertFalse(r.both().contains("Zq8-real-pw"), r.toString());
        assertTrue(json.get("settings").get("deadlineFrom").asText().startsWith("--timeout"));
    }

    @Test
    void theWorkerHasProbesOnItsHealthPortAndLivenessOutlastsTheLongestJob() {
        Map<String, Object> worker = containers("containers").get(0);
        Map<String, Object> port = Manifests.map(Manifests.list(worker.get("ports"), "ports").get(0), "port");
        assertEquals(String.valueOf(port.get("containerPort")), String.valueOf(workerEnv().get("HEALTH_PORT")),
                "the probes' port is the one the worker serves (HEALTH_PORT)");
        Map<String, Object> readiness = Manifests.map(Manifests.map(worker, "readinessProbe"), "httpGet");
        Map<String, Object> liveness = Manifests.map(Manifests.map(worker, "livenessProbe"), "httpGet");
        assertEquals("/readyz", readiness.get("path"));
        assertEquals("/livez", liveness.get("path"));
        assertEquals(port.get("name"), readiness.get("port"));
        assertEquals(port.get("name"), liveness.get("port"));
        long longestJob = Long.parseLong(String.valueOf(
                Manifests.map(Manifests.map(BY_KIND.get("Deployment"), "metadata"), "annotations").get("guard.dev/longest-job-seconds")));
        long stall = Long.parseLong(String.valueOf(podEnv().getOrDefault("LIVENESS_STALL_S", "120")));
        assertTrue(stall > longestJob, "/livez fails after " + stall + " s without progress: a " + longestJob + " s job would be killed");
    }

    /**
     * Every document deserialized strictly into the Kubernetes API's own models (the official Java
     * client's, generated from the API server's OpenAPI schema): an unknown or misplaced field is
     * an error there, not a silently ignored key as in {@code kubectl apply} without validation.
     */
    @Test
    void everyDocumentIsValidForTheKubernetesApiSchema() throws Exception {
        for (Map.Entry<Path, Map<String, Object>> e : DOCS) {
            String json = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(e.getValue());
            try {
                KubernetesSchema.validate(e.getValue(), json);
            } catch (IllegalArgumentException | IOException bad) {
                throw new AssertionError(e.getKey().getFileName() + ": " + bad.getMessage(), bad);
            }
        }
    }

    @Test
    void theSchemaCheckRefusesAMisspeltOrMisplacedField() throws Exception {
        Map<String, Object> deployment = BY_KIND.get("Deployment");
        String json = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(deployment);
        for (String[] edit : List.of(new String[] {"\"readinessProbe\"", "\"readinesProbe\""},
                new String[] {"\"automountServiceAccountToken\"", "\"automountServiceToken\""},
                new String[] {"\"terminationGracePeriodSeconds\"", "\"terminationGracePeriod\""})) {
            String broken = json.replace(edit[0], edit[1]);
            assertTrue(!broken.equals(json), edit[0]);
            IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> KubernetesSchema.validate(deployment, broken), edit[1] + " accepted");
            assertTrue(refused.getMessage().contains(edit[1].replace("\"", "")), refused.getMessage());
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
