package dev.guard.init.diagnose;

import dev.guard.config.Redaction;
import java.util.List;

/** The group's own container was killed: OOMKilled, exit 137, a failed liveness or startup probe. */
final class KilledRule implements CauseRule {
    @Override
    public void apply(Facts f, Conclusion v) {
        List<Signal> killed = kills(f.group);
        if (killed.isEmpty()) {
            return;
        }
        Signal k = killed.get(0);
        v.add(Cause.OOM_OR_PROBE_KILL, f.group.name + " was killed: " + Redaction.maskText(k.line().text().trim()));
        v.evidence(k, "the container was killed");
    }

    static List<Signal> kills(Group g) {
        return g.sampleInOrder(Signal.Type.OOM_KILLED, Signal.Type.EXIT_137, Signal.Type.PROBE_KILL);
    }
}
