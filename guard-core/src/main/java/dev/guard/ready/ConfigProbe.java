package dev.guard.ready;

import dev.guard.config.Redaction;
import java.time.Duration;

/** A target that cannot be checked as configured: every check is {@link ProbeState#CONFIG}. */
final class ConfigProbe implements Probe {
    private final String kind;
    private final String target;
    private final String problem;

    ConfigProbe(String kind, String target, String problem) {
        this.kind = kind;
        this.target = Redaction.maskSettingValue(target);
        this.problem = Redaction.maskText(problem);
    }

    @Override
    public String kind() {
        return kind;
    }

    @Override
    public String target() {
        return target;
    }

    @Override
    public ProbeResult check(Duration attemptTimeout) {
        return new ProbeResult(kind, target, ProbeState.CONFIG, problem, "", 1, Duration.ZERO);
    }

    @Override
    public String toString() {
        return "ConfigProbe[" + target + ": " + problem + "]";
    }
}
