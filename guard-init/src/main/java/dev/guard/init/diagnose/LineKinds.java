package dev.guard.init.diagnose;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Tells the {@link LineKind} of each line of one application log, in order: a traceback's quoted
 * code and a configuration dump's continuation lines are known by what came before them, so one
 * reader serves one file part. Character tests only: most lines of a large capture are events,
 * and this runs on every one.
 */
final class LineKinds {
    private static final JsonFactory JSON = new JsonFactory();

    /** After a Python frame ({@code   File "...", line N, in f}): lines indented deeper quote its code. */
    private int sourceIndent = -1;
    /** After Node's crash header ({@code /app/x.js:189}): the quoted code and its caret, up to a blank line. */
    private boolean nodeSource;
    /** After {@code ... values:} (kafka-clients' {@code ConsumerConfig values:}): tab-indented {@code key = value} lines. */
    private boolean dump;

    LineKind of(String t) {
        int n = t.length();
        int indent = 0;
        while (indent < n && (t.charAt(indent) == ' ' || t.charAt(indent) == '\t')) {
            indent++;
        }
        if (indent == n) {
            sourceIndent = -1;
            nodeSource = false;
            dump = false;
            return LineKind.EVENT;
        }
        if (nodeSource) {
            return LineKind.SOURCE;
        }
        if (sourceIndent >= 0) {
            if (indent > sourceIndent && !t.startsWith("File \"", indent)) {
                return LineKind.SOURCE;
            }
            sourceIndent = -1;
        }
        if (dump) {
            if (t.charAt(0) == '\t' && setting(t, indent, false)) {
                return LineKind.SETTING;
            }
            dump = false;
        }
        if (indent > 0) {
            if (t.startsWith("at ", indent) || t.startsWith("thrown in ", indent) || moreFrames(t, indent)) {
                return LineKind.FRAME;
            }
            if (t.startsWith("File \"", indent)) {
                sourceIndent = indent;
                return LineKind.FRAME;
            }
            int from = t.startsWith("from ", indent) ? indent + 5 : indent;
            if (locationEnd(t) && rubyLocation(t, from) || t.charAt(0) == '\t' && t.charAt(indent) == '/' && goLocation(t, indent)) {
                return LineKind.FRAME;
            }
            if (t.charAt(0) == '\t' && setting(t, indent, true)) {
                return LineKind.SETTING;
            }
            return LineKind.EVENT;
        }
        char c = t.charAt(0);
        boolean located = locationEnd(t);
        if (c == '#' && phpFrame(t) || located && rubyLocation(t, 0) || t.equals("Stack trace:") || t.equals("[stacktrace]")) {
            return LineKind.FRAME;
        }
        if (located && nodeHeader(t)) {
            nodeSource = true;
            return LineKind.FRAME;
        }
        dump = t.endsWith("values: ") || t.endsWith("values:");
        return LineKind.EVENT;
    }

    /** A Ruby or Node location ends with its line number or Ruby's quoted method: tested before searching the line. */
    private static boolean locationEnd(String t) {
        char last = t.charAt(t.length() - 1);
        return last == '\'' || last >= '0' && last <= '9';
    }

    /** {@code key = value}: a dotted key outside a dump ({@code socket.connection.setup.timeout.ms}), any key inside one. */
    private static boolean setting(String t, int from, boolean needDot) {
        int n = t.length();
        if (from >= n || !Character.isLetter(t.charAt(from))) {
            return false;
        }
        boolean dot = false;
        int i = from;
        for (; i < n; i++) {
            char c = t.charAt(i);
            if (c == '.') {
                dot = true;
            } else if (!Character.isLetterOrDigit(c) && c != '_' && c != '-') {
                break;
            }
        }
        return (dot || !needDot) && t.startsWith(" = ", i) || (dot || !needDot) && i + 2 == n && t.startsWith(" =", i);
    }

    /** Java's {@code ... 6 more} / {@code ... 6 common frames omitted}. */
    private static boolean moreFrames(String t, int from) {
        if (!t.startsWith("... ", from)) {
            return false;
        }
        int i = from + 4;
        int digits = i;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        return i > digits && (t.startsWith(" more", i) || t.startsWith(" common frames omitted", i));
    }

    /**
     * A Ruby backtrace entry and nothing else: {@code /usr/lib/ruby/vendor_ruby/redis/client.rb:398:in `connect'}
     * (Ruby 3.4 quotes {@code 'Redis::Client#connect'}). The first line of an uncaught exception is
     * such a location followed by {@code : message (Class)}: that one is the event.
     */
    private static boolean rubyLocation(String t, int from) {
        int space = t.indexOf(' ', from);
        // only the first word is searched for ".rb:" (most lines ending in a digit are no location)
        if (t.lastIndexOf(".rb:", (space < 0 ? t.length() : space) - 4) < from) {
            return false;
        }
        int rb = t.indexOf(".rb:", from);
        int i = rb + 4;
        int digits = i;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        if (i == digits) {
            return false;
        }
        if (i == t.length()) {
            return true;
        }
        if (!t.startsWith(":in ", i)) {
            return false;
        }
        return t.endsWith("'") && t.indexOf("': ", i) < 0;
    }

    /** Go's {@code \t/app/main.go:12 +0x1d} under a goroutine's function line. */
    private static boolean goLocation(String t, int from) {
        int go = t.indexOf(".go:", from);
        int space = t.indexOf(' ', from);
        return go > 0 && (space < 0 || space > go);
    }

    /** PHP's {@code #0 /app/worker.php(20): Redis->connect('redis', 6379)} and {@code #1 {main}}. */
    private static boolean phpFrame(String t) {
        int i = 1;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        return i > 1 && i < t.length() && t.charAt(i) == ' ';
    }

    /** Node's crash header, the file and line before the quoted code: {@code /app/node_modules/x/y.js:189}, {@code node:net:1555}. */
    private static boolean nodeHeader(String t) {
        if (t.indexOf(' ') >= 0) {
            return false;
        }
        int colon = t.lastIndexOf(':');
        if (colon < 0 || colon == t.length() - 1) {
            return false;
        }
        for (int i = colon + 1; i < t.length(); i++) {
            if (!Character.isDigit(t.charAt(i))) {
                return false;
            }
        }
        String file = t.substring(0, colon);
        return (file.startsWith("/") || file.startsWith("node:") || file.startsWith("file://"))
                && (file.endsWith(".js") || file.endsWith(".mjs") || file.endsWith(".cjs") || file.endsWith(".ts")
                || file.startsWith("node:"));
    }

    /**
     * The message of a line a logging library wrapped, for the per-job lines: logfmt's {@code msg=}
     * (Go's slog, logrus), Monolog's line without its context and extra suffix
     * ({@code [2026-12-07T09:05:38.727460+00:00] worker.INFO: job j-01 received [] []}). The line
     * itself when it is neither. A JSON line reaches the parsers as {@link #flatten}'s text, which
     * ends with its message.
     */
    static String message(String t) {
        int n = t.length();
        if (n < 2) {
            return t;
        }
        char last = t.charAt(n - 1);
        if (last == ']' || last == '}') {
            String m = monologMessage(t);
            if (m != null) {
                return m;
            }
        }
        int msg = t.indexOf("msg=");
        if (msg >= 0 && (msg == 0 || t.charAt(msg - 1) == ' ')) {
            return logfmtValue(t, msg + 4);
        }
        return t;
    }

    /** Monolog's {@code [time] channel.LEVEL: message context extra}: the message; null when the line is not Monolog's. */
    private static String monologMessage(String t) {
        int close = t.indexOf("] ");
        if (t.charAt(0) != '[' || close < 0) {
            return null;
        }
        int colon = t.indexOf(": ", close);
        int dot = t.lastIndexOf('.', colon);
        if (colon < 0 || dot <= close) {
            return null;
        }
        for (int i = dot + 1; i < colon; i++) {
            if (!Character.isUpperCase(t.charAt(i))) {
                return null;
            }
        }
        int end = suffixStart(t, t.length());
        end = end < 0 ? -1 : suffixStart(t, end);
        return end < 0 ? null : t.substring(colon + 2, end);
    }

    /** Where the {@code []} or {@code {...}} ending at {@code end} starts, with its leading space; -1 when there is none. */
    private static int suffixStart(String t, int end) {
        if (end >= 3 && t.startsWith(" []", end - 3)) {
            return end - 3;
        }
        if (end < 3 || t.charAt(end - 1) != '}') {
            return -1;
        }
        int depth = 0;
        boolean quoted = false;
        for (int i = end - 1; i > 0; i--) {
            char c = t.charAt(i);
            if (c == '"' && t.charAt(i - 1) != '\\') {
                quoted = !quoted;
            } else if (!quoted && c == '}') {
                depth++;
            } else if (!quoted && c == '{' && --depth == 0) {
                return t.charAt(i - 1) == ' ' ? i - 1 : -1;
            }
        }
        return -1;
    }

    /** A logfmt value from {@code from}: quoted (with {@code \"} escapes) or up to the next space. */
    private static String logfmtValue(String t, int from) {
        if (from < t.length() && t.charAt(from) == '"') {
            StringBuilder b = new StringBuilder();
            for (int i = from + 1; i < t.length(); i++) {
                char c = t.charAt(i);
                if (c == '\\' && i + 1 < t.length()) {
                    b.append(t.charAt(++i));
                } else if (c == '"') {
                    break;
                } else {
                    b.append(c);
                }
            }
            return b.toString();
        }
        int sp = t.indexOf(' ', from);
        return t.substring(from, sp < 0 ? t.length() : sp);
    }

    /** A JSON line's fields that say where and when it was written, not what happened. */
    private static final java.util.Set<String> META = java.util.Set.of("time", "timestamp", "ts", "@timestamp", "pid",
            "hostname", "v", "name", "logger", "level", "severity", "stack", "caller", "thread", "logger_name",
            "level_value", "@version", "msg", "message", "err", "error", "exception", "exc_info");

    /**
     * A JSON log line as one line of text for the parsers: its level ({@code 50} is pino's ERROR),
     * its other fields as {@code key=value}, its error ({@code err}, {@code error}, {@code exception}:
     * type, message, code, address and port, with the errors it chains: {@code cause},
     * {@code chainedError}, {@code originalError}) and its message last, as a line of text ends with
     * it. The error's stack is left out: its frames say where, not what. The line itself when it is
     * not a JSON object.
     */
    static String flatten(String t) {
        if (t.isEmpty() || t.charAt(0) != '{' || t.charAt(t.length() - 1) != '}') {
            return t;
        }
        StringBuilder fields = new StringBuilder();
        StringBuilder error = new StringBuilder();
        String level = null;
        String msg = null;
        try (JsonParser p = JSON.createParser(t)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return t;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
                    if (v == JsonToken.START_OBJECT && ("err".equals(name) || "error".equals(name) || "exception".equals(name))) {
                        error(p, error, 0);
                    } else {
                        p.skipChildren();
                    }
                    continue;
                }
                String text = v == JsonToken.VALUE_NULL ? null : p.getText();
                if ("level".equals(name) || "severity".equals(name)) {
                    level = levelName(text);
                } else if ("msg".equals(name) || "message".equals(name)) {
                    msg = msg == null ? text : msg;
                } else if (("error".equals(name) || "err".equals(name) || "exception".equals(name)) && text != null) {
                    error.append(' ').append(text);
                } else if (text != null && !META.contains(name) && text.length() <= 200) {
                    fields.append(' ').append(name).append('=').append(text);
                }
            }
        } catch (IOException e) {
            // not JSON after all: read as text
            return t;
        }
        StringBuilder out = new StringBuilder(t.length() / 2);
        out.append(level == null ? "" : level).append(fields).append(error);
        if (msg != null) {
            out.append(' ').append(msg);
        }
        return out.toString().strip();
    }

    /** An error object's type, message, code and address, then the errors it chains (to 3 deep); its stack skipped. */
    private static void error(JsonParser p, StringBuilder out, int depth) throws IOException {
        String type = null;
        String message = null;
        StringBuilder rest = new StringBuilder();
        StringBuilder chained = new StringBuilder();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if (v == JsonToken.START_OBJECT) {
                if (depth < 3 && ("cause".equals(name) || "chainedError".equals(name) || "originalError".equals(name)
                        || "err".equals(name) || "error".equals(name))) {
                    chained.append(" cause:");
                    error(p, chained, depth + 1);
                } else {
                    p.skipChildren();
                }
                continue;
            }
            if (v == JsonToken.START_ARRAY) {
                p.skipChildren();
                continue;
            }
            String text = v == JsonToken.VALUE_NULL ? null : p.getText();
            switch (name) {
                case "type", "name" -> type = type == null ? text : type;
                case "message" -> message = text;
                case "code", "errno", "syscall", "address", "port", "host", "hostname" -> {
                    if (text != null) {
                        rest.append(' ').append(name).append('=').append(text);
                    }
                }
                default -> { }
            }
        }
        out.append(' ');
        if (type != null) {
            out.append(type).append(": ");
        }
        out.append(message == null ? "" : message).append(rest).append(chained);
    }

    /** pino's and bunyan's numeric levels by name; a named level upper-cased. */
    private static String levelName(String level) {
        if (level == null) {
            return null;
        }
        return switch (level) {
            case "10" -> "TRACE";
            case "20" -> "DEBUG";
            case "30" -> "INFO";
            case "40" -> "WARN";
            case "50" -> "ERROR";
            case "60" -> "FATAL";
            default -> level.toUpperCase(java.util.Locale.ROOT);
        };
    }
}
