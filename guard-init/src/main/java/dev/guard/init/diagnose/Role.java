package dev.guard.init.diagnose;

/** What a group is in the incident, told from its name and what its logs hold. */
enum Role {
    /** Pops jobs: its received/processed count is the contract. */
    WORKER,
    /** Redis or a broker: its own log or status. */
    DEPENDENCY,
    /** Anything else, e.g. the backend that enqueues. */
    APPLICATION;

    String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
