package dev.guard.drain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.ExitCodes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one worker did with the jobs it took, in the ledger's words: received, processed, rejected
 * (dead-lettered at the boundary as invalid), failed (the handler threw: parked or dead-lettered),
 * handed back, and the ids it failed to hand back (those are possibly lost); of the finished jobs,
 * how many had an ack that failed (the broker gives them out again: they may run twice, they are
 * not lost), and how many ran past the drain's deadline ({@code overran}: under Kubernetes, past
 * the grace period they would have been SIGKILLed mid-work). With {@link Once}, also the
 * duplicates (completion on record) and the superseded (another worker took them). Printed as one
 * line and as JSON when the worker stops; {@link #exitCode()} is what {@code main} should exit with.
 */
public final class ShutdownReceipt {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String workerId;
    private final String reason;
    private final long fetched;
    private final long done;
    private final long failed;
    private final long handedBack;
    private final List<String> handBackFailedIds;
    private final long drainMillis;
    private final String sourceLost;
    private final long ackFailed;
    private final long duplicates;
    private final long superseded;
    private final long rejected;
    private final long failedAtBoundary;
    private final long overran;

    ShutdownReceipt(String workerId, String reason, long fetched, long done, long failed, long handedBack,
            List<String> handBackFailedIds, long drainMillis, String sourceLost, long ackFailed, long duplicates,
            long superseded, long rejected, long failedAtBoundary, long overran) {
        this.rejected = rejected;
        this.failedAtBoundary = failedAtBoundary;
        this.overran = overran;
        this.sourceLost = sourceLost;
        this.ackFailed = ackFailed;
        this.duplicates = duplicates;
        this.superseded = superseded;
        this.workerId = workerId;
        this.reason = reason;
        this.fetched = fetched;
        this.done = done;
        this.failed = failed;
        this.handedBack = handedBack;
        this.handBackFailedIds = List.copyOf(handBackFailedIds);
        this.drainMillis = drainMillis;
    }

    public String workerId() {
        return workerId;
    }

    /** What stopped the worker: SIGTERM, SIGINT, JVM shutdown, or what the caller passed to requestStop. */
    public String reason() {
        return reason;
    }

    /** Jobs taken from the source (the ledger's {@code received}). */
    public long fetched() {
        return fetched;
    }

    /** The ledger's word for {@link #fetched()}. */
    public long received() {
        return fetched;
    }

    /** Jobs the loop acked after their handler returned: processed, rejected, or failed at the boundary. */
    public long done() {
        return done;
    }

    /** Jobs whose work finished: {@link #done()} less the rejected and the boundary's failed. */
    public long processed() {
        return done - rejected - failedAtBoundary;
    }

    /** Jobs the boundary dead-lettered as invalid (schema, size, depth). */
    public long rejected() {
        return rejected;
    }

    /** Jobs whose handler threw: parked by the source, or dead-lettered with the exception by the boundary. */
    public long failed() {
        return failed + failedAtBoundary;
    }

    /** Jobs that were still running at the drain's deadline and finished after it (no checkpoint stopped them). */
    public long overran() {
        return overran;
    }

    public long handedBack() {
        return handedBack;
    }

    /** Done jobs whose ack failed: the broker still holds them and gives them out again (they may run twice). */
    public long ackFailed() {
        return ackFailed;
    }

    /** Jobs whose completion was on record ({@link Once}): acked, their writes not applied again. */
    public long duplicates() {
        return duplicates;
    }

    /** Jobs another worker claimed while this one held them ({@link Once}): left to that worker. */
    public long superseded() {
        return superseded;
    }

    public long handBackFailed() {
        return handBackFailedIds.size();
    }

    public List<String> handBackFailedIds() {
        return handBackFailedIds;
    }

    /** Milliseconds from the stop request to this receipt (0 when no stop was requested). */
    public long drainMillis() {
        return drainMillis;
    }

    /** True when every fetched job was done, failed, handed back, a duplicate or superseded. */
    public boolean clean() {
        return handBackFailedIds.isEmpty() && fetched == settled();
    }

    private long settled() {
        return done + failed + handedBack + duplicates + superseded;  // done includes rejected and failedAtBoundary
    }

    /** Why the job source was lost (the loop stopped without a signal); empty when it was not. */
    public java.util.Optional<String> sourceLost() {
        return java.util.Optional.ofNullable(sourceLost);
    }

    /**
     * 0 after a clean drain; {@link ExitCodes#SOFTWARE} (70) when a job could not be handed back
     * or is unaccounted for; else {@link ExitCodes#UNAVAILABLE} (69) when the job source was lost
     * (restart and wait for the broker again).
     */
    public int exitCode() {
        if (!clean()) {
            return ExitCodes.SOFTWARE;
        }
        return sourceLost != null ? ExitCodes.UNAVAILABLE : ExitCodes.OK;
    }

    /**
     * One line for the log, in the ledger's words:
     * {@code guard drain receipt: worker=... received=... processed=... rejected=... failed=... handed_back=...}.
     */
    public String toLine() {
        StringBuilder sb = new StringBuilder("guard drain receipt: worker=").append(workerId)
                .append(" reason=").append(reason)
                .append(" received=").append(fetched)
                .append(" processed=").append(processed())
                .append(" rejected=").append(rejected)
                .append(ackFailed > 0 ? " ack_failed=" + ackFailed : "")
                .append(" failed=").append(failed())
                .append(" handed_back=").append(handedBack)
                .append(duplicates > 0 ? " duplicate=" + duplicates : "")
                .append(superseded > 0 ? " superseded=" + superseded : "")
                .append(overran > 0 ? " overran=" + overran : "")
                .append(" hand_back_failed=").append(handBackFailedIds.size());
        if (!handBackFailedIds.isEmpty()) {
            sb.append(" lost_ids=").append(String.join(",", handBackFailedIds));
        }
        long unaccounted = fetched - settled() - handBackFailedIds.size();
        if (unaccounted != 0) {
            sb.append(" unaccounted=").append(unaccounted);
        }
        if (sourceLost != null) {
            sb.append(" source_lost=true");
        }
        return sb.append(" drain_ms=").append(drainMillis).append(" exit=").append(exitCode()).toString();
    }

    /** The same facts as JSON, one object. */
    public String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("worker", workerId);
        m.put("reason", reason);
        m.put("received", fetched);
        m.put("processed", processed());
        m.put("rejected", rejected);
        m.put("ackFailed", ackFailed);
        m.put("failed", failed());
        m.put("handedBack", handedBack);
        m.put("duplicates", duplicates);
        m.put("superseded", superseded);
        m.put("overran", overran);
        m.put("handBackFailed", handBackFailedIds.size());
        m.put("handBackFailedIds", handBackFailedIds);
        m.put("drainMillis", drainMillis);
        if (sourceLost != null) {
            m.put("sourceLost", sourceLost);
        }
        m.put("clean", clean());
        m.put("exitCode", exitCode());
        try {
            return JSON.writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("receipt is plain data and always serializes", e);
        }
    }

    @Override
    public String toString() {
        return toLine();
    }
}
