package dev.guard.init.diagnose;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the lines of every captured file go, one {@link Scan} per file part (a whole file, or one
 * compose service / kubectl prefix of it): each line is parsed by the parsers of the part's kind,
 * its signals pass the {@link ChainWindow}, and land in their {@link Group}. Nothing keeps a line
 * once its signals are taken.
 */
final class Intake {
    /** Job ids a log may leave outstanding before diagnose stops tracking which are in flight. */
    static final int OUTSTANDING_LIMIT = 20_000;
    /** Received jobs kept whole, for the evidence of one left in flight (those are the last ones). */
    static final int RECENT_RECEIVED = 64;
    /** Characters of a line kept with its signal: enough to print as evidence. */
    static final int KEPT_TEXT = 1_000;
    private static final Pattern DESCRIBE_NAME = Pattern.compile("^Name:\\s+(\\S+)");
    private static final Pattern EVENT_OBJECT = Pattern.compile("\\s(?:pod|Pod)/(\\S+)\\s");

    private static final long[] RETRY_WORDS = Words.mask(Word.RETRY, Word.RETRYING, Word.TRYING_AGAIN, Word.RECONNECT);
    private static final long[] TOPOLOGY_WORDS = Words.mask(Word.SENTINEL, Word.CLUSTER);
    private final Map<String, Group> groups = new LinkedHashMap<>();
    private final Map<String, String> groupNames = new HashMap<>();
    private final List<FileSummary> files = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private long seq;

    Scan scan(String file, String service, LogKind kind, boolean previous) {
        return new Scan(file, service, kind, previous);
    }

    Map<String, Group> groups() {
        return groups;
    }

    List<FileSummary> files() {
        return files;
    }

    List<String> notes() {
        return notes;
    }

    void note(String n) {
        notes.add(n);
    }

    Group group(String raw) {
        String name = groupNames.computeIfAbsent(raw, Intake::groupName);
        return groups.computeIfAbsent(name, Group::new);
    }

    /** worker-previous.log -> worker; worker-7c9d8f5b6-x2k4m -> worker; redis-0 -> redis; worker-a-1 -> worker-a. */
    static String groupName(String raw) {
        String n = Path.of(raw).getFileName().toString();
        n = n.replaceAll("(?i)\\.(log|txt|out|json)$", "");
        n = n.replaceAll("(?i)([-_.](previous|prev|current|describe|pod|pods|status|events|ps|logs?))+$", "");
        n = n.replaceAll("-[a-z0-9]{8,10}-[a-z0-9]{5}$", "");
        n = n.replaceAll("[-_]\\d+$", "");
        return n.isEmpty() ? raw : n;
    }

    /** Sentinel or Cluster named as such, not in a Kubernetes service name ({@code redis.jobs.svc.cluster.local}). */
    private static boolean namesTopology(String text) {
        String t = text.toLowerCase(java.util.Locale.ROOT).replace("cluster.local", "");
        return t.contains("sentinel") || t.contains("cluster");
    }

    private static LineParser[] parsersFor(LogKind kind) {
        return switch (kind) {
            case APPLICATION -> new LineParser[] {new ApplicationLineParser.Jobs(), new GuardLineParser(), new RedisClientParser(),
                    new BrokerClientParser(), new ConnectionShape(), new ApplicationLineParser()};
            case REDIS_SERVER, BROKER_SERVER -> new LineParser[] {new ServerLogParser()};
            case KUBECTL_GET_POD, KUBECTL_DESCRIBE, KUBECTL_EVENTS, COMPOSE_PS -> new LineParser[] {new PlatformParser()};
            case EMPTY -> new LineParser[0];
        };
    }

    /** One file part being read. */
    final class Scan {
        private final String file;
        private final String service;
        private final LogKind kind;
        private final boolean previous;
        private final LineParser[] parsers;
        private final ChainWindow window = new ChainWindow(this::commit);
        private final LineKinds lineKinds = new LineKinds();
        private final Group own;
        /** job id -> seq of its received line, for jobs not processed yet. */
        private final HashMap<String, Long> outstanding = new HashMap<>();
        private final java.util.ArrayDeque<Placed> recentReceived = new java.util.ArrayDeque<>();
        private boolean outstandingOverflow;
        private long lastDoneReceived = -1;
        private Signal lastBoot;
        private int lines;
        private int frames;
        /** The last line with a time, read at the end: how long the log went on. */
        private Stamps.Stamp lastStamp;
        private String lastStamped;
        private int stamped;
        // status rows: the pod or service a row is about
        private String describing;
        private int serviceColumn = -1;

        private Scan(String file, String service, LogKind kind, boolean previous) {
            this.file = file;
            this.service = service;
            this.kind = kind;
            this.previous = previous;
            this.parsers = parsersFor(kind);
            this.own = group(service != null ? service : file);
        }

        /**
         * One line, its compose/kubectl prefix taken off; {@code stamp} is its RFC 3339 prefix or null,
         * {@code words} the {@link Words} of {@code text}, or null when they were not looked for yet,
         * {@code told} its {@link LineKind} as read by the reading thread in this part's order, or
         * null to tell it here.
         */
        void line(int number, Stamps.Stamp stamp, String text, Words.Found words, LineKind told) {
            lines++;
            if (isFrame(text)) {
                frames++;
            }
            if (stamp != null || Stamps.looksStamped(text)) {
                stamped++;
                lastStamp = stamp;
                lastStamped = text;
            }
            String svc = rowService(text);
            Group g = svc == null ? own : group(svc);
            g.kinds.add(kind);
            boolean blank = text.isBlank();
            if (kind == LogKind.APPLICATION && !blank) {
                g.hasAppText = true;
            }
            LineKind lineKind = kind != LogKind.APPLICATION ? LineKind.EVENT : told != null ? told : lineKinds.of(text);
            if (lineKind != LineKind.EVENT) {
                // a frame, quoted code or a setting: its words say where or what, not what happened;
                // a frame still says which client ran (io.lettuce.core.cluster.RedisClusterClient.connect)
                if (lineKind == LineKind.FRAME && g.topologyHint == null && namesTopology(text)) {
                    topologyHint(g, number, svc, stamp, text);
                }
                return;
            }
            if (parsers.length == 0 || blank) {
                return;
            }
            // a JSON line (pino, bunyan, kafkajs, structlog) is read as its level, fields, error and message,
            // without the error's stack: its frames are not events either
            String read = kind == LogKind.APPLICATION && text.charAt(0) == '{' ? LineKinds.flatten(text) : text;
            if (read != text) {
                words = null; // the flattened text's words, if they are needed
            }
            LogLine line = null; // made when a parser reads the line: most lines of a large capture reach none
            java.time.Instant time = null;
            boolean timeRead = false;
            boolean wordsRead = false;
            for (LineParser p : parsers) {
                boolean jobs = p instanceof ApplicationLineParser.Jobs;
                if (jobs && !ApplicationLineParser.Jobs.mayBe(read)) {
                    continue;
                }
                if (!wordsRead && kind == LogKind.APPLICATION && !jobs) {
                    wordsRead = true;
                    if (words == null) {
                        words = Words.in(read);
                    }
                    if (words.none()) {
                        return;
                    }
                    if (g.topologyHint == null && words.any(TOPOLOGY_WORDS) && namesTopology(read)) {
                        topologyHint(g, number, svc, stamp, text);
                    }
                    if (words.any(RETRY_WORDS)) {
                        // the same line may also hold the error: read the wait beside the parsers
                        time = Stamps.time(stamp, text);
                        timeRead = true;
                        g.retries.read(read, time);
                    }
                }
                if (line == null) {
                    line = new LogLine(file, number, svc == null ? service : svc, null, read);
                }
                List<Signal> found = p.parse(line, words);
                if (!found.isEmpty()) {
                    String kept = text.length() <= KEPT_TEXT ? text : text.substring(0, KEPT_TEXT) + " [...]";
                    LogLine timed = new LogLine(file, number, line.service(), timeRead ? time : Stamps.time(stamp, text), kept);
                    for (int i = 0; i < found.size(); i++) {
                        window.add(found.get(i).withLine(timed), g, number - frames);
                    }
                    return;
                }
            }
        }

        /** The client speaks to a Sentinel or a Cluster: addresses may come from the topology. */
        private void topologyHint(Group g, int number, String svc, Stamps.Stamp stamp, String text) {
            g.topologyHint = new LogLine(file, number, svc == null ? service : svc, Stamps.time(stamp, text),
                    text.length() <= KEPT_TEXT ? text : text.substring(0, KEPT_TEXT) + " [...]");
        }

        void end() {
            window.flush();
            java.time.Instant last = lastStamped == null ? null : Stamps.time(lastStamp, lastStamped);
            if (last != null && (own.lastLineTime == null || last.isAfter(own.lastLineTime))) {
                own.lastLineTime = last;
            }
            if (!outstandingOverflow) {
                int count = 0;
                long firstSeq = Long.MAX_VALUE;
                for (long seqOf : outstanding.values()) {
                    if (seqOf > lastDoneReceived) {
                        count++;
                        firstSeq = Math.min(firstSeq, seqOf);
                    }
                }
                Placed first = null;
                for (Placed p : recentReceived) {
                    if (p.seq() >= firstSeq && outstanding.containsKey(p.s().detail())) {
                        first = p;
                        break;
                    }
                }
                if (count > 0 && first == null) {
                    first = recentReceived.peekLast();
                }
                own.inFlight(new Group.InFlight(previous, count, first));
            }
            files.add(new FileSummary(file, service, kind.label(), lines, stamped));
        }

        private void commit(Signal s, Group g) {
            ErrorKey key = null;
            if (s.type() == Signal.Type.BOOT_TARGET) {
                lastBoot = s;
            } else if (s.type().connectionError()) {
                boolean borrow = s.host() == null && lastBoot != null && s.type() != Signal.Type.LOADING
                        && s.type() != Signal.Type.AUTH && s.type() != Signal.Type.READONLY;
                key = borrow ? new ErrorKey(s.type(), lastBoot.host(), lastBoot.port(), true)
                        : new ErrorKey(s.type(), s.host(), s.port(), false);
            }
            Placed p = Placed.of(s, seq++);
            if (s.type() == Signal.Type.JOB_RECEIVED && s.detail() != null) {
                if (outstanding.size() < OUTSTANDING_LIMIT) {
                    outstanding.put(s.detail(), p.seq());
                } else {
                    outstandingOverflow = true;
                }
                recentReceived.addLast(p);
                if (recentReceived.size() > RECENT_RECEIVED) {
                    recentReceived.removeFirst();
                }
            } else if (s.type() == Signal.Type.JOB_PROCESSED && s.detail() != null) {
                Long r = outstanding.remove(s.detail());
                if (r != null) {
                    lastDoneReceived = Math.max(lastDoneReceived, r);
                }
            }
            g.add(p, key);
        }

        /**
         * A stack frame or traceback line ({@code \tat ...}, {@code ... 6 more}, {@code   File "..."} and
         * the code under it): indented, and not the {@code Suppressed:} / {@code Caused by:} of a chain.
         */
        private boolean isFrame(String t) {
            if (kind != LogKind.APPLICATION || t.isEmpty() || t.charAt(0) != ' ' && t.charAt(0) != '\t') {
                return false;
            }
            String s = t.strip();
            return !s.startsWith("Suppressed:") && !s.startsWith("Caused by:");
        }

        /** The pod or service a status row is about; null for a log line. */
        private String rowService(String t) {
            switch (kind) {
                case KUBECTL_DESCRIBE -> {
                    Matcher m = DESCRIBE_NAME.matcher(t);
                    if (m.find()) {
                        describing = m.group(1);
                    }
                    return describing;
                }
                case KUBECTL_GET_POD -> {
                    return t.startsWith("NAME") || t.isBlank() ? null : t.trim().split("\\s+")[0];
                }
                case KUBECTL_EVENTS -> {
                    Matcher m = EVENT_OBJECT.matcher(" " + t + " ");
                    return m.find() ? m.group(1) : null;
                }
                case COMPOSE_PS -> {
                    if (t.startsWith("NAME")) {
                        serviceColumn = t.indexOf("SERVICE");
                        return null;
                    }
                    if (t.isBlank()) {
                        return null;
                    }
                    if (serviceColumn >= 0 && t.length() > serviceColumn) {
                        return t.substring(serviceColumn).trim().split("\\s+")[0];
                    }
                    return t.trim().split("\\s{2,}")[0];
                }
                default -> {
                    return null;
                }
            }
        }
    }
}
