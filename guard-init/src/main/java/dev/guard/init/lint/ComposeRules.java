package dev.guard.init.lint;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules on a Compose project as a whole: a worker that starts when its broker's container
 * starts rather than when it serves, the drain's grace against {@code stop_grace_period}, and the
 * names each service must read set in its environment ({@link Drift}).
 */
final class ComposeRules {

    private ComposeRules() {}

    static List<Finding> check(String file, Y doc, List<Container> services) {
        List<Finding> out = new ArrayList<>();
        Map<String, Container> byName = new LinkedHashMap<>();
        services.forEach(c -> byName.put(c.where.substring("service ".length()), c));
        for (Container c : services) {
            dependsOnStarted(c, byName, out);
            Y stop = c.node.get("stop_grace_period");
            Duration grace = Duration.ofSeconds(10);
            if (stop != null && stop.text() != null) {
                try {
                    grace = Grace.parse(stop.text());
                } catch (IllegalArgumentException e) {
                    continue; // Compose refuses the file itself
                }
            }
            Grace.check(c, grace, "stop_grace_period", stop != null ? stop.line() : c.node.line(), null, out);
        }
        out.addAll(Drift.check(services));
        return out;
    }

    /** {@code depends_on} a broker without {@code condition: service_healthy}: the seeds' startup race. */
    private static void dependsOnStarted(Container c, Map<String, Container> byName, List<Finding> out) {
        Y deps = c.node.get("depends_on");
        if (deps == null || c.isBroker() || waitsItself(c)) {
            return;
        }
        List<Map.Entry<String, Y>> entries = new ArrayList<>();
        if (deps.isSeq()) {
            deps.items().forEach(i -> entries.add(Map.entry(String.valueOf(i.text()), i)));
        } else {
            entries.addAll(deps.entries().entrySet());
        }
        for (Map.Entry<String, Y> d : entries) {
            Container dep = byName.get(d.getKey());
            if (dep == null || !dep.isBroker()) {
                continue;
            }
            String condition = d.getValue().isMap() ? d.getValue().text("condition") : null;
            if ("service_healthy".equals(condition)) {
                continue;
            }
            String restart = c.node.text("restart");
            boolean restarts = restart != null && !restart.equals("no");
            out.add(new Finding(c.file, deps.isSeq() ? d.getValue().line() : deps.keyLine(d.getKey()), "depends-on-started",
                    Finding.Severity.WARNING, // whether the client retries at start is in its code, not in the file
                    c.where + ": depends_on " + d.getKey() + (condition == null ? "" : " (condition: " + condition + ")")
                            + " without a health condition",
                    "Compose starts " + c.where.substring(8) + " as soon as the " + d.getKey() + " container has started,"
                            + " not when " + d.getKey() + " serves: Redis loading its dataset answers LOADING, RabbitMQ and"
                            + " Kafka refuse connections while they boot; a client that connects once at start and does not"
                            + " retry gives up (the seeds' startup race)" + (restarts ? "; with restart: " + restart + " it"
                            + " is started again until it gets through, each failed start in its log"
                            : ", and without a restart policy it stays down"),
                    "give " + d.getKey() + " a healthcheck that asks the broker (guard-init healthcheck, or redis-cli ping"
                            + " | grep -q PONG) and write depends_on: {" + d.getKey() + ": {condition: service_healthy}}; or"
                            + " have the worker wait itself (guard-init wait in its entrypoint, Guard.boot)"));
        }
    }

    /** The service waits for its brokers itself: guard's settings, or a wait tool in its start command. */
    private static boolean waitsItself(Container c) {
        if (c.env.containsKey("GUARD_WAIT") || c.env.containsKey("GUARD_CONFIG")) {
            return true;
        }
        String argv = String.join(" ", c.argv);
        return argv.contains("guard-init") || argv.contains("wait-for") || argv.contains("dockerize") || argv.contains("wait4x");
    }
}
