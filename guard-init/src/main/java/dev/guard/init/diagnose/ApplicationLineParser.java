package dev.guard.init.diagnose;

import dev.guard.endpoint.Broker;
import dev.guard.endpoint.Endpoint;
import dev.guard.endpoint.Endpoints;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What any application log says besides connection errors: the per-job lines (matched whole,
 * like the runbook's {@code grep -cxE '.*job [^ ]+ received'}), the URL it resolved at boot,
 * permission errors, Spring Boot's "APPLICATION FAILED TO START" banner, and other errors.
 */
final class ApplicationLineParser implements LineParser {
    /** A URL token in free text; it counts when its scheme is a broker's ({@link Broker#ofScheme}) and it parses. */
    private static final Pattern URL = Pattern.compile("(?<![A-Za-z0-9+.\\-])([A-Za-z][A-Za-z0-9+.\\-_]*)://[^\\s\"'<>()]+");
    private static final Pattern BOOTSTRAP_SERVERS = Pattern.compile(
            "bootstrap[._ ]servers\\s*[=:]?\\s*\\[?'?([A-Za-z0-9_.\\-]+):(\\d{1,5})");
    /** spring-rabbit's CachingConnectionFactory: Attempting to connect to: [localhost:5672]. */
    private static final Pattern SPRING_RABBIT_CONNECTING = Pattern.compile(
            "Attempting to connect to: \\[([A-Za-z0-9_.\\-]+):(\\d{1,5})");
    private static final Pattern PIKA_CONNECTING = Pattern.compile("connecting to \\('([^']+)', (\\d{1,5})\\)");
    private static final Pattern PERMISSION = Pattern.compile(
            "(?i:permission denied)|EACCES|Read-only file system|PermissionError|AccessDeniedException");
    private static final Pattern PATH = Pattern.compile("'(/[^']+)'|: (/[^\\s:]+)|(/[\\w./\\-]+)");
    private static final Pattern ENQUEUED = Pattern.compile("(?i)\\b(enqueued|published|queued)\\b");
    private static final Pattern OTHER_ERROR = Pattern.compile(
            "Traceback \\(most recent call last\\)|\\bERROR\\b|\\blevel=error\\b|\"level\":\\s*\"error\"|^[\\w.$]+(Error|Exception): ");

    /** The first broker URL in {@code text}, parsed by guard's one endpoint parser; null when there is none. */
    static Endpoint brokerUrl(String text) {
        Matcher m = URL.matcher(text);
        while (m.find()) {
            if (Broker.ofScheme(m.group(1)).isEmpty()) {
                continue;
            }
            String url = m.group();
            // sentence punctuation and a closing bracket or brace the URL was quoted in
            while (!url.isEmpty() && (".,;:!}".indexOf(url.charAt(url.length() - 1)) >= 0 || url.endsWith("]")
                    && url.chars().filter(c -> c == ']').count() > url.chars().filter(c -> c == '[').count())) {
                url = url.substring(0, url.length() - 1);
            }
            try {
                Endpoint e = Endpoints.parse(url).get(0);
                if (!e.host().isEmpty()) {
                    return e;
                }
            } catch (IllegalArgumentException e) {
                // a mangled URL in a log line names no host
            }
        }
        return null;
    }

    /**
     * The per-job lines, matched whole like the runbook's {@code grep -cxE '.*job [^ ]+ received'}
     * (and {@code processed}), without a regular expression: most lines of a large capture are these.
     * The job id is the signal's detail.
     */
    static final class Jobs implements LineParser {
        /** False when {@link #parse} would find nothing: the line ends neither as a job line nor as a logging library's wrapping. */
        static boolean mayBe(String t) {
            int n = t.length();
            return n > 0 && t.charAt(n - 1) == 'd' && (t.endsWith(" received") || t.endsWith(" processed")) || wrapped(t);
        }

        /** Ends as logfmt, Monolog's {@code [] []} or a JSON line flattened (its message last, quoted) may. */
        private static boolean wrapped(String t) {
            char last = t.isEmpty() ? ' ' : t.charAt(t.length() - 1);
            return last == '}' || last == ']' || last == '"';
        }

        @Override
        public List<Signal> parse(LogLine line, Words.Found words) {
            List<Signal> plain = parse(line, line.text());
            if (!plain.isEmpty()) {
                return plain;
            }
            // a logging library's wrapping: logfmt, Monolog's " [] []" (a JSON line comes flattened, message last)
            String t = line.text();
            if (!wrapped(t)) {
                return plain;
            }
            String m = LineKinds.message(t);
            return m == t ? plain : parse(line, m);
        }

        private static List<Signal> parse(LogLine line, String t) {
            Signal.Type type;
            int end;
            if (t.endsWith(" received")) {
                type = Signal.Type.JOB_RECEIVED;
                end = t.length() - " received".length();
            } else if (t.endsWith(" processed")) {
                type = Signal.Type.JOB_PROCESSED;
                end = t.length() - " processed".length();
            } else {
                return List.of();
            }
            int space = t.lastIndexOf(' ', end - 1);
            if (space < 3 || space + 1 >= end || !t.startsWith("job", space - 3)) {
                return List.of();
            }
            return List.of(new Signal(type, line, null, 0, "app", t.substring(space + 1, end)));
        }
    }

    @Override
    public List<Signal> parse(LogLine line, Words.Found w) {
        String t = line.text();
        List<Signal> out = new ArrayList<>(1);
        if (w.has(Word.FAILED_TO_START) && t.contains("APPLICATION FAILED TO START")) {
            out.add(Signal.of(Signal.Type.APP_FAILED_TO_START, line, "spring-boot"));
            return out;
        }
        if ((w.has(Word.PERMISSION) || w.has(Word.EACCES) || w.has(Word.READ_ONLY) || w.has(Word.ACCESS_DENIED))
                && PERMISSION.matcher(t).find()) {
            Matcher p = PATH.matcher(t);
            String path = null;
            if (p.find()) {
                path = p.group(1) != null ? p.group(1) : p.group(2) != null ? p.group(2) : p.group(3);
            }
            out.add(Signal.of(Signal.Type.PERMISSION, line, "app").withDetail(path));
            return out;
        }
        Endpoint boot = w.has(Word.SCHEME_SEPARATOR) ? brokerUrl(t) : null;
        if (boot != null) {
            int port = boot.portGiven() ? boot.port() : 0;
            out.add(Signal.at(Signal.Type.BOOT_TARGET, line, boot.host(), port, "app").withDetail(boot.scheme()));
            if (t.contains(".> transport:")) {
                // Celery's banner: the broker it is about to connect to; "Connected to" follows when it did
                out.add(Signal.at(Signal.Type.CONNECTING, line, boot.host(), port, "celery"));
            } else if (t.contains("/MainProcess] Connected to ")) {
                out.add(Signal.at(Signal.Type.READY, line, boot.host(), port, "celery"));
            }
            return out;
        }
        Matcher m;
        if (w.has(Word.BOOTSTRAP) && (m = BOOTSTRAP_SERVERS.matcher(t)).find()) {
            out.add(Signal.at(Signal.Type.BOOT_TARGET, line, m.group(1), Integer.parseInt(m.group(2)), "kafka")
                    .withDetail("kafka"));
            return out;
        }
        if (w.has(Word.SPRING_RABBIT_CONNECTING) && (m = SPRING_RABBIT_CONNECTING.matcher(t)).find()) {
            out.add(Signal.at(Signal.Type.BOOT_TARGET, line, m.group(1), Integer.parseInt(m.group(2)), "spring-rabbit")
                    .withDetail("amqp"));
            return out;
        }
        if (w.has(Word.PIKA_CONNECTING) && (m = PIKA_CONNECTING.matcher(t)).find()) {
            out.add(Signal.at(Signal.Type.BOOT_TARGET, line, m.group(1), Integer.parseInt(m.group(2)), "pika")
                    .withDetail("amqp"));
            return out;
        }
        if ((w.has(Word.QUEUED) || w.has(Word.PUBLISHED)) && ENQUEUED.matcher(t).find() && !t.contains("Error") && !t.contains("rror ")) {
            out.add(Signal.of(Signal.Type.ENQUEUED, line, "app"));
            return out;
        }
        if ((w.has(Word.ERROR) || w.has(Word.EXCEPTION) || w.has(Word.TRACEBACK)) && OTHER_ERROR.matcher(t).find() && !t.startsWith("Caused by") && !t.startsWith("\tat ")) {
            out.add(Signal.of(Signal.Type.OTHER_ERROR, line, "app"));
        }
        return out;
    }
}
