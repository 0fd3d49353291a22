package dev.guard.init.diagnose;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Env drift: errors naming a loopback or default host, or a host that is none of the endpoints;
 * credentials the broker refused; a config guard violation.
 */
final class EnvDriftRule implements CauseRule {
    @Override
    public void apply(Facts f, Conclusion v) {
        List<Targets.Target> drift = new java.util.ArrayList<>();
        List<Targets.Target> announced = new java.util.ArrayList<>();
        String how = null;
        for (Targets.Target t : f.targets.of(Category.LOOPBACK, Category.NOT_AN_ENDPOINT)) {
            String why = announced(f, t);
            (why != null ? announced : drift).add(t);
            how = how == null ? why : how;
        }
        if (!announced.isEmpty()) {
            Span s = Targets.span(announced);
            Set<String> named = new TreeSet<>();
            announced.forEach(t -> named.add(t.label()));
            v.add(Cause.ANNOUNCED_ADDRESS, s.count + " connection error lines name " + String.join(", ", named)
                    + ", an address the worker did not configure: the URL it resolved at boot names "
                    + f.boot().target() + ", and " + how + ". Sentinel or the Cluster "
                    + "announces an address this worker cannot reach: fix what it announces, not the worker's URL");
            v.evidence(f.boot(), "the URL the worker resolved at boot");
            Signal said = f.context.announced.get(announced.get(0).label());
            if (said != null) {
                v.evidence(said, "where the topology announces " + said.target());
            } else if (f.group.topologyHint != null) {
                v.evidence(new Evidence(f.group.topologyHint.where(), "the client speaks to Sentinel or a Cluster",
                        dev.guard.config.Redaction.maskText(f.group.topologyHint.text().strip())));
            }
            v.evidence(s.first(f.group).s(), "first error naming the announced " + name(s.first(f.group).s(), announced));
            v.evidence(s.last(f.group).s(), "last error naming the announced " + name(s.last(f.group).s(), announced));
        }
        List<Targets.Target> gate = f.targets.of(Category.ANNOUNCED);
        if (!gate.isEmpty()) {
            Span s = Targets.span(gate);
            v.add(Cause.ANNOUNCED_ADDRESS, "guard's readiness gate reached " + gate.get(0).label().replace(" (announced)", "")
                    + " and found it announcing an address other hosts cannot reach (state 'announced')");
            v.evidence(s.first(f.group).s(), "the gate's verdict");
        }
        if (!drift.isEmpty()) {
            Span s = Targets.span(drift);
            Set<String> named = new TreeSet<>();
            drift.forEach(t -> named.add(t.label().replace(" (from boot line)", "")));
            String where = f.targets.has(Category.LOOPBACK) ? "a loopback/default host" : "a host that is not a known endpoint";
            v.add(Cause.ENV_DRIFT, s.count + " connection error lines name " + where + " (" + String.join(", ", named)
                    + ") instead of the service");
            Signal first = s.first(f.group).s();
            Signal last = s.last(f.group).s();
            v.evidence(first, "first error naming " + name(first, drift));
            v.evidence(last, "last error naming " + name(last, drift));
        }
        List<Targets.Target> auth = f.targets.of(Category.AUTH);
        if (!auth.isEmpty()) {
            Span s = Targets.span(auth);
            v.add(Cause.ENV_DRIFT, s.count + " lines: the broker refused the credentials the worker resolved "
                    + "(check the user/password variables the worker reads)");
            v.evidence(s.first(f.group).s(), "credentials refused");
        }
        List<Signal> violations = f.group.sample(Signal.Type.CONFIG_VIOLATION);
        if (!violations.isEmpty()) {
            v.add(Cause.ENV_DRIFT, "the config guard rejected " + (violations.get(0).detail() == null
                    ? "a setting" : violations.get(0).detail()));
            v.evidence(violations.get(0), "config guard violation");
        }
    }

    /**
     * Why this loopback or unknown target was announced to the worker rather than configured: a
     * sentinel's log gives clients exactly that address, or the worker's boot URL names another,
     * reachable host while its client discovers the nodes (Sentinel, a Cluster). Null when it was not.
     */
    static String announced(Facts f, Targets.Target t) {
        Signal boot = f.boot();
        if (boot == null || boot.host() == null || Hosts.isLoopback(boot.host()) || t.label().endsWith("(from boot line)")) {
            return null;
        }
        Signal said = f.context.announced.get(t.label());
        if (said != null) {
            return "a sentinel announces " + t.label() + " as the master (" + said.line().where() + ")";
        }
        String discovery = f.discovery();
        boolean other = t.keys().stream().noneMatch(k -> boot.host().equals(k.host()));
        if (discovery != null && other) {
            return "the client learns node addresses from the topology: " + discovery;
        }
        return null;
    }

    /** The target an error counts under: its own host, or the boot line's. */
    private static String name(Signal s, List<Targets.Target> drift) {
        if (s.target() != null) {
            return s.target();
        }
        return drift.get(0).label();
    }
}
