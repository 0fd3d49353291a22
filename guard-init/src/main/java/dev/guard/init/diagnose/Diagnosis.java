package dev.guard.init.diagnose;

import java.util.List;

/**
 * What diagnose concluded: the causes in fix order, per group, the connection errors per host,
 * the job counts, the files as read, what to do next. Immutable; {@link DiagnosisReport} prints it.
 *
 * @param causes the cause ids in fix order; never empty ({@code healthy} or {@code unknown} alone
 *     when nothing else applies)
 * @param groups what each worker type / dependency shows
 * @param hosts connection errors per group and target
 * @param jobs received versus processed over all workers
 * @param files the inputs as read
 * @param endpoints the endpoints a host was checked against, and where each came from
 * @param next what to do next, one entry per cause, in fix order
 * @param notes caveats (no timestamps, no known endpoints, ...)
 */
public record Diagnosis(List<String> causes, List<GroupFinding> groups, List<HostErrors> hosts, JobCounts jobs,
        List<FileSummary> files, List<String> endpoints, List<NextStep> next, List<String> notes) {

    /**
     * One step of the fix.
     *
     * @param cause the cause id
     * @param stage connectivity, config or contract
     * @param groups the groups it applies to
     * @param action what to do
     */
    public record NextStep(String cause, String stage, List<String> groups, String action) {}

    public Diagnosis {
        causes = List.copyOf(causes);
        groups = List.copyOf(groups);
        hosts = List.copyOf(hosts);
        files = List.copyOf(files);
        endpoints = List.copyOf(endpoints);
        next = List.copyOf(next);
        notes = List.copyOf(notes);
    }

    /** The first line of the report: {@code cause: id[, id...]}. */
    public String causeLine() {
        return "cause: " + String.join(", ", causes);
    }
}
