package dev.guard.init.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The contract, for workers: received versus processed. A gap is the kill's when the jobs it
 * leaves were in flight as the container ended; errors logged may account for the rest; only a gap
 * nothing explains is schema skew. No job at all is no-jobs, or drift when the URL the worker
 * resolved at boot is a loopback or unknown host.
 */
final class ContractRule implements CauseRule {
    /** A connect announced and neither completed nor failed for this long, while the log went on, hangs. */
    static final Duration HUNG_CONNECT = Duration.ofSeconds(10);

    @Override
    public void apply(Facts f, Conclusion v) {
        Group g = f.group;
        if (g.role != Role.WORKER) {
            return;
        }
        v.jobs = counts(g, v);
        boolean connectionCause = !f.targets.isEmpty();
        int gap = v.jobs.received() - v.jobs.processed() - v.jobs.handedBack();
        if (v.jobs.received() == 0 && v.jobs.processed() == 0 && !connectionCause && g.hasAppText && v.causes.isEmpty()) {
            noJobs(f, v);
        } else if (gap > 0) {
            gap -= accountForInFlight(f, v, gap);
            if (gap > 0) {
                gap(f, v, gap);
            }
        } else if (v.causes.isEmpty() && v.jobs.received() > 0 && waitedForALoad(f, v)) {
            return;
        } else if (v.causes.isEmpty() && v.jobs.received() > 0) {
            v.add(Cause.HEALTHY, "received " + v.jobs.received() + ", processed " + v.jobs.processed()
                    + ", no connection errors");
        }
        List<Signal> failedToStart = g.sample(Signal.Type.APP_FAILED_TO_START);
        if (!failedToStart.isEmpty()) {
            v.evidence(failedToStart.get(0), "Spring Boot did not start");
        }
        if (v.causes.isEmpty() && g.hasAppText) {
            v.add(Cause.UNKNOWN, "nothing in its log decides");
        }
    }

    /**
     * A worker that started while Redis loaded its dataset for a second or more and got its first job
     * only after the load, without an error line: its client took the LOADING replies silently
     * (phpredis's blPop returns false). That is the startup race, though nothing was lost.
     */
    private static boolean waitedForALoad(Facts f, Conclusion v) {
        Group g = f.group;
        Instant boot = g.firstBoot == null ? null : g.firstBoot.s().line().time();
        Instant firstJob = g.received.count == 0 ? null : g.received.first(g).s().line().time();
        if (boot == null || firstJob == null) {
            return false;
        }
        for (Context.Load load : f.context.loads) {
            Instant start = load.start().line().time();
            Instant end = load.end().line().time();
            if (start != null && end != null && Duration.between(start, end).toMillis() >= 1_000
                    && boot.isBefore(end) && !firstJob.isBefore(end)) {
                v.add(Cause.STARTUP_RACE, "the worker started while " + DependencyRule.server(load.start()) + " loaded its "
                        + "dataset (" + Duration.between(start, end).toMillis() + " ms) and got its first job "
                        + "only after the load, without an error line: its client waited on the LOADING replies silently");
                v.evidence(g.firstBoot.s().withDetail(null), "the worker started");
                v.evidence(load.end(), "the dataset loaded after the worker started");
                v.evidence(g.received.first(g).s(), "first job, after the load");
                return true;
            }
        }
        return false;
    }

    private static JobCounts counts(Group g, Conclusion v) {
        if (g.received.count > 0 || g.processed.count > 0) {
            if (g.received.count > 0) {
                v.evidence(g.received.first(g).s(), "first 'job <id> received' of " + g.received.count);
            }
            if (g.processed.count > 0) {
                v.evidence(g.processed.first(g).s(), "first 'job <id> processed' of " + g.processed.count);
            }
            return new JobCounts(g.received.count, g.processed.count, 0, 0, 0, 0, "per-job lines");
        }
        if (g.lastLedger != null) {
            Signal l = g.lastLedger.s();
            String d = l.detail();
            v.evidence(l, "ledger summary");
            return new JobCounts(GuardLineParser.ledgerValue(d, "received"), GuardLineParser.ledgerValue(d, "processed"),
                    GuardLineParser.ledgerValue(d, "rejected"), GuardLineParser.ledgerValue(d, "failed"),
                    // a duplicate or superseded job was settled by another run of it (guard's completion
                    // records): like a hand-back, not a loss
                    GuardLineParser.ledgerValue(d, "handed_back") + GuardLineParser.ledgerValue(d, "duplicate")
                            + GuardLineParser.ledgerValue(d, "superseded"), GuardLineParser.ledgerValue(d, "missing"), "ledger");
        }
        return JobCounts.NONE;
    }

    private static void noJobs(Facts f, Conclusion v) {
        Group g = f.group;
        Signal boot = g.lastBoot == null ? null : g.lastBoot.s();
        Category where = boot == null || boot.host() == null ? null
                : Category.of(Signal.Type.REFUSED, boot.host(), boot.port(), f.context.endpoints);
        if (where == Category.LOOPBACK || where == Category.NOT_AN_ENDPOINT) {
            v.add(Cause.ENV_DRIFT, "the worker resolved " + boot.target() + " at boot ("
                    + (where == Category.LOOPBACK ? "a loopback/default host" : "not a known endpoint")
                    + ") and no job came through" + (g.has(Signal.Type.OTHER_ERROR)
                    ? "; its " + g.count(Signal.Type.OTHER_ERROR) + " error lines name no host diagnose can read" : ""));
            v.evidence(boot.withDetail(null), "the URL the worker resolved at boot");
            g.sample(Signal.Type.OTHER_ERROR).stream().limit(2).forEach(s -> v.evidence(s, "error line after the boot line"));
            return;
        }
        Placed pending = g.pendingConnect;
        Instant asked = pending == null ? null : pending.s().line().time();
        if (asked != null && g.lastLineTime != null
                && Duration.between(asked, g.lastLineTime).compareTo(HUNG_CONNECT) >= 0) {
            // the client said where it connects and then nothing, neither connected nor an error, while its
            // log went on: a connect without a timeout (kombu's Redis transport) waits on dropped packets
            v.add(Cause.NETWORK_BLOCKED, "the client announced its connect to " + pending.s().target() + " and "
                    + "never said it connected, nor failed, in the " + Duration.between(asked, g.lastLineTime)
                    .toSeconds() + " s its log went on: the connect hangs, as on packets dropped without an answer");
            v.evidence(pending.s(), "the connect announced, never completed");
            return;
        }
        if (!f.context.stillLoading.isEmpty() && !f.context.dependencyKilled()) {
            // the worker said nothing, and its Redis loaded to the end: a client that reads -LOADING as an
            // empty reply (phpredis's blPop returns false and sets getLastError) waits without a line
            Signal loading = f.context.stillLoading.get(0);
            v.add(Cause.REDIS_LOADING, "no job received and no error logged, while " + DependencyRule.server(loading)
                    + " was loading its dataset to the end of its log: the worker's client took the LOADING replies "
                    + "silently");
            v.evidence(loading, "still loading at the end of its log");
            if (boot != null) {
                v.evidence(boot.withDetail(null), "the URL the worker resolved at boot");
            }
            return;
        }
        v.add(Cause.NO_JOBS, "no connection errors and no job received");
        if (boot != null) {
            v.evidence(boot.withDetail(null), "the URL the worker resolved at boot: is it the queue the backend fills?");
        }
        Placed firstLine = g.timeline.runs().isEmpty() ? g.firstBoot : g.timeline.runs().get(0).first;
        for (Signal e : f.context.enqueued) {
            String when = "";
            if (e.line().time() != null && firstLine != null && firstLine.s().line().time() != null) {
                when = e.line().time().isBefore(firstLine.s().line().time())
                        ? " (before the worker's first line)" : " (after the worker's first line)";
            }
            v.evidence(e, "the backend enqueued" + when + ": check it used the queue/URL the worker reads");
        }
    }

    /**
     * Jobs of the gap that were in flight at the end of a log: when its container ended (a previous
     * log, a killed container) they are the kill's, and returned as accounted for; when the worker
     * still runs they may have been in progress as the log was captured, which a note says (they
     * still count: a dropped job looks the same).
     */
    private static int accountForInFlight(Facts f, Conclusion v, int gap) {
        Group g = f.group;
        boolean currentKilled = !KilledRule.kills(g).isEmpty() && !f.running();
        int killed = 0;
        int live = 0;
        Placed first = null;
        boolean previous = false;
        for (Group.InFlight i : g.inFlight()) {
            if (i.previous() || currentKilled) {
                killed += i.count();
                first = first == null ? i.first() : first;
                previous |= i.previous();
            } else {
                live += i.count();
            }
        }
        int explained = Math.min(gap, killed);
        if (explained > 0) {
            v.add(Cause.OOM_OR_PROBE_KILL, explained + (explained == 1 ? " job" : " jobs") + " received and never "
                    + "processed " + (explained == 1 ? "was" : "were") + " in flight when "
                    + (previous ? "the previous container ended (killed or restarted)" : "the container was killed")
                    + ": lost unless the queue redelivers unacknowledged jobs; drain on SIGTERM and hand them back");
            v.evidence(first.s(), "received, never processed: in flight when the container ended");
        }
        int stillRunning = Math.min(gap - explained, live);
        if (stillRunning > 0) {
            v.notes.add(g.name + ": " + stillRunning + " of the jobs never processed " + (stillRunning == 1 ? "was" : "were")
                    + " received after the last job that finished, at the end of a log whose worker still runs: "
                    + (stillRunning == 1 ? "it" : "they") + " may have been in progress as the log was captured; "
                    + "capture again later and compare");
        }
        return explained;
    }

    private static void gap(Facts f, Conclusion v, int gap) {
        Group g = f.group;
        JobCounts j = v.jobs;
        int otherErrors = g.count(Signal.Type.OTHER_ERROR);
        if (j.source().equals("ledger")) {
            if (j.rejected() + j.missing() > 0 || gap > j.failed()) {
                v.add(Cause.SCHEMA_SKEW, "ledger: received " + j.received() + ", processed " + j.processed()
                        + ", rejected " + j.rejected() + ", missing " + j.missing());
            } else {
                v.notes.add(g.name + ": received " + j.received() + " > processed " + j.processed()
                        + ", accounted for by failed=" + j.failed() + ": read those errors");
                if (v.causes.isEmpty()) {
                    v.add(Cause.UNKNOWN, "the ledger's failed jobs account for the gap: read their errors");
                }
            }
        } else if (g.has(Signal.Type.PERMISSION)) {
            v.notes.add(g.name + ": received > processed; the permission errors may account for the gap");
        } else if (otherErrors >= gap) {
            v.notes.add(g.name + ": received " + j.received() + " > processed " + j.processed() + ", and "
                    + otherErrors + " error lines may account for the gap: read them");
            if (v.causes.isEmpty()) {
                v.add(Cause.UNKNOWN, "received > processed, but logged errors may account for the gap");
                g.sample(Signal.Type.OTHER_ERROR).stream().limit(3).forEach(s -> v.evidence(s, "error line"));
            }
        } else {
            v.add(Cause.SCHEMA_SKEW, "received " + j.received() + " > processed " + j.processed()
                    + " with " + (otherErrors == 0 ? "no" : "only " + otherErrors) + " error lines to account for "
                    + gap + " missing");
        }
    }
}
