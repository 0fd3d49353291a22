package dev.guard.init.diagnose;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Env drift: errors naming a loopback or default host, or a host that is none of the endpoints;
 * credentials the broker refused; a config guard violation.
 */
final class DriftRule implements CauseRule {
    @Override
    public void apply(Facts f, Verdict v) {
        List<Targets.Target> drift = f.targets.of(Category.LOOPBACK, Category.NOT_AN_ENDPOINT);
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

    /** The target an error counts under: its own host, or the boot line's. */
    private static String name(Signal s, List<Targets.Target> drift) {
        if (s.target() != null) {
            return s.target();
        }
        return drift.get(0).label();
    }
}
