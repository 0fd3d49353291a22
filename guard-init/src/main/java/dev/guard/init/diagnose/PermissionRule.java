package dev.guard.init.diagnose;

import java.util.List;

/** A write was denied: a volume's owner, a read-only filesystem. */
final class PermissionRule implements CauseRule {
    @Override
    public void apply(Facts f, Conclusion v) {
        List<Signal> denied = f.group.sample(Signal.Type.PERMISSION);
        if (denied.isEmpty()) {
            return;
        }
        int n = f.group.count(Signal.Type.PERMISSION);
        v.add(Cause.PERMISSION, n + " permission errors"
                + (denied.get(0).detail() != null ? ", first on " + denied.get(0).detail() : ""));
        v.evidence(denied.get(0), "write denied");
    }
}
