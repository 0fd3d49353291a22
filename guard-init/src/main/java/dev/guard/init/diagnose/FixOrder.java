package dev.guard.init.diagnose;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The causes of all groups in the runbook's order (connectivity, then config, then contract:
 * {@link Cause}'s declaration order), healthy and unknown only when nothing else was found, and one
 * next step per cause.
 */
final class FixOrder {
    final List<String> causes = new ArrayList<>();
    final List<Diagnosis.NextStep> next = new ArrayList<>();

    FixOrder(Map<Cause, Set<String>> causeGroups, List<String> notes) {
        Set<Cause> all = EnumSet.noneOf(Cause.class);
        all.addAll(causeGroups.keySet());
        if (all.size() > 1) {
            all.remove(Cause.HEALTHY);
        }
        if (all.size() > 1 && all.contains(Cause.UNKNOWN)) {
            all.remove(Cause.UNKNOWN);
            notes.add("some groups stayed undecided (see 'unknown' under them)");
        }
        if (all.isEmpty()) {
            all.add(Cause.UNKNOWN);
            notes.add("no worker log with anything to judge: capture the worker's log (kubectl logs / docker compose logs)");
        }
        for (Cause c : all) {
            causes.add(c.id());
            next.add(new Diagnosis.NextStep(c.id(), c.stage().label(),
                    List.copyOf(causeGroups.getOrDefault(c, Set.of())), c.next()));
        }
    }
}
