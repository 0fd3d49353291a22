package dev.guard.init.diagnose;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Streams a captured file into an {@link Intake}: LF or CRLF, {@code docker compose logs}
 * prefixes ({@code worker-1  | }) with or without {@code --timestamps}, {@code kubectl logs
 * --prefix}, each part's kind told from its first {@link #KIND_SAMPLE} lines. The bytes are read
 * into lines on a thread of their own ({@link ReadAhead}: {@link Prefixes} there, {@link Parts} on
 * the caller's). Holds at most those samples and the batches between the threads, whatever the
 * file's size; bytes that are not UTF-8 read as U+FFFD.
 */
final class LogReader {
    /** Non-blank lines that decide whether a file has compose or kubectl prefixes. */
    static final int LAYOUT_SAMPLE = 2_000;
    /** Lines of one part that decide its kind (a broker's banner comes within its first lines). */
    static final int KIND_SAMPLE = 2_000;
    /** Characters either sample may hold, so that long lines do not make it large. */
    static final int SAMPLE_CHARS = 512 * 1024;
    /** {@code worker-1  | text}: checked by hand in {@link #composeBar}. */
    static final Pattern COMPOSE_PREFIX = Pattern.compile("^([A-Za-z][A-Za-z0-9_.\\-]*)\\s+\\|\\s?(.*)$");
    private static final Pattern KUBECTL_PREFIX = Pattern.compile("^\\[pod/([^/\\]]+)/([^\\]]+)\\]\\s?(.*)$");

    private LogReader() {}

    /** Streams one file. */
    static void read(Path path, String name, Intake intake) throws DiagnoseInputException {
        try (InputStream raw = Files.newInputStream(path)) {
            PushbackInputStream in = new PushbackInputStream(raw, 8192);
            byte[] head = in.readNBytes(8192);
            for (int i = 0; i < head.length; i++) {
                if (head[i] == 0) {
                    throw new DiagnoseInputException(name + " is not a text log (NUL byte at offset " + i
                            + "); pass the files 'guard-init capture' or 'kubectl logs' / 'docker compose logs' wrote", null);
                }
            }
            in.unread(head);
            read(in, name, intake);
        } catch (IOException | UncheckedIOException e) {
            throw new DiagnoseInputException("cannot read " + name + ": " + e, e);
        }
    }

    /** Reads a text already in memory. */
    static void read(String text, String name, Intake intake) {
        try {
            read(new java.io.ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), name, intake);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void read(InputStream r, String name, Intake intake) throws IOException {
        Parts parts = new Parts(name, isPrevious(name), intake);
        LineInput in = new LineInput(r);
        try (ReadAhead ahead = new ReadAhead(name, out -> {
            Prefixes prefixes = new Prefixes(out);
            in.forEach(prefixes::line);
            prefixes.end();
        })) {
            ahead.drain(parts::line);
        }
        parts.end();
        if (in.cutLines() > 0) {
            intake.note(name + ": " + in.cutLines() + " lines longer than " + LineInput.MAX_LINE
                    + " bytes were read up to that length");
        }
    }

    /**
     * Receives a line with its prefixes taken off: the compose service or pod (null without one), its
     * RFC 3339 prefix (or null), its text, the {@link Words} in that text (null when they were not
     * looked for) and its {@link LineKind} as an application log line of that service.
     */
    interface Prefixed {
        void line(int number, String service, Stamps.Stamp stamp, String text, Words.Found words, LineKind kind);

        /** False when the receiver would rather find the words itself (it is waiting for lines): then they are given as null. */
        default boolean wantsWords() {
            return true;
        }
    }

    /**
     * Takes the {@code docker compose logs} or {@code kubectl logs --prefix} prefix and the RFC 3339
     * timestamp off each line, on its bytes, finds the {@link Words} of the text after them,
     * decodes only that text and tells its {@link LineKind} (one {@link LineKinds} per service, as
     * the lines of one service follow each other). Whether a file
     * has prefixes is told from its first {@link #LAYOUT_SAMPLE} non-blank lines, held until then.
     */
    static final class Prefixes {
        private final Prefixed out;
        private final Stamps.Reader stamps = new Stamps.Reader();
        private final Names names = new Names();
        private final Map<String, LineKinds> kinds = new HashMap<>();
        private String kindsOf;
        private LineKinds lastKinds;
        private final List<String> layoutSample = new ArrayList<>();
        private int firstNumber;
        private int nonBlank;
        private long sampledChars;
        private int composeLike;
        private int kubectlLike;
        private Boolean compose;
        private boolean kubectl;

        Prefixes(Prefixed out) {
            this.out = out;
        }

        void line(int number, byte[] b, int from, int to) {
            if (compose == null) {
                String l = LineInput.text(b, from, to);
                if (layoutSample.isEmpty()) {
                    firstNumber = number;
                }
                layoutSample.add(l);
                if (!l.isBlank()) {
                    nonBlank++;
                    composeLike += composeBar(l) > 0 ? 1 : 0;
                    kubectlLike += KUBECTL_PREFIX.matcher(l).matches() ? 1 : 0;
                }
                sampledChars += l.length();
                if (nonBlank >= LAYOUT_SAMPLE || sampledChars >= SAMPLE_CHARS) {
                    decideLayout();
                }
                return;
            }
            dispatch(number, b, from, to);
        }

        void end() {
            if (compose == null) {
                decideLayout();
            }
        }

        private void decideLayout() {
            compose = nonBlank > 0 && composeLike * 10 >= nonBlank * 6;
            kubectl = nonBlank > 0 && kubectlLike * 10 >= nonBlank * 6;
            int number = firstNumber;
            for (String l : layoutSample) {
                byte[] b = l.getBytes(StandardCharsets.UTF_8);
                dispatch(number++, b, 0, b.length);
            }
            layoutSample.clear();
        }

        private void dispatch(int number, byte[] b, int from, int to) {
            if (kubectl) {
                String l = LineInput.text(b, from, to);
                String service = null;
                Matcher m = KUBECTL_PREFIX.matcher(l);
                if (m.matches()) {
                    service = m.group(1);
                    l = m.group(3);
                }
                Stamps.Stamp stamp = Stamps.prefix(l);
                String text = stamp == null ? l : l.substring(stamp.length() + 1);
                out.line(number, service, stamp, text, Words.in(text), kindOf(service, text));
                return;
            }
            String service = null;
            int at = from;
            if (compose) {
                int end = names.end(b, from, to);
                int bar = composeBar(b, from, end, to);
                if (bar >= 0) {
                    service = names.of(b, from, end);
                    at = bar + 1 < to && b[bar + 1] == ' ' ? bar + 2 : bar + 1;
                }
            }
            Stamps.Stamp stamp = stamps.prefix(b, at, to);
            if (stamp != null) {
                at += stamp.length() + 1;
            }
            // a job line's words are never read (its own parser takes it), so they are not looked for
            Words.Found words = !out.wantsWords() || endsWith(b, at, to, RECEIVED) || endsWith(b, at, to, PROCESSED)
                    ? null : Words.in(b, at, to);
            String text = LineInput.text(b, at, to);
            out.line(number, service, stamp, text, words, kindOf(service, text));
        }

        /** The line's kind in its service's log (the last service's reader kept at hand: names come as one String each). */
        private LineKind kindOf(String service, String text) {
            String key = service == null ? "" : service;
            if (lastKinds == null || key != kindsOf && !key.equals(kindsOf)) {
                lastKinds = kinds.computeIfAbsent(key, k -> new LineKinds());
                kindsOf = key;
            }
            return lastKinds.of(text);
        }
    }

    private static final byte[] RECEIVED = " received".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PROCESSED = " processed".getBytes(StandardCharsets.US_ASCII);

    private static boolean endsWith(byte[] b, int from, int to, byte[] end) {
        int at = to - end.length;
        if (at < from) {
            return false;
        }
        for (int i = end.length - 1; i >= 0; i--) {
            if (b[at + i] != end[i]) {
                return false;
            }
        }
        return true;
    }

    /** The service names of a file's prefixes, each decoded once (a capture has a handful). */
    private static final class Names {
        private static final int KEPT = 64;
        /** Known names tried against each line before its name is read byte by byte. */
        private static final int TRIED = 8;
        private final byte[][] bytes = new byte[KEPT][];
        private final String[] names = new String[KEPT];
        private int size;
        private int last;
        /** The known name {@link #end} found at the line's start, or -1. */
        private int hit = -1;

        /** The end of the line's leading service name: a known one's when the line starts with it. */
        int end(byte[] b, int from, int to) {
            for (int k = 0, n = Math.min(size, TRIED); k < n; k++) {
                int i = last + k < n ? last + k : last + k - n;
                byte[] known = bytes[i];
                int end = from + known.length;
                if (end < to && !isNameByte(b[end]) && same(known, b, from, end)) {
                    hit = i;
                    return end;
                }
            }
            hit = -1;
            return serviceEnd(b, from, to);
        }

        /** The name {@code b[from, to)}, which {@link #end} just found. */
        String of(byte[] b, int from, int to) {
            if (hit >= 0) {
                last = hit;
                return names[hit];
            }
            for (int i = TRIED; i < size; i++) {
                if (same(bytes[i], b, from, to)) {
                    return names[i];
                }
            }
            String name = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
            if (size < KEPT) {
                bytes[size] = java.util.Arrays.copyOfRange(b, from, to);
                names[size] = name;
                last = size < TRIED ? size : last;
                size++;
            }
            return name;
        }

        private static boolean same(byte[] known, byte[] b, int from, int to) {
            if (known.length != to - from) {
                return false;
            }
            for (int i = known.length - 1; i >= 0; i--) {
                if (known[i] != b[from + i]) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Hands each part of a file (one compose service or pod, or the whole file) to its {@link Intake.Scan}. */
    private static final class Parts {
        private final String name;
        private final boolean previous;
        private final Intake intake;
        private final Map<String, Part> parts = new LinkedHashMap<>();
        private String lastService = "";
        private Part last;

        Parts(String name, boolean previous, Intake intake) {
            this.name = name;
            this.previous = previous;
            this.intake = intake;
        }

        void line(int number, String service, Stamps.Stamp stamp, String text, Words.Found words, LineKind lineKind) {
            String key = service == null ? "" : service;
            Part p;
            // the prefixes hand the same service name over as one String: most lines are the last one's
            if (last != null && (key == lastService || key.equals(lastService))) {
                p = last;
            } else {
                p = parts.get(key);
                if (p == null) {
                    p = new Part(service);
                    parts.put(key, p);
                }
                last = p;
                lastService = key;
            }
            p.line(number, stamp, text, words, lineKind);
        }

        void end() {
            if (parts.isEmpty()) {
                intake.scan(name, null, LogKind.EMPTY, previous).end();
                return;
            }
            for (Part p : parts.values()) {
                p.end();
            }
        }

        /** One service's (or the whole file's) lines: sampled until its kind is known, then scanned. */
        private final class Part {
            private final String service;
            private List<Object[]> sample = new ArrayList<>();
            private int sampledText;
            private long sampledChars;
            private Intake.Scan scan;

            Part(String service) {
                this.service = service;
            }

            void line(int number, Stamps.Stamp stamp, String text, Words.Found words, LineKind lineKind) {
                if (scan != null) {
                    scan.line(number, stamp, text, words, lineKind);
                    return;
                }
                sample.add(new Object[] {number, stamp, text, words, lineKind});
                sampledChars += text.length();
                if (!text.isBlank() && ++sampledText >= KIND_SAMPLE || sampledChars >= SAMPLE_CHARS) {
                    start();
                }
            }

            private void start() {
                List<String> texts = new ArrayList<>();
                for (Object[] o : sample) {
                    texts.add((String) o[2]);
                }
                scan = intake.scan(name, service, detect(texts), previous);
                for (Object[] o : sample) {
                    scan.line((Integer) o[0], (Stamps.Stamp) o[1], (String) o[2], (Words.Found) o[3], (LineKind) o[4]);
                }
                sample = null;
            }

            void end() {
                if (scan == null) {
                    start();
                }
                scan.end();
            }
        }
    }

    /**
     * The index of the {@code |} of a {@code docker compose logs} prefix ({@code worker-1  | }), or -1:
     * the pattern {@link #COMPOSE_PREFIX} checked by hand, since every line of a compose capture has one.
     */
    static int composeBar(String l) {
        // a prefix is ASCII, so its bytes stand where its characters do
        byte[] b = l.getBytes(StandardCharsets.UTF_8);
        return composeBar(b, 0, b.length);
    }

    /** {@link #composeBar(String)} of the line {@code b[from, to)}: the bar's index in {@code b}, or -1. */
    static int composeBar(byte[] b, int from, int to) {
        return composeBar(b, from, serviceEnd(b, from, to), to);
    }

    /** {@link #composeBar(byte[], int, int)} of a line whose leading service name ends at {@code end}. */
    private static int composeBar(byte[] b, int from, int end, int to) {
        if (end == from || end >= to || !isRegexSpace(b[end])) {
            return -1;
        }
        int i = end;
        while (i < to && isRegexSpace(b[i])) {
            i++;
        }
        return i < to && b[i] == '|' ? i : -1;
    }

    /** The end of a leading service name: a letter, then letters, digits, {@code _ . -}. */
    private static int serviceEnd(byte[] b, int from, int to) {
        if (from == to || !isAsciiLetter(b[from])) {
            return from;
        }
        int i = from + 1;
        while (i < to && isNameByte(b[i])) {
            i++;
        }
        return i;
    }

    private static boolean isNameByte(byte c) {
        return isAsciiLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-';
    }

    /** {@code \\s} of java.util.regex. */
    private static boolean isRegexSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    private static boolean isAsciiLetter(byte c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    /** What a part holds, from its first lines. */
    static LogKind detect(List<String> lines) {
        List<String> texts = new ArrayList<>();
        for (String l : lines) {
            if (!l.isBlank()) {
                texts.add(l);
            }
        }
        if (texts.isEmpty()) {
            return LogKind.EMPTY;
        }
        String first = texts.get(0);
        if (first.matches("NAME\\s+READY\\s+STATUS\\s+RESTARTS\\s+AGE.*")) {
            return LogKind.KUBECTL_GET_POD;
        }
        if (first.matches("(LAST SEEN\\s+)?TYPE\\s+REASON\\s+(OBJECT|AGE).*")) {
            return LogKind.KUBECTL_EVENTS;
        }
        if (first.matches("NAME\\s+IMAGE\\s+COMMAND\\s+SERVICE.*") || first.matches("\\s*Name\\s+Command\\s+State\\s+Ports.*")) {
            return LogKind.COMPOSE_PS;
        }
        if (first.startsWith("Name:") && texts.stream().limit(6).anyMatch(t -> t.startsWith("Namespace:"))) {
            return LogKind.KUBECTL_DESCRIBE;
        }
        int redis = 0;
        boolean redisBanner = false;
        boolean broker = false;
        for (String t : texts) {
            if (Stamps.REDIS_TIME.matcher(t).find()) {
                redis++;
            }
            if (t.contains("Redis is starting") || t.contains("Redis version=") || t.contains("Valkey is starting")) {
                redisBanner = true;
            }
            if (t.contains("Server startup complete") || t.contains("Starting nats-server")
                    || t.contains("Kafka Server started") || t.contains("KafkaRaftServer")
                    || t.contains("Starting RabbitMQ")) {
                broker = true;
            }
        }
        if (redisBanner || redis * 2 >= texts.size()) {
            return LogKind.REDIS_SERVER;
        }
        if (broker) {
            return LogKind.BROKER_SERVER;
        }
        return LogKind.APPLICATION;
    }

    static boolean isPrevious(String name) {
        String base = Path.of(name).getFileName().toString().toLowerCase(Locale.ROOT);
        return base.contains("previous") || base.matches(".*[-_.]prev(\\..*)?");
    }
}
