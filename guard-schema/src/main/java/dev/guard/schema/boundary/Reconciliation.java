package dev.guard.schema.boundary;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A snapshot of the ledger: {@code received = processed + rejected + failed + handedBack + duplicate
 * + superseded + missing}, where missing counts receptions that have no outcome yet (in flight, or
 * lost); duplicate and superseded come from idempotent completion ({@code dev.guard.drain.Once}).
 *
 * @param missingIds ids of the receptions without an outcome (a job received twice and unfinished twice
 *                   appears twice)
 */
public record Reconciliation(long received, long processed, long rejected, long failed, long handedBack,
                             long duplicate, long superseded, List<String> missingIds) {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int LISTED_IDS = 20;

    public Reconciliation {
        missingIds = List.copyOf(missingIds);
    }

    /** Receptions with no outcome. */
    public long missing() {
        return missingIds.size();
    }

    /** True when every reception has exactly one outcome: {@code received == processed+rejected+failed+handedBack+duplicate+superseded}. */
    public boolean balanced() {
        return missingIds.isEmpty() && received == processed + rejected + failed + handedBack + duplicate + superseded;
    }

    /**
     * {@code "received=100 processed=91 rejected=9 failed=0 handed_back=0 missing=0"}, with
     * {@code duplicate=} and {@code superseded=} after handed_back when they are not 0, plus
     * {@code " missing_ids=a,b"} (at most 20 ids, then {@code ",...(+N)"}) when some are missing.
     */
    public String summaryLine() {
        StringBuilder sb = new StringBuilder()
                .append("received=").append(received)
                .append(" processed=").append(processed)
                .append(" rejected=").append(rejected)
                .append(" failed=").append(failed)
                .append(" handed_back=").append(handedBack)
                .append(duplicate > 0 ? " duplicate=" + duplicate : "")
                .append(superseded > 0 ? " superseded=" + superseded : "")
                .append(" missing=").append(missingIds.size());
        if (!missingIds.isEmpty()) {
            sb.append(" missing_ids=");
            for (int i = 0; i < Math.min(LISTED_IDS, missingIds.size()); i++) {
                sb.append(i == 0 ? "" : ",").append(missingIds.get(i));
            }
            if (missingIds.size() > LISTED_IDS) {
                sb.append(",...(+").append(missingIds.size() - LISTED_IDS).append(')');
            }
        }
        return sb.toString();
    }

    /** The same as data: {@code {"received":100,...,"missing":0,"missing_ids":[],"balanced":true}}. */
    public String toJson() {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("received", received);
        n.put("processed", processed);
        n.put("rejected", rejected);
        n.put("failed", failed);
        n.put("handed_back", handedBack);
        n.put("duplicate", duplicate);
        n.put("superseded", superseded);
        n.put("missing", missingIds.size());
        ArrayNode ids = n.putArray("missing_ids");
        missingIds.forEach(ids::add);
        n.put("balanced", balanced());
        return n.toString();
    }

    @Override
    public String toString() {
        return summaryLine();
    }
}
