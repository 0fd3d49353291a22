package dev.guard.init.diagnose;

import dev.guard.config.Redaction;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The runbook as code. Per worker type: which host each connection error names (loopback or not
 * an endpoint: drift; the service: race or down), whether the errors stop (the worker got through
 * afterwards, gave up before the dependency's "Ready to accept connections", or its pod runs again
 * with restarts), whether Redis answered LOADING, whether a dependency was killed (two "Redis is
 * starting" without a ready between, OOMKilled, 137, probe failures), then received versus
 * processed.
 */
final class Rules {
    private static final int CHAIN_WINDOW = 12;
    private static final int EVIDENCE_PER_GROUP = 14;
    private static final Pattern DEPENDENCY_NAME =
            Pattern.compile("(?i).*(redis|valkey|keydb|rabbit|amqp|nats|kafka|broker|zookeeper|sentinel).*");
    private static final Pattern WORKER_NAME = Pattern.compile("(?i).*(worker|consumer|processor).*");
    private static final Set<Signal.Type> SUCCESS = EnumSet.of(Signal.Type.READY, Signal.Type.JOB_RECEIVED,
            Signal.Type.JOB_PROCESSED, Signal.Type.LEDGER);

    private Rules() {}

    /** A signal with its place in the group's timeline. */
    private record Placed(Signal s, int order) {}

    private static final class Group {
        final String name;
        final List<Placed> signals = new ArrayList<>();
        final Set<LogKind> kinds = EnumSet.noneOf(LogKind.class);
        boolean hasAppText;
        String role;

        Group(String name) {
            this.name = name;
        }

        List<Signal> of(Signal.Type... types) {
            Set<Signal.Type> ts = EnumSet.noneOf(Signal.Type.class);
            ts.addAll(List.of(types));
            List<Signal> out = new ArrayList<>();
            for (Placed p : signals) {
                if (ts.contains(p.s.type())) {
                    out.add(p.s);
                }
            }
            return out;
        }
    }

    static Diagnosis decide(List<Source> sources, Endpoints endpoints) {
        List<String> notes = new ArrayList<>();
        List<FileSummary> files = new ArrayList<>();
        Map<String, Group> groups = new LinkedHashMap<>();
        // previous captures first, so a timeline reads old container, then new
        List<Source> ordered = new ArrayList<>(sources);
        ordered.sort(Comparator.comparing(s -> !s.previous()));
        int order = 0;
        for (Source src : ordered) {
            int stamped = (int) src.lines().stream().filter(l -> l.time() != null).count();
            files.add(new FileSummary(src.file(), src.service(), src.kind().label(), src.lines().size(), stamped));
            List<LineParser> parsers = parsersFor(src.kind());
            List<Signal> raw = new ArrayList<>();
            for (LogLine line : src.lines()) {
                for (LineParser p : parsers) {
                    List<Signal> found = p.parse(line);
                    if (!found.isEmpty()) {
                        raw.addAll(found);
                        break;
                    }
                }
            }
            raw = unchain(raw);
            for (LogLine line : src.lines()) {
                // make sure every group that has text exists, even when none of its lines said anything
                Group g = groups.computeIfAbsent(groupName(line.service() != null ? line.service() : src.file()), Group::new);
                g.kinds.add(src.kind());
                if (src.kind() == LogKind.APPLICATION && !line.text().isBlank()) {
                    g.hasAppText = true;
                }
            }
            for (Signal s : raw) {
                String name = groupName(s.line().service() != null ? s.line().service() : src.file());
                groups.computeIfAbsent(name, Group::new).signals.add(new Placed(s, order++));
            }
        }
        // roles
        for (Group g : groups.values()) {
            boolean server = g.kinds.contains(LogKind.REDIS_SERVER) || g.kinds.contains(LogKind.BROKER_SERVER);
            boolean depName = DEPENDENCY_NAME.matcher(g.name).matches() && !WORKER_NAME.matcher(g.name).matches();
            boolean jobs = !g.of(Signal.Type.JOB_RECEIVED, Signal.Type.JOB_PROCESSED, Signal.Type.LEDGER).isEmpty();
            if (server || depName && !jobs) {
                g.role = "dependency";
            } else if (WORKER_NAME.matcher(g.name).matches() || jobs) {
                g.role = "worker";
            } else {
                g.role = "application";
            }
        }
        boolean anyWorker = groups.values().stream().anyMatch(g -> g.role.equals("worker"));
        if (!anyWorker) {
            for (Group g : groups.values()) {
                if (g.role.equals("application") && g.hasAppText
                        && !g.name.toLowerCase(Locale.ROOT).matches(".*(backend|producer|api|web|frontend|enqueue).*")) {
                    g.role = "worker";
                }
            }
        }
        boolean givenEndpoints = !endpoints.isEmpty();
        for (Group g : groups.values()) {
            if (g.role.equals("dependency")) {
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
        // sort each group's timeline by time when every timed line has one
        for (Group g : groups.values()) {
            boolean allTimed = g.signals.stream().allMatch(p -> p.s.line().time() != null);
            if (allTimed) {
                g.signals.sort(Comparator.comparing((Placed p) -> p.s.line().time()).thenComparingInt(p -> p.order));
            }
        }

        // dependencies: killed? ready when?
        List<Evidence> depKillEvidence = new ArrayList<>();
        boolean depKilledMidLoad = false;
        Instant depReady = null;
        for (Group g : groups.values()) {
            if (!g.role.equals("dependency")) {
                continue;
            }
            Signal lastStart = null;
            boolean loading = false;
            for (Placed p : g.signals) {
                Signal s = p.s;
                switch (s.type()) {
                    case SERVER_STARTING -> {
                        if (lastStart != null) {
                            depKilledMidLoad = true;
                            depKillEvidence.add(ev(lastStart, g.name + " started here ..."));
                            depKillEvidence.add(ev(s, "... and started again with no 'Ready to accept connections' between: killed mid-load"));
                        }
                        lastStart = s;
                        loading = false;
                    }
                    case SERVER_READY -> {
                        lastStart = null;
                        loading = false;
                        if (s.line().time() != null && (depReady == null || s.line().time().isAfter(depReady))) {
                            depReady = s.line().time();
                        }
                    }
                    case SERVER_LOADING -> loading = true;
                    case SERVER_LOADED -> loading = false;
                    case SERVER_SHUTDOWN_DURING_LOADING -> {
                        depKilledMidLoad = true;
                        depKillEvidence.add(ev(s, g.name + " was stopped while loading its dataset"));
                    }
                    case SERVER_SIGTERM -> {
                        if (loading) {
                            depKilledMidLoad = true;
                            depKillEvidence.add(ev(s, g.name + " got SIGTERM while loading its dataset"));
                        }
                    }
                    case OOM_KILLED -> depKillEvidence.add(ev(s, g.name + " was OOMKilled: it needs more memory"));
                    case EXIT_137 -> depKillEvidence.add(ev(s, g.name + " was killed (exit 137, SIGKILL)"));
                    case PROBE_KILL -> depKillEvidence.add(ev(s, g.name + " failed a probe that restarts it"));
                    default -> { }
                }
            }
        }
        boolean depKilled = !depKillEvidence.isEmpty();

        List<Signal> enqueued = new ArrayList<>();
        for (Group g : groups.values()) {
            enqueued.addAll(g.of(Signal.Type.ENQUEUED));
        }
        List<GroupFinding> findings = new ArrayList<>();
        List<HostErrors> hostErrors = new ArrayList<>();
        Map<Cause, Set<String>> causeGroups = new LinkedHashMap<>();
        JobCounts total = JobCounts.NONE;
        for (Group g : groups.values()) {
            if (g.role.equals("dependency")) {
                if (!g.signals.isEmpty()) {
                    List<String> cs = new ArrayList<>();
                    List<String> reasons = new ArrayList<>();
                    List<Evidence> evs = new ArrayList<>();
                    for (Evidence e : depKillEvidence) {
                        if (e.why().startsWith(g.name + " ") || e.why().startsWith("...")) {
                            evs.add(e);
                        }
                    }
                    if (!evs.isEmpty()) {
                        cs.add(Cause.OOM_OR_PROBE_KILL.id());
                        reasons.add(g.name + " was killed or restarted mid-load");
                        causeGroups.computeIfAbsent(Cause.OOM_OR_PROBE_KILL, k -> new TreeSet<>()).add(g.name);
                    }
                    for (Placed p : g.signals) {
                        if (p.s.type() == Signal.Type.SERVER_READY || p.s.type() == Signal.Type.SERVER_STARTING
                                || p.s.type() == Signal.Type.SERVER_LOADED) {
                            if (evs.size() < EVIDENCE_PER_GROUP
                                    && evs.stream().noneMatch(x -> x.at().equals(p.s.line().where()))) {
                                evs.add(ev(p.s, switch (p.s.type()) {
                                    case SERVER_READY -> "ready";
                                    case SERVER_STARTING -> "starting";
                                    default -> "dataset loaded";
                                }));
                            }
                        }
                    }
                    findings.add(new GroupFinding(g.name, g.role, cs, reasons, JobCounts.NONE, evs));
                }
                continue;
            }
            GroupAnalysis a = analyse(g, endpoints, depReady, depKilled, depKilledMidLoad, depKillEvidence, enqueued);
            hostErrors.addAll(a.hosts);
            for (Cause c : a.causes) {
                causeGroups.computeIfAbsent(c, k -> new TreeSet<>()).add(g.name);
            }
            if (g.role.equals("worker")) {
                total = total.plus(a.jobs);
            }
            if (!a.causes.isEmpty() || !a.evidence.isEmpty() || g.role.equals("worker")) {
                List<String> ids = a.causes.stream().map(Cause::id).toList();
                findings.add(new GroupFinding(g.name, g.role, ids, a.reasons, a.jobs, a.evidence));
            }
            notes.addAll(a.notes);
        }
        // fix order; healthy and unknown only alone
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
        List<String> causes = new ArrayList<>();
        List<Diagnosis.NextStep> next = new ArrayList<>();
        for (Cause c : all) {
            causes.add(c.id());
            next.add(new Diagnosis.NextStep(c.id(), c.stage().label(),
                    List.copyOf(causeGroups.getOrDefault(c, Set.of())), c.next()));
        }
        return new Diagnosis(causes, findings, hostErrors, total, files, endpoints.describe(), next, notes);
    }

    private static final class GroupAnalysis {
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
            if (evidence.size() < EVIDENCE_PER_GROUP && evidence.stream().noneMatch(x -> x.at().equals(e.at()))) {
                evidence.add(e);
            }
        }
    }

    private static GroupAnalysis analyse(Group g, Endpoints endpoints, Instant depReady, boolean depKilled,
            boolean depKilledMidLoad, List<Evidence> depKillEvidence, List<Signal> enqueued) {
        GroupAnalysis a = new GroupAnalysis();
        List<Placed> timeline = g.signals;
        // the URL the worker resolved at boot names the host for errors that name none
        Signal boot = null;
        for (Placed p : timeline) {
            if (p.s.type() == Signal.Type.BOOT_TARGET) {
                boot = p.s;
                break;
            }
        }
        // connection errors by category
        Map<String, List<Placed>> byCategory = new LinkedHashMap<>();
        Map<String, List<Placed>> byTarget = new LinkedHashMap<>();
        Map<String, String> targetCategory = new LinkedHashMap<>();
        Signal lastBoot = null;
        for (Placed p : timeline) {
            Signal s = p.s;
            if (s.type() == Signal.Type.BOOT_TARGET) {
                lastBoot = s;
            }
            if (!s.type().connectionError()) {
                continue;
            }
            String host = s.host();
            int port = s.port();
            boolean fromBoot = false;
            // the nearest URL logged before the error (the attempt's own "connecting to" line), else the first
            Signal named = lastBoot != null ? lastBoot : boot;
            if (host == null && named != null && s.type() != Signal.Type.LOADING && s.type() != Signal.Type.AUTH) {
                host = named.host();
                port = named.port();
                fromBoot = true;
            }
            String category;
            if (s.type() == Signal.Type.LOADING) {
                category = "loading";
            } else if (s.type() == Signal.Type.AUTH) {
                category = "auth";
            } else if (host == null) {
                category = s.type() == Signal.Type.TIMEOUT ? "timeout" : "no-host";
            } else if (Hosts.isLoopback(host)) {
                category = "loopback";
            } else if (!endpoints.isEmpty() && !endpoints.matches(host, port)) {
                category = Hosts.isIpLiteral(host) ? "unverified" : "not-an-endpoint";
            } else if (s.type() == Signal.Type.TIMEOUT) {
                category = "timeout";
            } else {
                category = endpoints.isEmpty() || Hosts.isIpLiteral(host) && !endpoints.matches(host, port)
                        ? "unverified" : "service";
            }
            String target = switch (category) {
                case "loading" -> "LOADING";
                case "auth" -> "(auth refused)";
                default -> host == null ? "(no host)" : (port > 0 ? Hosts.withPort(host, port) : host)
                        + (fromBoot ? " (from boot line)" : "");
            };
            byCategory.computeIfAbsent(category, k -> new ArrayList<>()).add(p);
            byTarget.computeIfAbsent(target, k -> new ArrayList<>()).add(p);
            targetCategory.put(target, category);
        }
        if (boot != null && !byTarget.isEmpty()) {
            a.evidence(ev(boot.withDetail(null), "the URL the worker resolved at boot"));
        }
        for (Map.Entry<String, List<Placed>> e : byTarget.entrySet()) {
            List<Placed> ps = e.getValue();
            Signal first = ps.get(0).s;
            Signal last = ps.get(ps.size() - 1).s;
            a.hosts.add(new HostErrors(g.name, e.getKey(), targetCategory.get(e.getKey()), ps.size(), iso(first),
                    iso(last), first.line().where(), last.line().where(), successAfter(timeline, ps) != null));
        }

        // the platform's view of this group
        List<Signal> killed = g.of(Signal.Type.OOM_KILLED, Signal.Type.EXIT_137, Signal.Type.PROBE_KILL);
        boolean crashLoop = g.of(Signal.Type.CRASH_LOOP).stream().anyMatch(s -> "status".equals(s.detail()));
        boolean running = !g.of(Signal.Type.POD_RUNNING).isEmpty();
        boolean restarted = !g.of(Signal.Type.RESTARTS).isEmpty();
        boolean recoveredPod = running && restarted && !crashLoop;

        // drift: loopback, not an endpoint, refused credentials, config guard violations
        List<Placed> drift = new ArrayList<>();
        drift.addAll(byCategory.getOrDefault("loopback", List.of()));
        drift.addAll(byCategory.getOrDefault("not-an-endpoint", List.of()));
        List<Placed> auth = byCategory.getOrDefault("auth", List.of());
        List<Signal> violations = g.of(Signal.Type.CONFIG_VIOLATION);
        if (!drift.isEmpty()) {
            Set<String> named = new TreeSet<>();
            drift.forEach(p -> named.add(p.s.target() == null ? "(boot URL)" : p.s.target()));
            String where = byCategory.containsKey("loopback") ? "a loopback/default host" : "a host that is not a known endpoint";
            a.add(Cause.ENV_DRIFT, drift.size() + " connection error lines name " + where + " (" + String.join(", ", named)
                    + ") instead of the service");
            a.evidence(ev(drift.get(0).s, "first error naming " + drift.get(0).s.target()));
            a.evidence(ev(drift.get(drift.size() - 1).s, "last error naming " + drift.get(drift.size() - 1).s.target()));
        }
        if (!auth.isEmpty()) {
            a.add(Cause.ENV_DRIFT, auth.size() + " lines: the broker refused the credentials the worker resolved "
                    + "(check the user/password variables the worker reads)");
            a.evidence(ev(auth.get(0).s, "credentials refused"));
        }
        if (!violations.isEmpty()) {
            a.add(Cause.ENV_DRIFT, "the config guard rejected " + (violations.get(0).detail() == null
                    ? "a setting" : violations.get(0).detail()));
            a.evidence(ev(violations.get(0), "config guard violation"));
        }

        // the service itself: refused / dns / unavailable, timeouts, LOADING, errors naming no host
        List<Placed> service = new ArrayList<>();
        service.addAll(byCategory.getOrDefault("service", List.of()));
        service.addAll(byCategory.getOrDefault("unverified", List.of()));
        List<Placed> timeouts = byCategory.getOrDefault("timeout", List.of());
        List<Placed> loading = byCategory.getOrDefault("loading", List.of());
        List<Placed> noHost = byCategory.getOrDefault("no-host", List.of());
        if (!service.isEmpty()) {
            String stop = stopped(timeline, service, depReady, recoveredPod, true);
            String t = service.get(0).s.target();
            a.evidence(ev(service.get(0).s, "first error naming " + t));
            a.evidence(ev(service.get(service.size() - 1).s, "last error naming " + t));
            if (stop != null) {
                a.add(Cause.STARTUP_RACE, service.size() + " error lines name the service (" + t + ") and stop: " + stop);
                addSuccessEvidence(a, timeline, service);
            } else if (depKilled) {
                a.add(Cause.OOM_OR_PROBE_KILL, "errors naming " + t + " never stop and the dependency was killed");
                depKillEvidence.forEach(a::evidence);
            } else {
                a.add(Cause.DEPENDENCY_DOWN, service.size() + " error lines name the service (" + t
                        + ") and never stop" + (crashLoop ? "; the pod is in CrashLoopBackOff" : ""));
            }
        }
        if (!timeouts.isEmpty()) {
            String stop = stopped(timeline, timeouts, depReady, recoveredPod, true);
            a.evidence(ev(timeouts.get(0).s, "first connect timeout"));
            a.evidence(ev(timeouts.get(timeouts.size() - 1).s, "last connect timeout"));
            if (stop != null) {
                a.add(Cause.STARTUP_RACE, timeouts.size() + " connect timeouts that stop: " + stop);
                addSuccessEvidence(a, timeline, timeouts);
            } else {
                a.add(Cause.NETWORK_BLOCKED, timeouts.size() + " connect timeouts, on every attempt to the end of the log");
            }
        }
        if (!loading.isEmpty()) {
            String stop = stopped(timeline, loading, null, false, false);
            a.evidence(ev(loading.get(0).s, "first LOADING reply"));
            a.evidence(ev(loading.get(loading.size() - 1).s, "last LOADING reply"));
            if (stop != null) {
                a.add(Cause.STARTUP_RACE, loading.size() + " LOADING replies in the first attempts only: " + stop);
                addSuccessEvidence(a, timeline, loading);
            } else if (depKilledMidLoad || depKilled) {
                a.add(Cause.OOM_OR_PROBE_KILL, "LOADING on every attempt, and Redis was killed or restarted mid-load");
                depKillEvidence.forEach(a::evidence);
            } else {
                a.add(Cause.REDIS_LOADING, loading.size() + " LOADING replies, on every attempt to the end of the log");
            }
        }
        if (!noHost.isEmpty()) {
            String stop = stopped(timeline, noHost, depReady, recoveredPod, true);
            a.evidence(ev(noHost.get(0).s, "first connection error (names no host)"));
            a.evidence(ev(noHost.get(noHost.size() - 1).s, "last connection error (names no host)"));
            if (stop != null) {
                a.add(Cause.STARTUP_RACE, noHost.size() + " connection errors naming no host, and they stop: " + stop);
                addSuccessEvidence(a, timeline, noHost);
            } else if (depKilled) {
                a.add(Cause.OOM_OR_PROBE_KILL, "connection errors never stop and the dependency was killed");
                depKillEvidence.forEach(a::evidence);
            } else {
                a.add(Cause.UNKNOWN, noHost.size() + " connection errors that never stop but name no host (e.g. 'nats: "
                        + "no servers available', 'Connection refused'): drift, down and blocked look the same; "
                        + "log the URL the worker resolved at boot and capture it");
            }
        }
        // the worker itself killed
        if (!killed.isEmpty() && !g.role.equals("dependency")) {
            Signal k = killed.get(0);
            a.add(Cause.OOM_OR_PROBE_KILL, g.name + " was killed: " + Redaction.maskText(k.line().text().trim()));
            a.evidence(ev(k, "the container was killed"));
        }
        // file writes
        List<Signal> denied = g.of(Signal.Type.PERMISSION);
        if (!denied.isEmpty()) {
            a.add(Cause.PERMISSION, denied.size() + " permission errors"
                    + (denied.get(0).detail() != null ? ", first on " + denied.get(0).detail() : ""));
            a.evidence(ev(denied.get(0), "write denied"));
        }
        // the contract: received versus processed
        if (g.role.equals("worker")) {
            List<Signal> received = g.of(Signal.Type.JOB_RECEIVED);
            List<Signal> processed = g.of(Signal.Type.JOB_PROCESSED);
            List<Signal> ledgers = g.of(Signal.Type.LEDGER);
            if (!received.isEmpty() || !processed.isEmpty()) {
                a.jobs = new JobCounts(received.size(), processed.size(), 0, 0, 0, 0, "per-job lines");
                if (!received.isEmpty()) {
                    a.evidence(ev(received.get(0), "first 'job <id> received' of " + received.size()));
                }
                if (!processed.isEmpty()) {
                    a.evidence(ev(processed.get(0), "first 'job <id> processed' of " + processed.size()));
                }
            } else if (!ledgers.isEmpty()) {
                Signal l = ledgers.get(ledgers.size() - 1);
                String d = l.detail();
                a.jobs = new JobCounts(GuardLineParser.ledgerValue(d, "received"), GuardLineParser.ledgerValue(d, "processed"),
                        GuardLineParser.ledgerValue(d, "rejected"), GuardLineParser.ledgerValue(d, "failed"),
                        GuardLineParser.ledgerValue(d, "handed_back"), GuardLineParser.ledgerValue(d, "missing"), "ledger");
                a.evidence(ev(l, "ledger summary"));
            }
            boolean connectionCause = !byCategory.isEmpty();
            int gap = a.jobs.received() - a.jobs.processed() - a.jobs.handedBack();
            if (a.jobs.received() == 0 && a.jobs.processed() == 0 && !connectionCause && g.hasAppText
                    && a.causes.isEmpty()) {
                a.add(Cause.NO_JOBS, "no connection errors and no job received");
                if (boot != null) {
                    a.evidence(ev(boot.withDetail(null), "the URL the worker resolved at boot: is it the queue the backend fills?"));
                }
                Signal firstLine = null;
                for (Placed p : timeline) {
                    firstLine = p.s;
                    break;
                }
                for (Signal e : enqueued) {
                    String when = "";
                    if (e.line().time() != null && firstLine != null && firstLine.line().time() != null) {
                        when = e.line().time().isBefore(firstLine.line().time())
                                ? " (before the worker's first line)" : " (after the worker's first line)";
                    }
                    a.evidence(ev(e, "the backend enqueued" + when + ": check it used the queue/URL the worker reads"));
                }
            } else if (gap > 0) {
                int explained = a.jobs.failed();
                long otherErrors = g.of(Signal.Type.OTHER_ERROR).size();
                if (a.jobs.source().equals("ledger")) {
                    if (a.jobs.rejected() + a.jobs.missing() > 0 || gap > explained) {
                        a.add(Cause.SCHEMA_SKEW, "ledger: received " + a.jobs.received() + ", processed " + a.jobs.processed()
                                + ", rejected " + a.jobs.rejected() + ", missing " + a.jobs.missing());
                    } else {
                        a.notes.add(g.name + ": received " + a.jobs.received() + " > processed " + a.jobs.processed()
                                + ", accounted for by failed=" + a.jobs.failed() + ": read those errors");
                        if (a.causes.isEmpty()) {
                            a.add(Cause.UNKNOWN, "the ledger's failed jobs account for the gap: read their errors");
                        }
                    }
                } else if (!denied.isEmpty()) {
                    a.notes.add(g.name + ": received > processed; the permission errors may account for the gap");
                } else if (otherErrors >= gap) {
                    a.notes.add(g.name + ": received " + a.jobs.received() + " > processed " + a.jobs.processed() + ", and "
                            + otherErrors + " error lines may account for the gap: read them");
                    if (a.causes.isEmpty()) {
                        a.add(Cause.UNKNOWN, "received > processed, but logged errors may account for the gap");
                        g.of(Signal.Type.OTHER_ERROR).stream().limit(3).forEach(s -> a.evidence(ev(s, "error line")));
                    }
                } else {
                    a.add(Cause.SCHEMA_SKEW, "received " + a.jobs.received() + " > processed " + a.jobs.processed()
                            + " with " + (otherErrors == 0 ? "no" : "only " + otherErrors) + " error lines to account for "
                            + gap + " missing");
                }
            } else if (a.causes.isEmpty() && a.jobs.received() > 0) {
                a.add(Cause.HEALTHY, "received " + a.jobs.received() + ", processed " + a.jobs.processed()
                        + ", no connection errors");
            }
            if (g.of(Signal.Type.APP_FAILED_TO_START).size() > 0) {
                a.evidence(ev(g.of(Signal.Type.APP_FAILED_TO_START).get(0), "Spring Boot did not start"));
            }
            if (a.causes.isEmpty() && g.hasAppText) {
                a.add(Cause.UNKNOWN, "nothing in its log decides");
            }
        }
        boolean anyTimed = timeline.stream().anyMatch(p -> p.s.line().time() != null);
        if (!byCategory.isEmpty() && !anyTimed) {
            a.notes.add(g.name + ": no timestamps; 'stops' was judged by line order. Capture with --timestamps.");
        }
        return a;
    }

    /** Why the errors count as stopped, or null when they never stop. */
    private static String stopped(List<Placed> timeline, List<Placed> errors, Instant depReady, boolean recoveredPod,
            boolean useDependencyReady) {
        Placed after = successAfter(timeline, errors);
        if (after != null) {
            return "then " + describe(after.s) + " at " + after.s.line().where();
        }
        Instant lastErr = null;
        boolean allTimed = true;
        for (Placed p : errors) {
            Instant t = p.s.line().time();
            if (t == null) {
                allTimed = false;
            } else if (lastErr == null || t.isAfter(lastErr)) {
                lastErr = t;
            }
        }
        if (useDependencyReady && depReady != null && allTimed && lastErr != null && !lastErr.isAfter(depReady)) {
            return "the last error (" + lastErr + ") is before the dependency's 'Ready to accept connections' ("
                    + depReady + "): the worker gave up before it was ready";
        }
        if (useDependencyReady && recoveredPod) {
            return "the pod is Running again after restarts (not CrashLoopBackOff)";
        }
        return null;
    }

    private static Placed successAfter(List<Placed> timeline, List<Placed> errors) {
        Set<Placed> errs = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        errs.addAll(errors);
        int lastIndex = -1;
        for (int i = 0; i < timeline.size(); i++) {
            if (errs.contains(timeline.get(i))) {
                lastIndex = i;
            }
        }
        for (int i = lastIndex + 1; i < timeline.size(); i++) {
            if (SUCCESS.contains(timeline.get(i).s.type())) {
                return timeline.get(i);
            }
        }
        return null;
    }

    private static void addSuccessEvidence(GroupAnalysis a, List<Placed> timeline, List<Placed> errors) {
        Placed after = successAfter(timeline, errors);
        if (after != null) {
            a.evidence(ev(after.s, "first success after the errors: " + describe(after.s)));
        }
    }

    private static String describe(Signal s) {
        return switch (s.type()) {
            case READY -> "ready (" + s.target() + ")";
            case JOB_RECEIVED -> "a job received";
            case JOB_PROCESSED -> "a job processed";
            case LEDGER -> "a ledger summary";
            default -> s.type().name();
        };
    }

    private static Evidence ev(Signal s, String why) {
        return new Evidence(s.line().where(), why, Redaction.maskText(s.line().text().strip()));
    }

    private static String iso(Signal s) {
        return s.line().time() == null ? null : s.line().time().toString();
    }

    /**
     * Marks errors that name no host and sit within a few lines of one that does (the "Caused by:"
     * and traceback lines of the same attempt) as part of it, so they are not counted twice.
     */
    static List<Signal> unchain(List<Signal> raw) {
        Map<String, java.util.TreeSet<Integer>> named = new java.util.HashMap<>();
        for (Signal o : raw) {
            if (o.type().connectionError() && o.host() != null) {
                named.computeIfAbsent(o.line().file() + "\u0000" + o.line().service(), k -> new java.util.TreeSet<>())
                        .add(o.line().number());
            }
        }
        List<Signal> out = new ArrayList<>(raw.size());
        for (Signal s : raw) {
            if (s.type().connectionError() && s.host() == null && s.type() != Signal.Type.LOADING
                    && s.type() != Signal.Type.AUTH) {
                java.util.TreeSet<Integer> near = named.get(s.line().file() + "\u0000" + s.line().service());
                int n = s.line().number();
                if (near != null && !near.subSet(n - CHAIN_WINDOW, true, n + CHAIN_WINDOW, true).isEmpty()) {
                    continue;
                }
            }
            out.add(s);
        }
        return out;
    }

    private static List<LineParser> parsersFor(LogKind kind) {
        return switch (kind) {
            case APPLICATION -> List.of(new GuardLineParser(), new RedisClientParser(), new BrokerClientParser(),
                    new ApplicationLineParser());
            case REDIS_SERVER, BROKER_SERVER -> List.of(new ServerLogParser());
            case KUBECTL_GET_POD, KUBECTL_DESCRIBE, KUBECTL_EVENTS, COMPOSE_PS -> List.of(new PlatformParser());
            case EMPTY -> List.of();
        };
    }

    /** worker-previous.log -> worker; worker-7c9d8f5b6-x2k4m -> worker; redis-0 -> redis; worker-a-1 -> worker-a. */
    private static final Map<String, String> GROUP_NAMES = new java.util.concurrent.ConcurrentHashMap<>();

    static String groupName(String raw) {
        return GROUP_NAMES.computeIfAbsent(raw, Rules::computeGroupName);
    }

    private static String computeGroupName(String raw) {
        String n = Path.of(raw).getFileName().toString();
        n = n.replaceAll("(?i)\\.(log|txt|out|json)$", "");
        n = n.replaceAll("(?i)([-_.](previous|prev|current|describe|pod|pods|status|events|ps|logs?))+$", "");
        n = n.replaceAll("-[a-z0-9]{8,10}-[a-z0-9]{5}$", "");
        n = n.replaceAll("[-_]\\d+$", "");
        return n.isEmpty() ? raw : n;
    }
}
