package dev.guard.init.diagnose;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Streams a captured file into an {@link Intake}: LF or CRLF, {@code docker compose logs}
 * prefixes ({@code worker-1  | }) with or without {@code --timestamps}, {@code kubectl logs
 * --prefix}, each part's kind told from its first {@link #KIND_SAMPLE} lines. Holds at most those
 * samples and one line, whatever the file's size; bytes that are not UTF-8 read as U+FFFD.
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
        Splitter s = new Splitter(name, isPrevious(name), intake);
        LineInput in = new LineInput(r);
        in.forEach(s::line);
        s.end();
        if (in.cutLines() > 0) {
            intake.note(name + ": " + in.cutLines() + " lines longer than " + LineInput.MAX_LINE
                    + " bytes were read up to that length");
        }
    }

    /** Takes a file's lines apart by prefix and hands each part to its {@link Part}. */
    private static final class Splitter {
        private final String name;
        private final boolean previous;
        private final Intake intake;
        private final List<Object[]> layoutSample = new ArrayList<>();
        private int nonBlank;
        private long sampledChars;
        private int composeLike;
        private int kubectlLike;
        private Boolean compose;
        private boolean kubectl;
        private final Map<String, Part> parts = new LinkedHashMap<>();

        Splitter(String name, boolean previous, Intake intake) {
            this.name = name;
            this.previous = previous;
            this.intake = intake;
        }

        void line(int number, String l) {
            if (compose == null) {
                layoutSample.add(new Object[] {number, l});
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
            dispatch(number, l);
        }

        private void decideLayout() {
            compose = nonBlank > 0 && composeLike * 10 >= nonBlank * 6;
            kubectl = nonBlank > 0 && kubectlLike * 10 >= nonBlank * 6;
            for (Object[] o : layoutSample) {
                dispatch((Integer) o[0], (String) o[1]);
            }
            layoutSample.clear();
        }

        private void dispatch(int number, String l) {
            String service = null;
            if (compose) {
                int bar = composeBar(l);
                if (bar > 0) {
                    service = l.substring(0, serviceEnd(l));
                    int from = bar + 1 < l.length() && l.charAt(bar + 1) == ' ' ? bar + 2 : bar + 1;
                    l = l.substring(from);
                }
            } else if (kubectl) {
                Matcher m = KUBECTL_PREFIX.matcher(l);
                if (m.matches()) {
                    service = m.group(1);
                    l = m.group(3);
                }
            }
            Stamps.Stamp stamp = Stamps.prefix(l);
            if (stamp != null) {
                l = l.substring(stamp.text().length() + 1);
            }
            String key = service == null ? "" : service;
            Part p = parts.get(key);
            if (p == null) {
                p = new Part(service);
                parts.put(key, p);
            }
            p.line(number, stamp, l);
        }

        void end() {
            if (compose == null) {
                decideLayout();
            }
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

            void line(int number, Stamps.Stamp stamp, String text) {
                if (scan != null) {
                    scan.line(number, stamp, text);
                    return;
                }
                sample.add(new Object[] {number, stamp, text});
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
                    scan.line((Integer) o[0], (Stamps.Stamp) o[1], (String) o[2]);
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
        int end = serviceEnd(l);
        if (end == 0 || end >= l.length() || !isRegexSpace(l.charAt(end))) {
            return -1;
        }
        int i = end;
        while (i < l.length() && isRegexSpace(l.charAt(i))) {
            i++;
        }
        return i < l.length() && l.charAt(i) == '|' ? i : -1;
    }

    /** The end of a leading service name: a letter, then letters, digits, {@code _ . -}. */
    private static int serviceEnd(String l) {
        if (l.isEmpty() || !isAsciiLetter(l.charAt(0))) {
            return 0;
        }
        int i = 1;
        while (i < l.length()) {
            char c = l.charAt(i);
            if (!(isAsciiLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-')) {
                break;
            }
            i++;
        }
        return i;
    }

    /** {@code \\s} of java.util.regex. */
    private static boolean isRegexSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    private static boolean isAsciiLetter(char c) {
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
