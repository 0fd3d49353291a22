package dev.guard.init.diagnose;

import java.util.List;

/**
 * What one worker type (or the backend, or a dependency) shows.
 *
 * @param group its name
 * @param role worker, application (not a worker: a backend), or dependency
 * @param causes the causes its logs show, in fix order
 * @param reasons one sentence per cause saying why
 * @param jobs received versus processed
 * @param evidence the lines that decided it
 */
public record GroupFinding(String group, String role, List<String> causes, List<String> reasons, JobCounts jobs,
        List<Evidence> evidence) {}
