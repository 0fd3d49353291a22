package dev.guard.init.diagnose;

/**
 * Received versus processed.
 *
 * @param received per-job {@code job <id> received} lines, or the ledger's received
 * @param processed per-job {@code job <id> processed} lines, or the ledger's processed
 * @param rejected the ledger's rejected (0 without a ledger)
 * @param failed the ledger's failed
 * @param handedBack the ledger's handed_back (given back to the broker by a drain: not lost), duplicate and
 *                   superseded (settled by another run of the job: not lost either)
 * @param missing the ledger's missing
 * @param source "per-job lines", "ledger" or "none"
 */
public record JobCounts(int received, int processed, int rejected, int failed, int handedBack, int missing, String source) {

    static final JobCounts NONE = new JobCounts(0, 0, 0, 0, 0, 0, "none");

    JobCounts plus(JobCounts o) {
        String s = source.equals("none") ? o.source : o.source.equals("none") || o.source.equals(source) ? source : "mixed";
        return new JobCounts(received + o.received, processed + o.processed, rejected + o.rejected,
                failed + o.failed, handedBack + o.handedBack, missing + o.missing, s);
    }
}
