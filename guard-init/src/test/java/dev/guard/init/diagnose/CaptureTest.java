package dev.guard.init.diagnose;

import dev.guard.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.init.GuardInit;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * capture against fake {@code docker} / {@code kubectl} executables (shell scripts that print
 * canned output from the scenario fixtures and record their argv), put first on the PATH the
 * command is given: the files written, the commands run, and that diagnose reads the result.
 */
class CaptureTest {
    @TempDir
    Path tmp;

    private static final String FAKE_DOCKER = """
            #!/bin/sh
            here=$(dirname "$0")
            printf '%s\\n' "$*" >> "$here/argv.log"
            shift
            if [ "$1" = "--project-directory" ]; then shift 2; fi
            for a; do last=$a; done
            case "$1" in
              ps) cat "$here/data/ps.txt" ;;
              config) printf 'redis\\nworker\\nbackend\\n' ;;
              logs) cat "$here/data/$last.log" ;;
              *) echo "fake docker: unexpected $*" >&2; exit 2 ;;
            esac
            """;

    private static final String FAKE_KUBECTL = """
            #!/bin/sh
            here=$(dirname "$0")
            printf '%s\\n' "$*" >> "$here/argv.log"
            case "$1 $2" in
              "get pod")
                case "$*" in
                  *"-o name"*) printf 'pod/worker-7c9d8f5b6-x2k4m\\npod/redis-0\\n' ;;
                  *) cat "$here/data/pods.txt" ;;
                esac ;;
              "describe pod") cat "$here/data/$5-describe.txt" ;;
              "get events") cat "$here/data/events.txt" ;;
              logs*)
                case "$*" in
                  *--previous*)
                    if [ -f "$here/data/$4-previous.log" ]; then cat "$here/data/$4-previous.log"
                    else echo "Error from server (BadRequest): previous terminated container \\"worker\\" in pod \\"$4\\" not found" >&2; exit 1; fi ;;
                  *) cat "$here/data/$4.log" ;;
                esac ;;
              *) echo "fake kubectl: unexpected $*" >&2; exit 2 ;;
            esac
            """;

    private Path fakeBin(String name, String script) throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path exe = bin.resolve(name);
        Files.writeString(exe, script);
        Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(bin.resolve("data"));
        return bin;
    }

    private static Path scenario(String name) {
        return DiagnoseScenariosTest.root().resolve(name);
    }

    private static Map<String, String> pathFirst(Path bin) {
        return Map.of("PATH", bin + ":/usr/bin:/bin");
    }

    @Test
    void composeCapturesPsAndEachServiceAndTheResultDiagnoses() throws Exception {
        Path bin = fakeBin("docker", FAKE_DOCKER);
        Files.copy(scenario("compose-redis-py-race").resolve("worker.log"), bin.resolve("data/worker.log"));
        Files.copy(scenario("compose-redis-py-race").resolve("redis.log"), bin.resolve("data/redis.log"));
        Files.writeString(bin.resolve("data/backend.log"), "2026-11-30T02:00:05.000000000Z enqueued 20 jobs\n");
        Files.copy(scenario("compose-redis-down").resolve("ps.txt"), bin.resolve("data/ps.txt"));
        Path out = tmp.resolve("capture");

        Capture.Result r = Capture.compose().projectDir(Path.of("/srv/jobs")).out(out).env(pathFirst(bin)).build().run();

        List<String> argv = Files.readAllLines(bin.resolve("argv.log"));
        assertEquals(List.of(
                "compose --project-directory /srv/jobs ps --all",
                "compose --project-directory /srv/jobs config --services",
                "compose --project-directory /srv/jobs logs --no-color --no-log-prefix --timestamps redis",
                "compose --project-directory /srv/jobs logs --no-color --no-log-prefix --timestamps worker",
                "compose --project-directory /srv/jobs logs --no-color --no-log-prefix --timestamps backend"), argv);
        assertEquals(List.of(out.resolve("ps.txt"), out.resolve("redis.log"), out.resolve("worker.log"),
                out.resolve("backend.log")), r.files());
        assertEquals(-1, Files.mismatch(out.resolve("worker.log"), bin.resolve("data/worker.log")));
        String manifest = Files.readString(out.resolve("capture.txt"));
        assertTrue(manifest.contains("exit 0  " + bin.resolve("docker") + " compose --project-directory /srv/jobs logs "
                + "--no-color --no-log-prefix --timestamps worker  > worker.log"), manifest);
        assertTrue(r.diagnoseCommand().startsWith("guard-init diagnose " + out.resolve("ps.txt")), r.diagnoseCommand());

        Diagnosis d = Diagnoser.builder().build().diagnose(r.files());
        assertEquals("cause: startup-race", d.causeLine());
    }

    @Test
    void kubernetesCapturesStatusDescribeLogsPreviousAndEvents() throws Exception {
        Path bin = fakeBin("kubectl", FAKE_KUBECTL);
        Path src = scenario("k8s-redis-oomkilled-mid-load");
        Path data = bin.resolve("data");
        Files.copy(src.resolve("worker.log"), data.resolve("worker-7c9d8f5b6-x2k4m.log"));
        Files.copy(src.resolve("worker.log"), data.resolve("worker-7c9d8f5b6-x2k4m-previous.log")); // CrashLoop: same container
        Files.copy(src.resolve("redis.log"), data.resolve("redis-0.log"));
        Files.copy(src.resolve("redis-previous.log"), data.resolve("redis-0-previous.log"));
        Files.copy(src.resolve("redis-describe.txt"), data.resolve("redis-0-describe.txt"));
        Files.writeString(data.resolve("worker-7c9d8f5b6-x2k4m-describe.txt"), "Name:             worker-7c9d8f5b6-x2k4m\n"
                + "Namespace:        jobs\nContainers:\n  worker:\n    State:          Running\n    Restart Count:  0\n");
        Files.writeString(data.resolve("pods.txt"), String.join("\n",
                "NAME                     READY   STATUS    RESTARTS      AGE   IP          NODE     NOMINATED NODE   READINESS GATES",
                "redis-0                  1/1     Running   1 (12m ago)   16m   10.1.0.17   node-1   <none>           <none>",
                "worker-7c9d8f5b6-x2k4m   1/1     Running   0             16m   10.1.0.23   node-1   <none>           <none>") + "\n");
        Files.writeString(data.resolve("events.txt"), "LAST SEEN   TYPE      REASON      OBJECT        MESSAGE\n"
                + "12m         Normal    Pulled      pod/redis-0   Container image \"redis:7.2-alpine\" already present on machine\n");
        Path out = tmp.resolve("capture");

        Capture.Result r = Capture.kubernetes("jobs").selector("app in (worker,redis)").out(out).env(pathFirst(bin))
                .build().run();

        assertEquals(List.of(
                "get pod -n jobs -l app in (worker,redis) -o name",
                "get pod -n jobs -l app in (worker,redis) -o wide",
                "describe pod -n jobs worker-7c9d8f5b6-x2k4m",
                "logs -n jobs worker-7c9d8f5b6-x2k4m --timestamps --all-containers",
                "logs -n jobs worker-7c9d8f5b6-x2k4m --timestamps --all-containers --previous",
                "describe pod -n jobs redis-0",
                "logs -n jobs redis-0 --timestamps --all-containers",
                "logs -n jobs redis-0 --timestamps --all-containers --previous",
                "get events -n jobs --sort-by=.lastTimestamp"), Files.readAllLines(bin.resolve("argv.log")));
        assertTrue(Files.size(out.resolve("worker-7c9d8f5b6-x2k4m.log")) > 0);
        assertEquals(0, Files.size(out.resolve("worker-7c9d8f5b6-x2k4m-previous.log")),
                "--previous equal to the current log (CrashLoopBackOff) must be emptied, as the runbook's cmp line does");
        assertEquals(-1, Files.mismatch(out.resolve("redis-0-previous.log"), src.resolve("redis-previous.log")));
        assertEquals(8, r.files().size(), r.files().toString());
        assertTrue(r.files().contains(out.resolve("events.txt")));

        Diagnosis d = Diagnoser.builder().build().diagnose(r.files());
        assertEquals("cause: oom-or-probe-kill", d.causeLine(), DiagnosisReport.human(d));
    }

    @Test
    void aMissingToolSaysWhereItLookedAndWhatToDo() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        CaptureException e = assertThrows(CaptureException.class, () -> Capture.kubernetes("jobs")
                .out(tmp.resolve("o")).env(Map.of("PATH", empty.toString())).build().run());
        assertEquals("kubectl not found on PATH (" + empty + "): install it, or pass --kubectl /path/to/kubectl",
                e.getMessage());
    }

    @Test
    void aFailingFirstListingStopsWithTheToolsOwnError() throws IOException {
        Path bin = fakeBin("kubectl", "#!/bin/sh\necho 'error: You must be logged in to the server (Unauthorized)' >&2\nexit 1\n");
        CaptureException e = assertThrows(CaptureException.class, () -> Capture.kubernetes("jobs")
                .out(tmp.resolve("o")).env(pathFirst(bin)).build().run());
        assertTrue(e.getMessage().contains("get pod -n jobs -o name' failed (exit 1): error: You must be logged in to the "
                + "server (Unauthorized); check the kubectl context and the namespace"), e.getMessage());
    }

    @Test
    void theCliRunsTheGivenKubectlAndPrintsTheDiagnoseCommand() throws IOException {
        Path bin = fakeBin("kubectl", FAKE_KUBECTL);
        Path src = scenario("k8s-redis-no-jobs");
        Files.copy(src.resolve("worker.log"), bin.resolve("data/worker-7c9d8f5b6-x2k4m.log"));
        Files.copy(src.resolve("worker-describe.txt"), bin.resolve("data/worker-7c9d8f5b6-x2k4m-describe.txt"));
        Files.writeString(bin.resolve("data/redis-0.log"), "");
        Files.copy(scenario("k8s-redis-oomkilled-mid-load").resolve("redis-describe.txt"),
                bin.resolve("data/redis-0-describe.txt"), StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(bin.resolve("data/pods.txt"), "NAME READY STATUS RESTARTS AGE\n");
        Files.writeString(bin.resolve("data/events.txt"), "");
        Path out = tmp.resolve("cap");
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = GuardInit.run(new PrintWriter(o), new PrintWriter(e), "capture", "--kubernetes", "-n", "jobs",
                "--kubectl", bin.resolve("kubectl").toString(), "--out", out.toString());
        assertEquals(0, code, e.toString());
        String printed = o.toString();
        assertTrue(printed.startsWith("captured 8 files into " + out + " (2 commands failed, e.g. --previous with no "
                + "restart: see capture.txt)"), printed);
        assertTrue(printed.contains("\nnext: guard-init diagnose " + out.resolve("pods.txt") + " "), printed);
        String manifest = Files.readString(out.resolve("capture.txt"), StandardCharsets.UTF_8);
        assertTrue(manifest.contains("    stderr: Error from server (BadRequest): previous terminated container"), manifest);
    }

    @Test
    void theCliChecksItsOptionsAndListsExitCodes() {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        assertEquals(64, GuardInit.run(new PrintWriter(o), new PrintWriter(e), "capture", "--kubernetes"));
        assertTrue(e.toString().contains("--kubernetes needs -n NAMESPACE"), e.toString());
        e = new StringWriter();
        assertEquals(64, GuardInit.run(new PrintWriter(o), new PrintWriter(e), "capture", "--compose", "--kubernetes"));
        assertTrue(e.toString().contains("exactly one of --compose or --kubernetes"), e.toString());
        e = new StringWriter();
        assertEquals(69, GuardInit.run(new PrintWriter(o), new PrintWriter(e), "capture", "--compose", "--docker",
                tmp.resolve("no-docker").toString(), "--out", tmp.resolve("x").toString()));
        assertTrue(e.toString().contains("no-docker is not an executable file"), e.toString());
        o = new StringWriter();
        assertEquals(0, GuardInit.run(new PrintWriter(o), new PrintWriter(new StringWriter()), "capture", "--help"));
        assertTrue(o.toString().contains("Exit codes:") && o.toString().contains("69"), o.toString());
    }
}
