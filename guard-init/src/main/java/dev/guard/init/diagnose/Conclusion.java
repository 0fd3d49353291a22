package dev.guard.init.diagnose;

import dev.guard.config.Redaction;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** What the rules concluded about one group: its causes with a reason each, evidence, notes. */
final class Conclusion {
    static final int EVIDENCE = 14;

    final Set<Cause> causes = EnumSet.noneOf(Cause.class);
    final List<String> reasons = new ArrayList<>();
    final List<Evidence> evidence = new ArrayList<>();
    final List<HostErrors> hosts = new ArrayList<>();
    final List<String> notes = new ArrayList<>();
    JobCounts jobs = JobCounts.NONE;

    void add(Cause c, String reason) {
        causes.add(c);
        reasons.add(c.id() + ": " + reason);
    }

    void evidence(Evidence e) {
        if (evidence.size() < EVIDENCE && evidence.stream().noneMatch(x -> x.at().equals(e.at()))) {
            evidence.add(e);
        }
    }

    void evidence(Signal s, String why) {
        evidence(ev(s, why));
    }

    static Evidence ev(Signal s, String why) {
        return new Evidence(s.line().where(), why, Redaction.maskText(s.line().text().strip()));
    }
}
