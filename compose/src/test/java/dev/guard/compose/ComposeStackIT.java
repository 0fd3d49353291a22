package dev.guard.compose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.coldstart.Reconciler;
import dev.guard.testing.BoundedRun;
import dev.guard.testing.Checkout;
import dev.guard.testing.Engine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The shipped compose/docker-compose.yml run for real: docker-compose 1.29 against the
 * container engine (.ci/engine), the images the build wrote and the stand-in servers, from
 * cold (new containers, new volumes) each time. Every run is reconciled by job id: what each
 * backend enqueued (its manifest) against what its worker logged, processed + rejected ==
 * received, missing == 0, rejected == the skewed ones. The only addition to the shipped file is
 * an override that gives the backends a directory to write their manifests to.
 *
 * <p>Runs, in the default run: one cold start in which Redis and RabbitMQ are killed (SIGKILL)
 * together and restarted while the workers are mid-run, ended by SIGTERM to the workers (each must drain);
 * and the naive worker in place of the guarded one, twice (as shipped, and with its URL fixed),
 * which must fail reconciliation. Under {@code -Pproof}: {@code guard.compose.runs} cold starts in
 * a row of the shipped file as it is (default 5), and {@code guard.compose.kill-runs} runs with
 * Redis killed mid-run (default 10), each ended by the same drain check.
 * Figures go to {@code examples/target/compose-it/figures.txt} and the test output. The images
 * come from the build: guard-init's (module guard-init, built first) and this module's.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ComposeStackIT {
    static final Path ROOT = Checkout.root();
    static final Path COMPOSE_DIR = ROOT.resolve("compose");
    /** Cold starts in a row under -Pproof. */
    static final int PROOF_RUNS = Integer.getInteger("guard.compose.runs", 5);
    static final int KILL_RUNS_DEFAULT = 10;
    /** Redis kill runs in a row under -Pproof. */
    static final int KILL_RUNS = Integer.getInteger("guard.compose.kill-runs", KILL_RUNS_DEFAULT);
    static final int JOBS = 1000;
    /** Hang guard for `up -d`: it returns once every depends_on condition held; seconds when quiet. */
    static final Duration UP_BOUND = Duration.ofMinutes(6);
    /** Hang guard for the workers to give every job an outcome after `up` returned (seconds when quiet). */
    static final Duration OUTCOMES_BOUND = Duration.ofMinutes(4);
    /** Hang guard for stop/down: the workers drain within their 120 s grace period. */
    static final Duration DOWN_BOUND = Duration.ofMinutes(4);
    static final Pattern RECEIVED = Pattern.compile("ledger: received=(\\d+)");
    static final Pattern PROCESSED_ID = Pattern.compile("job (\\S+) processed");
    static final Pattern READY_LINE = Pattern.compile("readiness: all \\d+ target\\(s\\) ready after ([0-9.]+)s");

    /** A backend, the worker consuming what it enqueues, and the guard-init one-shot that worker waits for. */
    record Flow(String backend, String worker, String gate, String manifest) {}

    static final List<Flow> FLOWS = List.of(
            new Flow("backend", "worker", "guard-init", "redis.manifest"),
            new Flow("backend-amqp", "worker-amqp", "guard-init-amqp", "amqp.manifest"));

    static Engine engine;
    static Path out;
    static final List<String> figures = new ArrayList<>();

    @BeforeAll
    static void images() throws Exception {
        engine = Engine.require();
        engine.load(ROOT.resolve("guard-init/target/guard-init-image.tar"));
        engine.load(ROOT.resolve("examples/target/guard-examples-image.tar"));
        Checkout.buildStandIns();
        out = Path.of(System.getProperty("guard.build.dir", "target"), "compose-it").toAbsolutePath();
        deleteTree(out);
        Files.createDirectories(out);
    }

    @AfterAll
    static void writeFigures() throws IOException {
        if (out != null) {
            Files.write(out.resolve("figures.txt"), figures, StandardCharsets.UTF_8);
        }
    }

    @Test
    @Order(1)
    @Tag("proof")
    void coldStartsInARowReconcileEveryJob() throws Exception {
        coldStarts(PROOF_RUNS);
    }

    void coldStarts(int runs) throws Exception {
        List<String> failures = new ArrayList<>();
        for (int i = 1; i <= runs; i++) {
            try (Stack stack = new Stack("guardcold" + i, "")) {
                long start = System.nanoTime();
                stack.upOk();
                double up = seconds(start);
                Map<Flow, Reconciler.Tally> tallies = stack.awaitOutcomes();
                double done = seconds(start);
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                        "cold start %d: up returned at %.1f s, every job had its outcome at %.1f s;", i, up, done));
                for (Flow f : FLOWS) {
                    Reconciler.Tally t = tallies.get(f);
                    line.append(String.format(Locale.ROOT, " %s waited %s s, %s: %d processed + %d rejected of %d;",
                            f.gate(), stack.gateWaited(f), f.worker(), t.processed().size(), t.rejected().size(),
                            t.enqueued().size()));
                    if (!t.violations().isEmpty()) {
                        failures.add("run " + i + " " + f.worker() + ": " + t.violations() + " (logs: " + stack.dir + ")");
                    }
                }
                stack.stopWorkersDrained(failures);
                record(line.toString());
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /**
     * -Pproof: Redis SIGKILLed and restarted 3 s later while both workers are mid-run,
     * {@value #KILL_RUNS_DEFAULT} runs in a row by default ({@code guard.compose.kill-runs}), each a new
     * stack, each reconciled by id and ended by the drain check; the figure is how many passed.
     * About 1 run in 3 lost a skewed job here before its cause was found (issue 40): the worker's
     * dead-letter connection was still reconnecting when Redis was back, the job was handed back
     * at once three times within a few milliseconds, and the queue parked it at its interruption
     * limit in {@code jobs:interrupted}, where nothing reads. A dead letter the store does not take
     * is now tried again with the job in hand (guard-schema's PatientDeadLetters), and the sink's
     * connection retries every 2 s at most.
     */
    @Test
    @Order(2)
    @Tag("proof")
    // ten stacks of 40 to 110 s each: the default 10 minutes a method cut the tenth off (-Pproof of
    // fbddc6f); under the fork's 40 minutes with the cold starts beside
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void redisKilledAndRestartedMidRunLosesNoJob() throws Exception {
        List<String> failed = new ArrayList<>();
        for (int i = 1; i <= KILL_RUNS; i++) {
            try {
                killAndRestartMidRun("guardkillredis" + i, 10, new Kill(List.of("redis"), "worker", 200));
            } catch (AssertionError e) {
                failed.add("run " + i + ": " + e.getMessage());
            }
        }
        record("Redis killed mid-run: " + (KILL_RUNS - failed.size()) + " of " + KILL_RUNS + " runs reconciled every job");
        assertTrue(failed.isEmpty(), failed.size() + " of " + KILL_RUNS + " Redis kill runs failed:\n"
                + String.join("\n", failed));
    }

    /**
     * The default run's Compose proof, one run for four kinds: a cold start of the shipped stack
     * (new containers and volumes, the workers racing their brokers) reconciled by id; Redis and
     * RabbitMQ SIGKILLed together and restarted 3 s later while both workers are mid-run (a node
     * lost: each flow loses its broker, and both keep their results in Redis); and SIGTERM to both
     * workers at the end, each draining with its ledger at missing=0. The one difference from the
     * shipped file is 10 ms of work per job, so that the kill finds the workers busy; the shipped
     * file as it is runs under -Pproof, {@value #PROOF_RUNS} cold starts in a row by default, and
     * the Redis kill alone {@value #KILL_RUNS_DEFAULT} times. (Killing them one after the other in
     * one run left the second kill after the last job when the first outage held a flow back.)
     */
    @Test
    @Order(2)
    void aColdStartWithRedisAndRabbitmqKilledMidRunReconcilesEveryJobAndTheWorkersDrain() throws Exception {
        // the Redis worker keeps its connection through the outage (lettuce reconnects) and returns
        // what it held unconfirmed; the RabbitMQ worker loses its connection (no automatic
        // recovery): it exits 70, the restart policy brings it back, it waits for RabbitMQ, and the
        // unacked deliveries return
        killAndRestartMidRun("guardkill", 10, new Kill(List.of("redis", "rabbitmq"), "worker", 200));
    }

    /** Servers to SIGKILL together once {@code watched} has processed {@code after} jobs. */
    record Kill(List<String> services, String watched, int after) {}

    /**
     * SIGKILLs the kill's services once its watched worker has processed that many jobs, starts
     * them 3 s later; then every job must reconcile, and both workers must drain on SIGTERM. Every
     * service's log is in {@code compose.log} beside the run's manifests ({@link Stack#close}).
     */
    void killAndRestartMidRun(String project, int workMs, Kill k) throws Exception {
        // the workers are mid-run (workMs x 1000 jobs of work each) when a service dies
        String slow = "  worker:\n    environment:\n      JOB_WORK_MS: \"" + workMs + "\"\n"
                + "  worker-amqp:\n    environment:\n      JOB_WORK_MS: \"" + workMs + "\"\n";
        try (Stack stack = new Stack(project, slow)) {
            long start = System.nanoTime();
            stack.upOk();
            stack.awaitLog(k.watched(), l -> countProcessed(l) >= k.after(), k.after() + " jobs processed by " + k.watched());
            stack.awaitExited("backend");
            stack.awaitExited("backend-amqp");
            StringBuilder before = new StringBuilder();
            for (Flow f : FLOWS) {
                before.append(before.length() == 0 ? "" : ", ").append(f.worker()).append(' ')
                        .append(countProcessed(stack.logs(f.worker())));
            }
            List<String> kill = new ArrayList<>(List.of("kill", "--signal", "KILL"));
            k.services().forEach(service -> kill.add(stack.container(service)));
            engine.podmanOk(kill.toArray(String[]::new));
            double killedAt = seconds(start);
            // the outage: the workers meet dead servers while they are down
            Thread.sleep(3000);
            List<String> startThem = new ArrayList<>(List.of("start"));
            startThem.addAll(k.services());
            BoundedRun.Result restart = stack.compose(Duration.ofMinutes(2), startThem.toArray(String[]::new));
            assertEquals(0, restart.exit(), restart.output());
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                    "%s killed at %.1f s (processed by then: %s), restarted 3 s later; ",
                    String.join(" and ", k.services()), killedAt, before));
            Map<Flow, Reconciler.Tally> tallies = stack.awaitOutcomes();
            line.append(String.format(Locale.ROOT, "every job had its outcome at %.1f s;", seconds(start)));
            List<String> failures = new ArrayList<>();
            for (Flow f : FLOWS) {
                Reconciler.Tally t = tallies.get(f);
                line.append(String.format(Locale.ROOT, " %s: %d processed + %d rejected of %d, restarts %s, run twice %s;",
                        f.worker(), t.processed().size(), t.rejected().size(), t.enqueued().size(), stack.restarts(f.worker()),
                        runTwice(stack.logs(f.worker()))));
                if (!t.violations().isEmpty()) {
                    failures.add(f.worker() + ": " + t.violations() + " (logs: " + stack.dir + ")");
                }
            }
            if (failures.isEmpty()) {
                stack.stopWorkersDrained(failures);
            }
            record(line.toString());
            assertTrue(failures.isEmpty(), String.join("\n", failures));
        }
    }

    @Test
    @Order(3)
    void naiveWorkerAsShippedReachesNoRedisAndEveryJobIsMissing() throws Exception {
        try (Stack stack = new Stack("guardnaive", "")) {
            BoundedRun.Result up = stack.compose(UP_BOUND, "--profile", "naive", "up", "-d", "redis", "backend", "naive-worker");
            assertEquals(0, up.exit(), up.output());
            stack.awaitExited("backend");
            stack.awaitExited("naive-worker");
            String log = stack.logs("naive-worker");
            assertTrue(log.contains("localhost:6379"), "the naive worker names the localhost fallback it used: " + log);
            assertEquals("1", stack.exitCode("naive-worker"), log);
            Reconciler.Tally t = stack.tally(FLOWS.get(0), "naive-worker");
            assertEquals(JOBS, t.missing().size(), "every job is missing: " + t.violations());
            assertFalse(t.violations().isEmpty());
            record("naive worker as shipped (CACHE_URL unset, falls back to localhost): exit 1, "
                    + t.missing().size() + " of " + t.enqueued().size() + " jobs missing; reconciliation says: " + t.violations().get(0));
        }
    }

    @Test
    @Order(4)
    void naiveWorkerWithItsUrlFixedStillLosesTheSkewedJobsSilently() throws Exception {
        // CACHE_URL set: it reaches Redis, if it does not lose the race; either way jobs go missing
        String fixed = "  naive-worker:\n    environment:\n      CACHE_URL: redis://redis:6379\n";
        try (Stack stack = new Stack("guardnaivefixed", fixed)) {
            BoundedRun.Result up = stack.compose(UP_BOUND, "--profile", "naive", "up", "-d", "redis", "backend", "naive-worker");
            assertEquals(0, up.exit(), up.output());
            stack.awaitExited("backend");
            Reconciler.Tally t = stack.awaitTally(FLOWS.get(0), "naive-worker",
                    tally -> tally.outcomes() + tally.unattributed().size() >= JOBS - 3 || !stack.running("naive-worker"));
            String log = stack.logs("naive-worker");
            assertFalse(t.violations().isEmpty(), "the naive worker passed reconciliation: " + log);
            assertFalse(t.missing().isEmpty(), t.violations().toString());
            if (stack.running("naive-worker")) {
                // it won the race: what it dropped, it dropped without a word
                assertTrue(!log.contains("rejected") && !log.contains("Exception"), "the naive worker logs nothing about them: " + log);
            }
            record("naive worker with CACHE_URL fixed: " + (stack.running("naive-worker") ? "running" : "exited " + stack.exitCode("naive-worker"))
                    + ", " + t.processed().size() + " processed, " + t.missing().size() + " missing without a log line ("
                    + t.missing().subList(0, Math.min(3, t.missing().size())) + "); reconciliation says: " + t.violations());
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var walk = Files.walk(dir)) {
                for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    static void record(String line) {
        System.out.println("[compose-it] " + line);
        figures.add(line);
    }

    static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** The ids a worker's log says it processed more than once: {@code 0}, or their count and names. */
    static String runTwice(String log) {
        Map<String, Integer> seen = new LinkedHashMap<>();
        Matcher m = PROCESSED_ID.matcher(log);
        while (m.find()) {
            seen.merge(m.group(1), 1, Integer::sum);
        }
        List<String> twice = seen.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
        return twice.isEmpty() ? "0" : twice.size() + " " + (twice.size() > 8 ? twice.subList(0, 8) + "..." : twice);
    }

    static int countProcessed(String log) {
        int n = 0;
        for (String line : log.split("\n")) {
            if (line.contains(" processed")) {
                n++;
            }
        }
        return n;
    }

    /** One project: the shipped file plus an override, brought down (volumes too) and its logs kept on close. */
    static final class Stack implements AutoCloseable {
        final String project;
        final Path dir;
        final Path manifests;
        final Path override;

        Stack(String project, String extraOverride) throws IOException {
            this.project = project;
            this.dir = out.resolve(project);
            this.manifests = dir.resolve("manifests");
            Files.createDirectories(manifests);
            // the backends run as the image's non-root user
            Files.setPosixFilePermissions(manifests, PosixFilePermissions.fromString("rwxrwxrwx"));
            StringBuilder y = new StringBuilder("version: \"3.9\"\nservices:\n");
            for (Flow f : FLOWS) {
                y.append("  ").append(f.backend()).append(":\n")
                        .append("    environment:\n      JOB_MANIFEST: /manifests/").append(f.manifest()).append('\n')
                        .append("    volumes:\n      - ").append(manifests).append(":/manifests\n");
            }
            y.append(extraOverride);
            this.override = dir.resolve("override.yml");
            Files.writeString(override, y.toString(), StandardCharsets.UTF_8);
        }

        BoundedRun.Result compose(Duration bound, String... args) throws IOException, InterruptedException {
            List<String> all = new ArrayList<>(List.of("-p", project, "-f", COMPOSE_DIR.resolve("docker-compose.yml").toString(),
                    "-f", override.toString()));
            all.addAll(List.of(args));
            return engine.compose(COMPOSE_DIR, Map.of(), bound, all);
        }

        void upOk() throws IOException, InterruptedException {
            BoundedRun.Result up = compose(UP_BOUND, "up", "-d");
            assertEquals(0, up.exit(), "docker-compose up -d: " + up.output());
        }

        String container(String service) {
            return project + "_" + service + "_1";
        }

        String logs(String service) throws IOException, InterruptedException {
            return engine.podman("logs", container(service)).output();
        }

        String inspect(String service, String format) throws IOException, InterruptedException {
            return engine.podman("inspect", "--format", format, container(service)).output().strip();
        }

        String exitCode(String service) throws IOException, InterruptedException {
            return inspect(service, "{{.State.ExitCode}}");
        }

        String restarts(String service) throws IOException, InterruptedException {
            return inspect(service, "{{.RestartCount}}");
        }

        boolean running(String service) {
            try {
                return "true".equals(inspect(service, "{{.State.Running}}"));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }

        /** The one-shot's own figure: "readiness: all N target(s) ready after X s". */
        String gateWaited(Flow f) throws IOException, InterruptedException {
            Matcher m = READY_LINE.matcher(logs(f.gate()));
            return m.find() ? m.group(1) : "?";
        }

        void awaitExited(String service) throws Exception {
            long deadline = System.nanoTime() + OUTCOMES_BOUND.toNanos();
            while (running(service)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(service + " still running after " + OUTCOMES_BOUND.toSeconds() + " s: " + logs(service));
                }
                Thread.sleep(200);
            }
        }

        void awaitLog(String service, Predicate<String> condition, String what) throws Exception {
            long deadline = System.nanoTime() + OUTCOMES_BOUND.toNanos();
            while (!condition.test(logs(service))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no " + what + " within " + OUTCOMES_BOUND.toSeconds() + " s; logs in " + dir);
                }
                Thread.sleep(200);
            }
        }

        Reconciler.Tally tally(Flow f, String worker) throws IOException, InterruptedException {
            Path manifest = manifests.resolve(f.manifest());
            List<String> lines = Files.exists(manifest) ? Files.readAllLines(manifest) : List.of();
            return Reconciler.reconcile(Reconciler.parseManifest(lines), List.of(logs(worker).split("\n")), JOBS);
        }

        Reconciler.Tally awaitTally(Flow f, String worker, Predicate<Reconciler.Tally> done) throws Exception {
            long deadline = System.nanoTime() + OUTCOMES_BOUND.toNanos();
            Reconciler.Tally t = tally(f, worker);
            while (!done.test(t) && System.nanoTime() < deadline) {
                Thread.sleep(500);
                t = tally(f, worker);
            }
            return t;
        }

        /** Each flow's tally once every enqueued job has an outcome line (or the bound passed). */
        Map<Flow, Reconciler.Tally> awaitOutcomes() throws Exception {
            Map<Flow, Reconciler.Tally> tallies = new LinkedHashMap<>();
            for (Flow f : FLOWS) {
                tallies.put(f, awaitTally(f, f.worker(), t -> t.enqueued().size() == JOBS && t.missing().isEmpty()));
            }
            return tallies;
        }

        /**
         * SIGTERM to the workers (compose stop): each drains, prints its ledger with missing=0, exits 0
         * (a clean drain). A worker the restart policy brought back logs the ledger of its own life
         * (what it received after the restart), so received=1000 is asked only of one that never restarted.
         */
        void stopWorkersDrained(List<String> failures) throws IOException, InterruptedException {
            Map<Flow, String> restarts = new LinkedHashMap<>();
            for (Flow f : FLOWS) {
                restarts.put(f, restarts(f.worker()));
            }
            BoundedRun.Result stop = compose(DOWN_BOUND, "stop", "-t", "120", "worker", "worker-amqp");
            assertEquals(0, stop.exit(), stop.output());
            for (Flow f : FLOWS) {
                String code = exitCode(f.worker());
                String log = logs(f.worker());
                String ledger = log.lines().filter(l -> l.contains("ledger:")).reduce((a, b) -> b).orElse("");
                // a worker that was not restarted saw every job; more than once for a job whose ack
                // was lost in a kill (delivery is at least once: it runs again, counted twice)
                Matcher received = RECEIVED.matcher(ledger);
                boolean whole = !"0".equals(restarts.get(f)) || received.find() && Integer.parseInt(received.group(1)) >= JOBS;
                if (!code.equals("0") || !whole || !ledger.contains("missing=0")) {
                    failures.add(project + " " + f.worker() + ": on SIGTERM exit " + code + ", restarts " + restarts.get(f)
                            + ", last ledger line: " + (ledger.isEmpty() ? "none" : ledger));
                }
            }
        }

        @Override
        public void close() throws IOException, InterruptedException {
            BoundedRun.Result ps = compose(Duration.ofMinutes(1), "ps", "-a");
            Files.writeString(dir.resolve("ps.txt"), ps.output(), StandardCharsets.UTF_8);
            BoundedRun.Result logs = compose(Duration.ofMinutes(1), "--profile", "naive", "logs", "--no-color", "-t");
            Files.writeString(dir.resolve("compose.log"), logs.output(), StandardCharsets.UTF_8);
            // the test has what it checks by now (a drain is checked by stopWorkersDrained, before):
            // SIGKILL first, so that down removes stopped containers instead of waiting out each
            // one's stop timeout (a live stack's down took 27 s, kill then down 8 s)
            BoundedRun.Result kill = compose(DOWN_BOUND, "--profile", "naive", "kill");
            Files.writeString(dir.resolve("kill.txt"), kill.output(), StandardCharsets.UTF_8);
            BoundedRun.Result down = compose(DOWN_BOUND, "--profile", "naive", "down", "-v", "--remove-orphans", "-t", "30");
            if (down.exit() != 0) {
                throw new AssertionError("docker-compose down: " + down.output());
            }
        }
    }
}
