package dev.guard.init.diagnose;

/** One question of the runbook: reads a group's {@link Facts}, adds causes and evidence to its {@link Conclusion}. */
interface CauseRule {
    void apply(Facts f, Conclusion v);
}
