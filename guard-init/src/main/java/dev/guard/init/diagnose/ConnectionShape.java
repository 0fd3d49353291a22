package dev.guard.init.diagnose;

import dev.guard.endpoint.Loopback;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A connection failure told from its shape, for clients no parser knows: a line that says how the
 * connect failed (refused, timed out, unknown host, unreachable, cannot assign, errno 111/110/99,
 * ECONNREFUSED, or only "failed to connect" / "cannot reach") and, when it does, the host it was
 * about, however it is written: a URL, {@code host=kafka:9092}, {@code ('10.0.0.5', 6379)},
 * {@code redis/10.0.0.5:6379}, {@code [::1]:6379}, {@code ::1:6379}, {@code redis-primary:6380}.
 * The client parsers run first and name the client; this one only needs the words.
 *
 * <p>{@code ERROR acme.Queue: cannot reach redis-primary:6380 (connection refused)} is a refused
 * connect to redis-primary:6380, though no client here writes it.
 */
final class ConnectionShape implements LineParser {
    private static final long[] DNS = Words.mask(Word.UNKNOWN_HOST, Word.UNKNOWNHOST, Word.NAME_RESOLUTION,
            Word.NOT_KNOWN, Word.NO_SUCH_HOST, Word.GETADDRINFO, Word.ENOTFOUND, Word.EAI_AGAIN, Word.EAI_NONAME,
            Word.COULD_NOT_RESOLVE, Word.COULDNT_RESOLVE, Word.DNS_RESOLUTION, Word.FAILED_TO_RESOLVE, Word.CANNOT_RESOLVE, Word.CANT_RESOLVE, Word.UNABLE_TO_RESOLVE,
            Word.NXDOMAIN, Word.NO_ADDRESS);
    private static final long[] REFUSED = Words.mask(Word.REFUSED);
    private static final long[] TIMEOUT = Words.mask(Word.TIMED_OUT, Word.TIMEOUT, Word.ETIMEDOUT);
    private static final long[] UNREACHABLE = Words.mask(Word.UNREACHABLE, Word.UNREACH, Word.NO_ROUTE,
            Word.CANNOT_ASSIGN, Word.EADDRNOTAVAIL);
    private static final long[] VAGUE = Words.mask(Word.FAILED_TO_CONNECT, Word.UNABLE_TO_CONNECT, Word.COULD_NOT_CONNECT,
            Word.COULDNT_CONNECT, Word.CANT_CONNECT, Word.CANNOT_CONNECT, Word.CANNOT_REACH, Word.CANT_REACH,
            Word.COULD_NOT_REACH, Word.UNABLE_TO_REACH, Word.CONNECTION_FAILED, Word.CONNECT_FAILED,
            Word.FAILED_TO_ESTABLISH, Word.COULD_NOT_BE_ESTABLISHED, Word.CONNECTION_ERROR, Word.CONNECTIONERROR,
            Word.ERROR_CONNECTING, Word.CONNECT_ERROR, Word.CONNECTION_ATTEMPT_FAILED, Word.NOT_REACHABLE);
    private static final long[] ERRNO_WORDS = Words.mask(Word.ERRNO, Word.ERROR, Word.CODE);

    private static final Pattern ERRNO = Pattern.compile(
            "(?i)(?:errno|error|error code|code)\\s*[:=]?\\s*\\[?(-?\\d{1,5})\\]?(?!\\d|\\.\\d)");
    private static final Pattern URL = Pattern.compile(
            "\\b[A-Za-z][A-Za-z0-9+.\\-]*://(?:[^@\\s/]*@)?(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9_.\\-]+)(?::(\\d{1,5}))?");
    private static final Pattern HOST_FIELD = Pattern.compile(
            "(?i)\\bhost(?:name)?\\s*[=:]\\s*['\"]?(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9_.\\-]+)['\"]?(?::(\\d{1,5}))?");
    private static final Pattern LOOKUP = Pattern.compile("\\blookup ([A-Za-z0-9_\\-]+(?:\\.[A-Za-z0-9_\\-]+)*)(?: on |: )");
    private static final Pattern PORT_FIELD = Pattern.compile("(?i)\\bport\\s*[=:]\\s*['\"]?(\\d{1,5})\\b");
    private static final Pattern TUPLE = Pattern.compile("\\(\\s*['\"]([^'\"\\s]+)['\"]\\s*,\\s*(\\d{1,5})\\s*[,)]");
    private static final Pattern NAME_SLASH_IP = Pattern.compile(
            "(?<![\\w.\\-])([A-Za-z0-9_.\\-]*)/(\\d{1,3}(?:\\.\\d{1,3}){3}|[0-9a-fA-F]*:[0-9a-fA-F:.]*|<unresolved>):(\\d{1,5})\\b");
    private static final Pattern BRACKETED = Pattern.compile("\\[([0-9A-Fa-f:.]+)\\]:(\\d{1,5})\\b");
    private static final Pattern BARE_IPV6 = Pattern.compile(
            "(?<![\\w:.])((?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}):(\\d{1,5})(?![\\w:])");
    private static final Pattern HOST_PORT = Pattern.compile(
            "(?<![\\w.\\-:/@])([A-Za-z0-9_\\-]+(?:\\.[A-Za-z0-9_\\-]+)*):(\\d{1,5})(?!\\w|[:.]\\d)");
    private static final Pattern SOURCE_FILE = Pattern.compile(
            "(?i).*\\.(java|kt|scala|groovy|py|pyc|go|rb|js|ts|mjs|c|cc|cpp|h|rs|cs|php|ex|exs|erl|clj|lua|pl|sh|log|txt|json|yaml|yml)$");
    private static final Pattern DOTTED_QUAD = Pattern.compile("\\d{1,3}(?:\\.\\d{1,3}){3}");
    private static final Set<String> NOT_HOSTS = Set.of("line", "col", "column", "offset", "pos", "position",
            "attempt", "retry", "try", "code", "status", "errno", "error", "port", "timeout", "id", "pid", "tid",
            "thread", "http", "https", "step", "page", "size", "count", "version");

    /** A connect failure's kind from its words; null when the line names none. */
    enum Kind {
        DNS(Signal.Type.DNS), REFUSED(Signal.Type.REFUSED), TIMEOUT(Signal.Type.TIMEOUT),
        UNREACHABLE(Signal.Type.UNAVAILABLE), VAGUE(Signal.Type.UNAVAILABLE);

        final Signal.Type type;

        Kind(Signal.Type type) {
            this.type = type;
        }
    }

    @Override
    public List<Signal> parse(LogLine line, Words.Found w) {
        String t = line.text();
        Kind kind = kind(w, t);
        if (kind == null || kind == Kind.VAGUE && quietLevel(t)) {
            // pika at INFO: "AMQP stack terminated, failed to connect, or aborted: opened=True ..."
            return List.of();
        }
        String[] hp = target(t, w);
        if (hp == null) {
            // an unnamed timeout must be a connect's: "job 7 timed out" is not
            if (kind == Kind.TIMEOUT && !w.has(Word.CONNECT) && !w.has(Word.ETIMEDOUT) && !hasErrno(w, t, "110")) {
                return List.of();
            }
            return List.of(Signal.of(kind.type, line, "shape"));
        }
        int port = hp[1] == null ? 0 : Integer.parseInt(hp[1]);
        if (port > 65535) {
            port = 0;
        }
        return List.of(Signal.at(kind.type, line, hp[0], port, "shape"));
    }

    /** True when the line was logged at INFO, DEBUG or TRACE: "failed to connect" there is a summary, not a failure. */
    static boolean quietLevel(String t) {
        int end = Math.min(t.length(), 80);
        for (String level : new String[] {"INFO", "DEBUG", "TRACE", "level=info", "level=debug", "\"level\":\"info\""}) {
            int i = t.indexOf(level);
            if (i >= 0 && i < end && (i == 0 || !Character.isLetter(t.charAt(i - 1)))
                    && (i + level.length() >= t.length() || !Character.isLetter(t.charAt(i + level.length())))) {
                return true;
            }
        }
        return false;
    }

    /** The kind of failure the line's words say, errno first; null when they say none. */
    static Kind kind(Words.Found w, String t) {
        if (w.any(ERRNO_WORDS)) {
            Matcher e = ERRNO.matcher(t);
            while (e.find()) {
                switch (e.group(1)) {
                    case "111", "61", "10061" -> {
                        return Kind.REFUSED;
                    }
                    case "110", "60", "10060" -> {
                        return Kind.TIMEOUT;
                    }
                    case "-2", "-3", "-5", "8", "11001" -> {
                        return Kind.DNS;
                    }
                    case "99", "113", "101", "49", "65", "51" -> {
                        return Kind.UNREACHABLE;
                    }
                    default -> { }
                }
            }
        }
        if (w.any(DNS)) {
            return Kind.DNS;
        }
        if (w.any(REFUSED)) {
            return Kind.REFUSED;
        }
        if (w.any(TIMEOUT) && !onlyTimeoutSettings(t)) {
            return Kind.TIMEOUT;
        }
        if (w.any(UNREACHABLE)) {
            return Kind.UNREACHABLE;
        }
        return w.any(VAGUE) ? Kind.VAGUE : null;
    }

    /**
     * True when every "timeout" in the line is a setting's name with its value, not a timeout that
     * happened: Sidekiq's boot line {@code redis options {:url=>"redis://redis:6379/0", :connect_timeout=>2}},
     * {@code socket_connect_timeout=2}, {@code "connectTimeout":2000}, {@code timeout.ms = null}.
     */
    static boolean onlyTimeoutSettings(String t) {
        String l = t.toLowerCase(Locale.ROOT);
        if (l.contains("timed out") || l.contains("etimedout")) {
            return false;
        }
        int i = l.indexOf("timeout");
        if (i < 0) {
            return false;
        }
        for (; i >= 0; i = l.indexOf("timeout", i + 7)) {
            boolean named = i > 0 && (Character.isLetterOrDigit(l.charAt(i - 1)) || l.charAt(i - 1) == '_');
            int j = i + 7;
            while (j < l.length() && (Character.isLetterOrDigit(l.charAt(j)) || l.charAt(j) == '_' || l.charAt(j) == '.')) {
                named = true;
                j++;
            }
            if (j < l.length() && (l.charAt(j) == '"' || l.charAt(j) == '\'')) {
                j++;
            }
            while (j < l.length() && l.charAt(j) == ' ') {
                j++;
            }
            boolean assigned;
            if (l.startsWith("=>", j) || j < l.length() && l.charAt(j) == '=') {
                assigned = true;
                j += l.startsWith("=>", j) ? 2 : 1;
            } else {
                assigned = named && j < l.length() && l.charAt(j) == ':';
                j++;
            }
            if (!assigned) {
                return false;
            }
            while (j < l.length() && l.charAt(j) == ' ') {
                j++;
            }
            if (j >= l.length() || !Character.isDigit(l.charAt(j)) && !l.startsWith("null", j) && !l.startsWith("none", j)
                    && !l.startsWith("nil", j)) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasErrno(Words.Found w, String t, String n) {
        if (!w.any(ERRNO_WORDS)) {
            return false;
        }
        Matcher e = ERRNO.matcher(t);
        while (e.find()) {
            if (e.group(1).equals(n)) {
                return true;
            }
        }
        return false;
    }

    /** {host, port or null} the line names; a name before an address when it gives both; null when none. */
    static String[] target(String t) {
        return target(t, Words.in(t));
    }

    /**
     * {@link #target(String)} of a line whose words are known: each pattern is tried only where
     * its literal part is (a C1-compiled regular expression costs more than the search for it).
     */
    static String[] target(String t, Words.Found w) {
        String[] web = null;
        Matcher m = URL.matcher(t);
        boolean scheme = w.has(Word.SCHEME_SEPARATOR);
        while (scheme && m.find()) {
            if (plausible(m.group(1))) {
                boolean http = m.group().regionMatches(true, 0, "http", 0, 4);
                if (!http) {
                    return new String[] {m.group(1), m.group(2)};
                }
                // a link to documentation in the message is the last thing to take
                web = web == null ? new String[] {m.group(1), m.group(2)} : web;
            }
        }
        m = LOOKUP.matcher(t);
        if (w.has(Word.LOOKUP) && m.find() && plausible(m.group(1))) {
            // Go's resolver: "dial tcp: lookup redis-primary on 10.96.0.10:53: no such host" is about redis-primary
            return new String[] {m.group(1), null};
        }
        m = HOST_FIELD.matcher(t);
        if (w.has(Word.HOST) && m.find() && plausible(m.group(1))) {
            String port = m.group(2);
            if (port == null) {
                Matcher p = PORT_FIELD.matcher(t);
                port = p.find() ? p.group(1) : null;
            }
            return new String[] {m.group(1), port};
        }
        m = NAME_SLASH_IP.matcher(t);
        if (t.indexOf('/') >= 0 && m.find()) {
            String host = m.group(1).isEmpty() ? m.group(2) : m.group(1);
            if (!host.equals("<unresolved>")) {
                return new String[] {host, m.group(3)};
            }
        }
        m = TUPLE.matcher(t);
        if (t.indexOf('(') >= 0 && m.find() && plausible(m.group(1))) {
            return new String[] {m.group(1), m.group(2)};
        }
        m = BRACKETED.matcher(t);
        if (t.indexOf("]:") >= 0 && m.find()) {
            return new String[] {m.group(1), m.group(2)};
        }
        m = BARE_IPV6.matcher(t);
        int second = t.indexOf(':', t.indexOf(':') + 1);
        // two groups ending in a colon, then the port's
        boolean threeColons = second > 0 && t.indexOf(':', second + 1) > 0;
        while (threeColons && m.find()) {
            String a = m.group(1);
            if ((a.contains("::") || a.chars().filter(c -> c == ':').count() == 7) && Loopback.isIpLiteral(a)) {
                return new String[] {a, m.group(2)};
            }
        }
        String[] ip = null;
        m = HOST_PORT.matcher(t);
        boolean port = colonDigit(t);
        while (port && m.find()) {
            String h = m.group(1);
            if (!plausible(h)) {
                continue;
            }
            if (h.chars().anyMatch(Character::isLetter)) {
                return new String[] {h, m.group(2)};
            }
            if (ip == null) {
                ip = new String[] {h, m.group(2)};
            }
        }
        return ip != null ? ip : web;
    }

    /** True when a colon is followed by a digit somewhere in {@code t}: a port can follow a name. */
    private static boolean colonDigit(String t) {
        for (int i = t.indexOf(':'); i >= 0 && i + 1 < t.length(); i = t.indexOf(':', i + 1)) {
            char c = t.charAt(i + 1);
            if (c >= '0' && c <= '9') {
                return true;
            }
        }
        return false;
    }

    /** Could this be a host: a DNS name with a letter, or an IP address; not a source file or a field name. */
    private static boolean plausible(String h) {
        if (h == null || h.isEmpty() || h.startsWith("[")) {
            return h != null && h.startsWith("[");
        }
        if (NOT_HOSTS.contains(h.toLowerCase(Locale.ROOT)) || SOURCE_FILE.matcher(h).matches()) {
            return false;
        }
        if (h.chars().anyMatch(Character::isLetter)) {
            return !h.contains(":") || Loopback.isIpLiteral(h);
        }
        // a number alone is a time or a count, not inet_aton's address
        return DOTTED_QUAD.matcher(h).matches() || h.contains(":") && Loopback.isIpLiteral(h);
    }
}
