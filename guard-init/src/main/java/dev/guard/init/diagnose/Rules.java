package dev.guard.init.diagnose;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The runbook as code, over what the {@link Intake} kept: each group gets a {@link Role}, the
 * dependencies' logs set the {@link Context}, then each worker or application group goes through
 * the {@link CauseRule}s in the runbook's order (which host do the errors name; do they stop; is
 * Redis loading; was something killed; received versus processed), and {@link FixOrder} puts the
 * causes of all groups in the order to fix them.
 */
final class Rules {
    private static final Pattern DEPENDENCY_NAME =
            Pattern.compile("(?i).*(redis|valkey|keydb|rabbit|amqp|nats|kafka|broker|zookeeper|sentinel).*");
    private static final Pattern WORKER_NAME = Pattern.compile("(?i).*(worker|consumer|processor).*");
    private static final Pattern PRODUCER_NAME = Pattern.compile(".*(backend|producer|api|web|frontend|enqueue).*");
    private static final List<CauseRule> RULES = List.of(new EnvDriftRule(), new ServiceRule(), new TimeoutRule(),
            new LoadingRule(), new NoHostRule(), new TopologyRule(), new KilledRule(), new PermissionRule(), new ContractRule());

    private Rules() {}

    static Diagnosis decide(Intake in, KnownEndpoints endpoints) {
        List<String> notes = new ArrayList<>(in.notes());
        Map<String, Group> groups = in.groups();
        assignRoles(groups);
        boolean givenEndpoints = !endpoints.isEmpty();
        for (Group g : groups.values()) {
            if (g.role == Role.DEPENDENCY) {
                endpoints.add(g.name, "a dependency's log or status was captured");
            }
        }
        if (endpoints.isEmpty()) {
            notes.add("no known endpoints (no --endpoint, no dependency log or status captured): a host other than "
                    + "localhost/127.0.0.1/::1/None counts as the service; pass --endpoint HOST[:PORT] to check it");
        } else if (!givenEndpoints) {
            notes.add("endpoints taken from the captured dependencies only; pass --endpoint HOST[:PORT] for the "
                    + "URLs the workers should use");
        }
        Context context = new Context(endpoints);
        for (Group g : groups.values()) {
            if (g.role == Role.DEPENDENCY) {
                DependencyRule.read(g, context);
            }
            context.enqueued.addAll(g.sample(Signal.Type.ENQUEUED));
        }

        List<GroupFinding> findings = new ArrayList<>();
        List<HostErrors> hostErrors = new ArrayList<>();
        Map<Cause, Set<String>> causeGroups = new LinkedHashMap<>();
        JobCounts total = JobCounts.NONE;
        for (Group g : groups.values()) {
            if (g.role == Role.DEPENDENCY) {
                if (g.hasSignals()) {
                    GroupFinding f = DependencyRule.finding(g, context);
                    for (String id : f.causes()) {
                        causeGroups.computeIfAbsent(Cause.ofId(id), k -> new TreeSet<>()).add(g.name);
                    }
                    findings.add(f);
                }
                continue;
            }
            Targets targets = new Targets(g, endpoints);
            Facts facts = new Facts(g, targets, context);
            Conclusion v = new Conclusion();
            if (g.firstBoot != null && !targets.isEmpty()) {
                v.evidence(g.firstBoot.s().withDetail(null), "the URL the worker resolved at boot");
            }
            for (CauseRule r : RULES) {
                r.apply(facts, v);
            }
            for (Targets.Target t : targets.all()) {
                Signal first = t.span().first(g).s();
                Signal last = t.span().last(g).s();
                v.hosts.add(new HostErrors(g.name, t.label(), t.category().label(), t.span().count, iso(first), iso(last),
                        first.line().where(), last.line().where(), facts.successAfter(t.keys()) != null));
            }
            if (!targets.isEmpty() && !g.anyTimed()) {
                v.notes.add(g.name + ": no timestamps; 'stops' was judged by line order. Capture with --timestamps.");
            }
            if (g.foldedKeys) {
                v.notes.add(g.name + ": its errors name more than " + Group.KEYS + " different targets; the rest were "
                        + "counted as naming no host");
            }
            if (g.timeline.dropped() > 0) {
                v.notes.add(g.name + ": its log alternates between errors and successes more than "
                        + (Timeline.HEAD + Timeline.TAIL) + " times; the first " + Timeline.HEAD + " and last "
                        + Timeline.TAIL + " alternations were kept (counts cover every line)");
            }
            hostErrors.addAll(v.hosts);
            for (Cause c : v.causes) {
                causeGroups.computeIfAbsent(c, k -> new TreeSet<>()).add(g.name);
            }
            if (g.role == Role.WORKER) {
                total = total.plus(v.jobs);
            }
            if (!v.causes.isEmpty() || !v.evidence.isEmpty() || g.role == Role.WORKER) {
                findings.add(new GroupFinding(g.name, g.role.label(), v.causes.stream().map(Cause::id).toList(), v.reasons,
                        v.jobs, v.evidence));
            }
            notes.addAll(v.notes);
        }
        FixOrder order = new FixOrder(causeGroups, notes);
        return new Diagnosis(order.causes, findings, hostErrors, total, in.files(), endpoints.describe(), order.next, notes);
    }

    /** Dependencies by their own log or name, workers by name or jobs; with no worker, any application that logged. */
    private static void assignRoles(Map<String, Group> groups) {
        for (Group g : groups.values()) {
            boolean server = g.kinds.contains(LogKind.REDIS_SERVER) || g.kinds.contains(LogKind.BROKER_SERVER);
            boolean depName = DEPENDENCY_NAME.matcher(g.name).matches() && !WORKER_NAME.matcher(g.name).matches();
            if (server || depName && !g.hasJobs()) {
                g.role = Role.DEPENDENCY;
            } else if (WORKER_NAME.matcher(g.name).matches() || g.hasJobs()) {
                g.role = Role.WORKER;
            } else {
                g.role = Role.APPLICATION;
            }
        }
        if (groups.values().stream().noneMatch(g -> g.role == Role.WORKER)) {
            for (Group g : groups.values()) {
                if (g.role == Role.APPLICATION && g.hasAppText
                        && !PRODUCER_NAME.matcher(g.name.toLowerCase(Locale.ROOT)).matches()) {
                    g.role = Role.WORKER;
                }
            }
        }
    }

    private static String iso(Signal s) {
        return s.line().time() == null ? null : s.line().time().toString();
    }
}
