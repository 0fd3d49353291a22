package dev.guard.init.diagnose;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a captured file: LF or CRLF, {@code docker compose logs} prefixes ({@code worker-1  | })
 * with or without {@code --timestamps}, {@code kubectl logs --prefix}, and tells each part's kind
 * from its content.
 */
final class LogReader {
    private static final Pattern COMPOSE_PREFIX = Pattern.compile("^([A-Za-z][A-Za-z0-9_.\\-]*)\\s+\\|\\s?(.*)$");
    private static final Pattern KUBECTL_PREFIX = Pattern.compile("^\\[pod/([^/\\]]+)/([^\\]]+)\\]\\s?(.*)$");
    /** docker / kubectl --timestamps: RFC 3339 with nanoseconds, then one space. */
    private static final Pattern RFC3339 = Pattern.compile(
            "^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:\\d{2}))\\s(.*)$");
    /** An application's own leading timestamp: 2026-11-30 09:00:01,123 / [2026-11-30T09:00:01.123Z]. */
    private static final Pattern APP_TIME = Pattern.compile(
            "^\\[?(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2}:\\d{2})(?:[.,](\\d{1,9}))?(Z|[+-]\\d{2}:?\\d{2})?");
    /** Redis: 1:M 30 Nov 2026 09:00:01.123 * ... */
    private static final Pattern REDIS_TIME = Pattern.compile(
            "^\\d+:[XCSM] (\\d{1,2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d{3}) ");
    private static final DateTimeFormatter REDIS_FORMAT =
            DateTimeFormatter.ofPattern("d MMM yyyy HH:mm:ss.SSS", Locale.ENGLISH);
    private static final Pattern DESCRIBE_NAME = Pattern.compile("^Name:\\s+(\\S+)");
    private static final Pattern EVENT_OBJECT = Pattern.compile("\\s(?:pod|Pod)/(\\S+)\\s");

    private LogReader() {}

    /** Reads one file into one source per compose service / kubectl prefix (one source when it has none). */
    static List<Source> read(Path path, String name) throws DiagnoseInputException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new DiagnoseInputException("cannot read " + name + ": " + e, e);
        }
        for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
            if (bytes[i] == 0) {
                throw new DiagnoseInputException(name + " is not a text log (NUL byte at offset " + i
                        + "); pass the files 'guard-init capture' or 'kubectl logs' / 'docker compose logs' wrote", null);
            }
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        return parse(text, name);
    }

    static List<Source> parse(String text, String name) {
        String[] raw = text.split("\n", -1);
        int n = raw.length;
        if (n > 0 && raw[n - 1].isEmpty()) {
            n--;
        }
        int nonBlank = 0;
        int composeLike = 0;
        int kubectlLike = 0;
        for (int i = 0; i < n; i++) {
            String l = stripCr(raw[i]);
            if (l.isBlank()) {
                continue;
            }
            nonBlank++;
            if (COMPOSE_PREFIX.matcher(l).matches()) {
                composeLike++;
            }
            if (KUBECTL_PREFIX.matcher(l).matches()) {
                kubectlLike++;
            }
        }
        boolean compose = nonBlank > 0 && composeLike * 10 >= nonBlank * 6;
        boolean kubectl = nonBlank > 0 && kubectlLike * 10 >= nonBlank * 6;
        boolean previous = isPrevious(name);
        Map<String, List<LogLine>> byService = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String l = stripCr(raw[i]);
            String service = null;
            if (compose) {
                Matcher m = COMPOSE_PREFIX.matcher(l);
                if (m.matches()) {
                    service = m.group(1);
                    l = m.group(2);
                }
            } else if (kubectl) {
                Matcher m = KUBECTL_PREFIX.matcher(l);
                if (m.matches()) {
                    service = m.group(1);
                    l = m.group(3);
                }
            }
            Instant time = null;
            Matcher ts = RFC3339.matcher(l);
            if (ts.matches()) {
                time = parseRfc3339(ts.group(1));
                if (time != null) {
                    l = ts.group(2);
                }
            }
            if (time == null) {
                time = appTime(l);
            }
            byService.computeIfAbsent(service == null ? "" : service, k -> new ArrayList<>())
                    .add(new LogLine(name, i + 1, service, time, l));
        }
        List<Source> out = new ArrayList<>();
        if (byService.isEmpty()) {
            out.add(new Source(name, null, LogKind.EMPTY, List.of(), previous));
            return out;
        }
        for (Map.Entry<String, List<LogLine>> e : byService.entrySet()) {
            List<LogLine> lines = e.getValue();
            LogKind kind = detect(lines);
            if (kind == LogKind.KUBECTL_DESCRIBE || kind == LogKind.KUBECTL_GET_POD || kind == LogKind.KUBECTL_EVENTS
                    || kind == LogKind.COMPOSE_PS) {
                lines = attributeRows(lines, kind);
            }
            out.add(new Source(name, e.getKey().isEmpty() ? null : e.getKey(), kind, lines, previous));
        }
        return out;
    }

    /** Sets each status row's service to the pod / service it is about. */
    private static List<LogLine> attributeRows(List<LogLine> lines, LogKind kind) {
        List<LogLine> out = new ArrayList<>(lines.size());
        String current = null;
        int serviceColumn = -1;
        for (LogLine l : lines) {
            String t = l.text();
            String svc = null;
            switch (kind) {
                case KUBECTL_DESCRIBE -> {
                    Matcher m = DESCRIBE_NAME.matcher(t);
                    if (m.find()) {
                        current = m.group(1);
                    }
                    svc = current;
                }
                case KUBECTL_GET_POD -> {
                    if (!t.startsWith("NAME") && !t.isBlank()) {
                        svc = t.trim().split("\\s+")[0];
                    }
                }
                case KUBECTL_EVENTS -> {
                    Matcher m = EVENT_OBJECT.matcher(" " + t + " ");
                    svc = m.find() ? m.group(1) : null;
                }
                case COMPOSE_PS -> {
                    if (t.startsWith("NAME")) {
                        serviceColumn = t.indexOf("SERVICE");
                    } else if (!t.isBlank()) {
                        String[] cols = t.trim().split("\\s{2,}");
                        if (serviceColumn >= 0 && t.length() > serviceColumn) {
                            String rest = t.substring(serviceColumn).trim();
                            svc = rest.split("\\s+")[0];
                        } else {
                            svc = cols[0];
                        }
                    }
                }
                default -> svc = l.service();
            }
            out.add(new LogLine(l.file(), l.number(), svc == null ? l.service() : svc, l.time(), t));
        }
        return out;
    }

    static LogKind detect(List<LogLine> lines) {
        List<String> texts = new ArrayList<>();
        for (LogLine l : lines) {
            if (!l.text().isBlank()) {
                texts.add(l.text());
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
            if (REDIS_TIME.matcher(t).find()) {
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

    private static String stripCr(String l) {
        return l.endsWith("\r") ? l.substring(0, l.length() - 1) : l;
    }

    private static Instant parseRfc3339(String s) {
        try {
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static Instant appTime(String l) {
        Matcher m = APP_TIME.matcher(l);
        if (m.find()) {
            String frac = m.group(3) == null ? "" : "." + m.group(3);
            String zone = m.group(4);
            try {
                LocalDateTime ldt = LocalDateTime.parse(m.group(1) + "T" + m.group(2) + frac);
                ZoneOffset off = ZoneOffset.UTC;
                if (zone != null && !zone.equals("Z")) {
                    off = ZoneOffset.of(zone.length() == 5 ? zone.substring(0, 3) + ":" + zone.substring(3) : zone);
                }
                return ldt.toInstant(off);
            } catch (DateTimeParseException e) {
                return null;
            }
        }
        Matcher r = REDIS_TIME.matcher(l);
        if (r.find()) {
            try {
                return LocalDateTime.parse(r.group(1), REDIS_FORMAT).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                return null;
            }
        }
        return null;
    }
}
