package dev.guard.schema.spring;

import dev.guard.schema.boundary.Ledger;
import dev.guard.schema.boundary.Reconciliation;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The ledger as the Actuator endpoint {@code /actuator/ledger}: what was received and how each job
 * ended, and the receptions without an outcome yet (in flight, or lost), the first 100 by id.
 * Expose it with {@code management.endpoints.web.exposure.include=health,ledger}.
 */
@Endpoint(id = "ledger")
public class LedgerEndpoint {

    private static final int IDS = 100;

    private final Ledger ledger;

    public LedgerEndpoint(Ledger ledger) {
        this.ledger = ledger;
    }

    @ReadOperation
    public Map<String, Object> ledger() {
        Reconciliation r = ledger.reconcile();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("received", r.received());
        out.put("processed", r.processed());
        out.put("rejected", r.rejected());
        out.put("failed", r.failed());
        out.put("handedBack", r.handedBack());
        out.put("missing", r.missing());
        out.put("missingIds", r.missingIds().subList(0, Math.min(IDS, r.missingIds().size())));
        out.put("summary", r.summaryLine());
        return out;
    }
}
