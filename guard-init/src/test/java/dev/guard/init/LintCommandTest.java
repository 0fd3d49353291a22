package dev.guard.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code guard-init lint} on files with each pitfall (src/test/resources/lint, written here from
 * the seeds and from what lint found in public projects' files) naming each with its line and
 * rule, nothing else; on the project's own Compose stack and Kubernetes example, nothing; and
 * the command's forms: standard input, --json, --skip, a comment that allows a rule, exit codes.
 * The run-time causes the rules name are shown with real processes in {@link LintCausesTest}.
 */
class LintCommandTest {

    private static final String DIR = "src/test/resources/lint/";
    private static final Pattern LINE = Pattern.compile("^(\\S+?):(\\d+): (error|warning) \\[([a-z0-9-]+)\\]", Pattern.MULTILINE);

    /** {@code name:line:rule} of every finding printed. */
    private static Set<String> found(String out) {
        Set<String> s = new TreeSet<>();
        Matcher m = LINE.matcher(out);
        while (m.find()) {
            s.add(Path.of(m.group(1)).getFileName() + ":" + m.group(2) + ":" + m.group(4));
        }
        return s;
    }

    @Test
    void eachComposePitfallIsNamedAtItsLine() {
        Cli.Result r = Cli.run("lint", DIR + "pitfalls-compose.yml");
        assertEquals(ExitCodes.CONFIG, r.code(), r.toString());
        assertEquals(new TreeSet<>(Set.of(
                "pitfalls-compose.yml:6:secret-in-command",
                "pitfalls-compose.yml:8:redis-ping-check",
                "pitfalls-compose.yml:19:depends-on-started",
                "pitfalls-compose.yml:23:shell-pid1",
                "pitfalls-compose.yml:23:sleep-as-wait",
                "pitfalls-compose.yml:25:env-drift",
                "pitfalls-compose.yml:26:grace-mismatch",
                "pitfalls-compose.yml:27:grace-shorter-than-job",
                "pitfalls-compose.yml:29:depends-on-started",
                "pitfalls-compose.yml:34:tcp-wait-redis",
                "pitfalls-compose.yml:34:wait-not-strict",
                "pitfalls-compose.yml:36:loopback-env")), found(r.out()), r.out());
        assertTrue(r.out().contains("requires CACHE_URL, and its environment does not set it; set for the same broker:"
                + " REDIS_URL (service backend)"), r.out());
        assertFalse(r.out().contains("hunter2"), "the password is masked: " + r.out());
        assertTrue(r.out().contains("at run time: ") && r.out().contains("fix: "), r.out());
    }

    @Test
    void eachKubernetesPitfallIsNamedAtItsLine() {
        Cli.Result r = Cli.run("lint", DIR + "pitfalls-kubernetes.yaml");
        assertEquals(ExitCodes.CONFIG, r.code(), r.toString());
        assertEquals(new TreeSet<>(Set.of(
                "pitfalls-kubernetes.yaml:7:replicas-under-autoscaler",
                "pitfalls-kubernetes.yaml:18:secret-in-command",
                "pitfalls-kubernetes.yaml:21:wait-forever",
                "pitfalls-kubernetes.yaml:25:shell-pid1",
                "pitfalls-kubernetes.yaml:25:undefined-variable",
                "pitfalls-kubernetes.yaml:29:grace-shorter-than-job",
                "pitfalls-kubernetes.yaml:32:liveness-asks-broker",
                "pitfalls-kubernetes.yaml:33:redis-ping-check",
                "pitfalls-kubernetes.yaml:37:prestop-shell-sleep",
                "pitfalls-kubernetes.yaml:39:autoscaled-without-pdb")), found(r.out()), r.out());
        assertFalse(r.out().contains("s3cretpass"), r.out());
        assertTrue(r.out().contains("raise terminationGracePeriodSeconds to at least 125 s"), r.out());
    }

    @Test
    void eachDockerfilePitfallIsNamedAtItsLine() {
        Cli.Result r = Cli.run("lint", DIR + "pitfalls.Dockerfile");
        assertEquals(ExitCodes.CONFIG, r.code(), r.toString());
        assertEquals(new TreeSet<>(Set.of(
                "pitfalls.Dockerfile:7:loopback-env",
                "pitfalls.Dockerfile:7:secret-in-image",
                "pitfalls.Dockerfile:10:redis-ping-check",
                "pitfalls.Dockerfile:11:shell-pid1")), found(r.out()), r.out());
        assertTrue(r.out().contains("pitfalls.Dockerfile:7: warning [loopback-env]"), "an image's ENV is a default: " + r.out());
    }

    @Test
    void theProjectsOwnComposeStackAndKubernetesExamplePass() throws Exception {
        String[] files;
        try (Stream<Path> k8s = Files.list(Path.of("../examples/kubernetes"))) {
            files = Stream.concat(Stream.of("lint", "../compose/docker-compose.yml"),
                    k8s.filter(p -> p.toString().endsWith(".yaml")).map(Path::toString).sorted()).toArray(String[]::new);
        }
        Cli.Result r = Cli.run(files);
        assertEquals(ExitCodes.OK, r.code(), r.toString());
        assertTrue(r.out().contains(" 0 errors, 0 warnings"), r.out());
        // the naive worker's depends_on is there to show the race, and the file says so
        assertTrue(r.out().contains("[depends-on-started] allowed by the comment there"), r.out());
    }

    @Test
    void standardInputIsReadAsOneFileOfManyDocuments() throws Exception {
        String text = Files.readString(Path.of(DIR + "pitfalls-kubernetes.yaml"));
        Cli.Result r = Cli.withStdin(Map.of(), text, "lint", "-");
        assertEquals(ExitCodes.CONFIG, r.code(), r.toString());
        assertTrue(r.out().contains("-:25: error [shell-pid1]"), r.out());
    }

    @Test
    void jsonGivesEveryFindingWithItsFieldsAndTheExitCode() throws Exception {
        Cli.Result r = Cli.run("lint", "--json", DIR + "pitfalls.Dockerfile");
        assertEquals(ExitCodes.CONFIG, r.code(), r.toString());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(4, j.get("findings").size(), r.out());
        JsonNode first = j.get("findings").get(0);
        for (String field : new String[] {"file", "line", "rule", "severity", "found", "runtime", "fix"}) {
            assertTrue(first.hasNonNull(field), field + " in " + first);
        }
        assertEquals(3, j.get("errors").asInt());
        assertEquals(1, j.get("warnings").asInt());
        assertEquals(78, j.get("exit").asInt());
    }

    @Test
    void skippedRulesAndWarningsAloneExitZero() {
        Cli.Result r = Cli.run("lint", "--skip", "secret-in-image,redis-ping-check,shell-pid1", DIR + "pitfalls.Dockerfile");
        assertEquals(ExitCodes.OK, r.code(), r.toString());
        assertTrue(r.out().contains("0 errors, 1 warning (skipped: secret-in-image, redis-ping-check, shell-pid1)"), r.out());
        Cli.Result unknown = Cli.run("lint", "--skip", "no-such-rule", DIR + "pitfalls.Dockerfile");
        assertEquals(ExitCodes.USAGE, unknown.code(), unknown.toString());
        assertTrue(unknown.err().contains("no such rule; the rules: shell-pid1"), unknown.err());
    }

    @Test
    void aMissingFileIs66AndYamlThatDoesNotParseIs65WithTheFile(@TempDir Path dir) throws Exception {
        Cli.Result missing = Cli.run("lint", dir.resolve("nope.yml").toString());
        assertEquals(ExitCodes.NO_INPUT, missing.code(), missing.toString());
        Path bad = dir.resolve("bad.yml");
        Files.writeString(bad, "services:\n  a: [unclosed\n");
        Cli.Result broken = Cli.run("lint", bad.toString());
        assertEquals(ExitCodes.DATA_ERROR, broken.code(), broken.toString());
        assertTrue(broken.err().contains("bad.yml is not YAML that lint can read"), broken.err());
        Path other = dir.resolve("values.yaml");
        Files.writeString(other, "replicaCount: 2\n");
        Cli.Result neither = Cli.run("lint", other.toString());
        assertEquals(ExitCodes.OK, neither.code(), neither.toString());
        assertTrue(neither.out().contains("neither a Compose file, nor Kubernetes objects, nor a Dockerfile"), neither.out());
    }

    @Test
    void whatIsNotAPitfallIsNotNamed(@TempDir Path dir) throws Exception {
        // each line is the right form of a pitfall above: exec'd shell, a bounded wait, a checked ping, a sidecar on
        // loopback, host networking, a health condition, a secret from the environment
        Path ok = dir.resolve("compose.yml");
        Files.writeString(ok, String.join("\n",
                "services:",
                "  redis:",
                "    image: redis:7.2",
                "    healthcheck:",
                "      test: [\"CMD-SHELL\", \"redis-cli ping | grep -q PONG\"]",
                "  worker:",
                "    image: example/worker",
                "    command: sh -c 'guard-init wait --timeout 60s redis://redis:6379 && exec java -jar /app/w.jar'",
                "    environment:",
                "      REDIS_URL: redis://redis:6379",
                "      REDIS_PASSWORD: ${REDIS_PASSWORD}",
                "      GUARD_GRACE_PERIOD: 10s",
                "      GUARD_SAFETY_MARGIN: 2s",
                "    depends_on:",
                "      redis: {condition: service_healthy}",
                "  host-tool:",
                "    image: example/tool",
                "    network_mode: host",
                "    environment:",
                "      REDIS_URL: redis://localhost:6379",
                "  shell-bash:",
                "    image: example/worker",
                "    command: [\"bash\", \"-c\", \"java -jar /app/w.jar\"]",
                "  retry:",
                "    image: busybox",
                "    command: [\"sh\", \"-c\", \"until nc -z rabbitmq 5672; do sleep 1; done; exec echo ok\"]",
                ""));
        Cli.Result r = Cli.run("lint", ok.toString());
        // the retry loop has no bound, and that one is named; nothing else
        assertEquals(Set.of("compose.yml:26:wait-forever"), found(r.out()), r.out());
        assertEquals(ExitCodes.OK, r.code(), r.toString());
    }

    /**
     * Shapes the run on public projects' files showed (LintWorldRun; written here, not copied): a
     * Kafka broker's own listener settings with 0.0.0.0 and localhost, a Confluent image as a broker,
     * an Alpine Redis started by a lone command under sh (BusyBox ash execs it), a one-shot cluster
     * set-up that ends with redis-cli (nothing to drain, but its fixed sleep is still a race), and a
     * worker on a Debian-based image whose lone command dash keeps as its child.
     */
    @Test
    void shapesFromPublicFilesAreJudgedAsTheirCausesSay(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("compose.yml");
        Files.writeString(f, String.join("\n",
                "services:",
                "  broker:",
                "    image: confluentinc/cp-kafka:7.6.0",
                "    environment:",
                "      KAFKA_LISTENERS: PLAINTEXT://0.0.0.0:29092,PLAINTEXT_HOST://0.0.0.0:9092",
                "      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://broker:29092,PLAINTEXT_HOST://localhost:9092",
                "  schema-registry:",
                "    image: confluentinc/cp-schema-registry:7.6.0",
                "    environment:",
                "      SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS: broker:29092",
                "  redis:",
                "    image: redis:7-alpine",
                "    command: sh -c 'redis-server --requirepass \"$$REDIS_PASSWORD\"'",
                "  cluster-init:",
                "    image: redis:7-alpine",
                "    command: ['sh', '-c', 'sleep 5 && redis-cli --cluster create 10.0.0.1:7001 10.0.0.2:7002']",
                "  worker:",
                "    image: python:3.12-slim",
                "    command: sh -c 'celery -A app worker'",
                ""));
        Cli.Result r = Cli.run("lint", f.toString());
        assertEquals(Set.of("compose.yml:16:sleep-as-wait", "compose.yml:19:shell-pid1"), found(r.out()), r.out());
        assertTrue(r.out().contains("compose.yml:19: error [shell-pid1]"), "python:3.12-slim is Debian: dash " + r.out());
    }
    /**
     * GUARD_DELETION_COST=on where the worker cannot reach its pod: no token (the pod turns the
     * mount off, its ServiceAccount too, nothing projected), a hostname that is not the pod's name
     * without POD_NAME, a Compose service. The shipped example (token projected) is not named.
     */
    @Test
    void aDeletionCostTheWorkerCannotKeepIsNamedAndTheShippedOneIsNot(@TempDir Path dir) throws Exception {
        Path k = dir.resolve("worker.yaml");
        Files.writeString(k, String.join("\n",
                "apiVersion: v1",
                "kind: ServiceAccount",
                "metadata: {name: quiet}",
                "automountServiceAccountToken: false",
                "---",
                "apiVersion: apps/v1",
                "kind: Deployment",
                "metadata: {name: a}",
                "spec:",
                "  template:",
                "    spec:",
                "      automountServiceAccountToken: false",
                "      containers:",
                "        - name: w",
                "          image: registry.example.com/w:1",
                "          env:",
                "            - {name: GUARD_DELETION_COST, value: \"on\"}",
                "---",
                "apiVersion: apps/v1",
                "kind: Deployment",
                "metadata: {name: b}",
                "spec:",
                "  template:",
                "    spec:",
                "      serviceAccountName: quiet",
                "      hostname: worker",
                "      containers:",
                "        - name: w",
                "          image: registry.example.com/w:1",
                "          env:",
                "            - {name: GUARD_DELETION_COST, value: \"true\"}",
                "---",
                "apiVersion: apps/v1",
                "kind: Deployment",
                "metadata: {name: c}",
                "spec:",
                "  template:",
                "    spec:",
                "      serviceAccountName: quiet",
                "      containers:",
                "        - name: w",
                "          image: registry.example.com/w:1",
                "          env:",
                "            - {name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}",
                "            - {name: GUARD_DELETION_COST, value: \"on\"}",
                "          volumeMounts:",
                "            - {name: t, mountPath: /var/run/secrets/kubernetes.io/serviceaccount/}",
                ""));
        Cli.Result r = Cli.run("lint", k.toString());
        assertEquals(Set.of("worker.yaml:17:deletion-cost-unreachable", "worker.yaml:31:deletion-cost-unreachable"),
                found(r.out()), r.out());
        assertTrue(r.out().contains("automountServiceAccountToken: false") && r.out().contains("hostname is 'worker'"),
                r.out());
        assertEquals(3, r.out().split("deletion-cost-unreachable\\]", -1).length - 1, "b has both: " + r.out());

        Path c = dir.resolve("compose.yml");
        Files.writeString(c, "services:\n  worker:\n    image: registry.example.com/w:1\n    environment:\n"
                + "      GUARD_DELETION_COST: \"on\"\n");
        Cli.Result compose = Cli.run("lint", c.toString());
        assertEquals(Set.of("compose.yml:5:deletion-cost-unreachable"), found(compose.out()), compose.out());

        Cli.Result shipped = Cli.run("lint", "../examples/kubernetes/worker-deployment.yaml",
                "../examples/kubernetes/worker-rbac.yaml", "../examples/kubernetes/worker-config.yaml");
        assertFalse(shipped.out().contains("deletion-cost-unreachable"), shipped.out());
    }
}
