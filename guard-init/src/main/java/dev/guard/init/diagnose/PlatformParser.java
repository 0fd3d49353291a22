package dev.guard.init.diagnose;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes and Compose status: {@code kubectl get pod} rows, {@code kubectl describe pod} state
 * and events, {@code kubectl get events} rows, {@code docker compose ps} rows. Formats from
 * kubectl's describe printer ({@code k8s.io/kubectl/pkg/describe/describe.go}: "State:",
 * "Last State:", "Reason:", "Exit Code:", "Restart Count:", the Events table) and the kubelet's
 * event messages ("Liveness probe failed: ...", "Back-off restarting failed container ...").
 */
final class PlatformParser implements LineParser {
    private static final Pattern GET_POD_ROW = Pattern.compile(
            "^(\\S+)\\s+(\\d+/\\d+)\\s+(\\S+)\\s+(\\d{1,9})(?:\\s+\\([^)]*\\))?\\s+\\S+.*$");
    private static final Pattern EXIT_137 = Pattern.compile("Exit Code:\\s+137\\b|Exited \\(137\\)|exit code 137|exitCode: 137");
    private static final Pattern RESTART_COUNT = Pattern.compile("Restart Count:\\s+(\\d{1,9})");
    private static final Pattern STATE = Pattern.compile("^\\s*State:\\s+(\\w+)");
    private static final Pattern REASON_OOM = Pattern.compile("\\s*Reason:\\s+OOMKilled.*");
    private static final Pattern REASON_CRASH_LOOP = Pattern.compile("\\s*Reason:\\s+CrashLoopBackOff.*");
    private static final Pattern COMPOSE_RESTARTING = Pattern.compile("\\bRestarting \\(\\d+\\)");
    private static final Pattern COMPOSE_UP = Pattern.compile("\\bUp \\d+");
    private static final Pattern PROBE = Pattern.compile("(Liveness|Startup) probe failed|failed (liveness|startup) probe");

    @Override
    public List<Signal> parse(LogLine line, Words.Found words) {
        String t = line.text();
        List<Signal> out = new ArrayList<>(2);
        Matcher row = GET_POD_ROW.matcher(t);
        if (row.matches() && !t.startsWith("NAME")) {
            String status = row.group(3);
            int restarts = Integer.parseInt(row.group(4));
            if (status.equals("OOMKilled")) {
                out.add(Signal.of(Signal.Type.OOM_KILLED, line, "kubernetes"));
            } else if (status.contains("CrashLoopBackOff")) {
                out.add(Signal.of(Signal.Type.CRASH_LOOP, line, "kubernetes").withDetail("status"));
            } else if (status.equals("Running")) {
                out.add(Signal.of(Signal.Type.POD_RUNNING, line, "kubernetes"));
            }
            if (restarts > 0) {
                out.add(Signal.of(Signal.Type.RESTARTS, line, "kubernetes").withDetail(Integer.toString(restarts)));
            }
            return out;
        }
        if (REASON_OOM.matcher(t).matches() || t.contains("OOMKilled")) {
            out.add(Signal.of(Signal.Type.OOM_KILLED, line, "kubernetes"));
        } else if (EXIT_137.matcher(t).find()) {
            out.add(Signal.of(Signal.Type.EXIT_137, line, t.contains("Exited (") ? "compose" : "kubernetes"));
        } else if (PROBE.matcher(t).find()) {
            out.add(Signal.of(Signal.Type.PROBE_KILL, line, "kubernetes"));
        } else if (REASON_CRASH_LOOP.matcher(t).matches()) {
            out.add(Signal.of(Signal.Type.CRASH_LOOP, line, "kubernetes").withDetail("status"));
        } else if (t.contains("Back-off restarting failed container")) {
            out.add(Signal.of(Signal.Type.CRASH_LOOP, line, "kubernetes").withDetail("event"));
        } else if (COMPOSE_RESTARTING.matcher(t).find()) {
            out.add(Signal.of(Signal.Type.CRASH_LOOP, line, "compose").withDetail("status"));
        } else {
            Matcher rc = RESTART_COUNT.matcher(t);
            Matcher st = STATE.matcher(t);
            if (rc.find() && Integer.parseInt(rc.group(1)) > 0) {
                out.add(Signal.of(Signal.Type.RESTARTS, line, "kubernetes").withDetail(rc.group(1)));
            } else if (st.find() && st.group(1).equals("Running")) {
                out.add(Signal.of(Signal.Type.POD_RUNNING, line, "kubernetes"));
            } else if (COMPOSE_UP.matcher(t).find() && !t.contains("(unhealthy)")) {
                out.add(Signal.of(Signal.Type.POD_RUNNING, line, "compose"));
            }
        }
        return out;
    }
}
