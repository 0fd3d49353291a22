package dev.guard.init.diagnose;

/**
 * Tells the {@link LineKind} of each line of one application log, in order: a traceback's quoted
 * code and a configuration dump's continuation lines are known by what came before them, so one
 * reader serves one file part. Character tests only: most lines of a large capture are events,
 * and this runs on every one.
 */
final class LineKinds {
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
            if (rubyLocation(t, from) || t.charAt(0) == '\t' && t.charAt(indent) == '/' && goLocation(t, indent)) {
                return LineKind.FRAME;
            }
            if (t.charAt(0) == '\t' && setting(t, indent, true)) {
                return LineKind.SETTING;
            }
            return LineKind.EVENT;
        }
        char c = t.charAt(0);
        if (c == '#' && phpFrame(t) || rubyLocation(t, 0) || t.equals("Stack trace:") || t.equals("[stacktrace]")) {
            return LineKind.FRAME;
        }
        if (nodeHeader(t)) {
            nodeSource = true;
            return LineKind.FRAME;
        }
        dump = t.endsWith("values: ") || t.endsWith("values:");
        return LineKind.EVENT;
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
        int rb = t.indexOf(".rb:", from);
        int space = t.indexOf(' ', from);
        if (rb < 0 || space >= 0 && space < rb) {
            return false;
        }
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
        int colon = t.lastIndexOf(':');
        if (colon < 0 || colon == t.length() - 1 || t.indexOf(' ') >= 0) {
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
}
