package dev.guard.endpoint;

import dev.guard.config.Redaction;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * guard's one parser for endpoint values: a URL of any scheme ({@code redis://:pw@redis:6379/0},
 * {@code postgres://db/app}, {@code jdbc:postgresql://db:5432/app}), a URL with a host list
 * ({@code kafka://b1:9092,b2:9092}, {@code redis-sentinel://s1,s2/0#primary}), bare
 * {@code host:port} or {@code host}, {@code user:pass@host:port} (as Spring's
 * {@code spring.rabbitmq.addresses} allows), IPv6 literals bracketed ({@code [2001:db8::1]:6379})
 * or, without a port, not, and comma-separated lists of all of these (kombu's {@code ;} between URLs too). Pure parsing: nothing here
 * opens a connection or looks up a name.
 *
 * <p>Exception messages name the entry and what is wrong with it, and never carry a password:
 * the offending value is masked with {@link Redaction#maskSettingValue(String)}, and a
 * fragment (a port, a host) is quoted only from the part after the user info.
 */
public final class Endpoints {

    private static final String SCHEME_TEXT = "(?:jdbc:)?[A-Za-z][A-Za-z0-9+._\\-]*";
    private static final Pattern SCHEME = Pattern.compile(SCHEME_TEXT, Pattern.CASE_INSENSITIVE);
    private static final Pattern STARTS_WITH_SCHEME = Pattern.compile(SCHEME_TEXT + "://.*", Pattern.DOTALL);
    /**
     * A comma or semicolon that starts a new URL: {@code nats://a:4222,nats://b:4222}, and kombu's
     * (Celery's) failover and Sentinel lists {@code sentinel://a:26379;sentinel://b:26379}.
     */
    private static final Pattern URL_START = Pattern.compile("[,;]\\s*(?=" + SCHEME_TEXT + "://)");

    private Endpoints() {}

    /**
     * Parses one endpoint or a comma-separated list of them (see the class comment). In
     * {@code kafka://b1:9092,b2:9092} every host takes the URL's scheme and user info.
     *
     * @throws IllegalArgumentException naming the entry and the fault: empty, whitespace, bad
     *                                  scheme, no host, bad host name, bad IPv6, bad port
     */
    public static List<Endpoint> parse(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("no endpoint: the value is empty");
        }
        String all = value.trim();
        List<Endpoint> out = new ArrayList<>();
        int entry = 0;
        for (String chunk : URL_START.split(all, -1)) {
            String c = chunk.trim();
            if (c.contains("://")) {
                entry++;
                out.addAll(parseUrl(c, all, entry));
                continue;
            }
            // ZooKeeper's ensemble (ZOOKEEPER_SERVERS=zoo1:2888:3888;zoo2:2888:3888): ';' between entries, none with user info
            boolean ensemble = c.indexOf(';') >= 0 && c.indexOf('@') < 0;
            List<String> items = ensemble ? List.of(c.split("[;,]", -1)) : bareItems(c);
            for (String item : items) {
                entry++;
                String i = item.trim();
                if (i.isEmpty()) {
                    throw stray(all, entry);
                }
                out.add(parseBare(i));
            }
        }
        return List.copyOf(out);
    }

    private static final Pattern HOST_PORT_ITEM = Pattern.compile("\\s*(?:\\[[0-9A-Fa-f:.%\\w]+]|[A-Za-z0-9_.\\-]+)(?::\\d+)?\\s*");

    /**
     * The comma-separated entries of a value without a scheme. A comma inside a raw password
     * ({@code guest:ab,cd@rabbit:5672}, {@code guest:a@b,c@rabbit}) does not end an entry: an entry
     * whose part after its last '@' (or whole, without one) is not {@code host[:port]} is joined to
     * the next while an '@' follows, so no part of a password is parsed (and quoted) as a host or a
     * port.
     */
    /**
     * The entries of a comma-separated list of endpoints without a scheme, as {@link #parse} splits
     * it: a comma inside a raw password does not end an entry (see below).
     */
    public static List<String> entries(String value) {
        return bareItems(value);
    }

    private static List<String> bareItems(String c) {
        String[] parts = c.split(",", -1);
        List<String> items = new ArrayList<>();
        StringBuilder pending = null;
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (pending != null) {
                pending.append(',').append(part);
                if (part.indexOf('@') >= 0) {
                    items.add(pending.toString());
                    pending = null;
                }
                continue;
            }
            boolean atLater = false;
            for (int j = i + 1; j < parts.length && !atLater; j++) {
                atLater = parts[j].indexOf('@') >= 0;
            }
            String hostSide = part.substring(part.lastIndexOf('@') + 1);
            if (atLater && !part.isBlank() && !HOST_PORT_ITEM.matcher(hostSide).matches()) {
                pending = new StringBuilder(part);
            } else {
                items.add(part);
            }
        }
        if (pending != null) {
            items.add(pending.toString());
        }
        return items;
    }

    /** True when {@code value} starts with a syntactically valid {@code scheme://}. */
    public static boolean startsWithScheme(String value) {
        return value != null && STARTS_WITH_SCHEME.matcher(value).matches();
    }

    /**
     * Parses {@code host:port}, {@code [v6]:port} or {@code host}; {@code defaultPort} when no port
     * is written ({@code -1}: the port is required).
     */
    public static Endpoint parseHostPort(String text, int defaultPort) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("no endpoint: the value is empty");
        }
        Endpoint e = parseBare(text.trim());
        if (e.hasPort()) {
            return e;
        }
        if (defaultPort < 0) {
            throw new IllegalArgumentException("'" + Redaction.maskSettingValue(text.trim()) + "' has no port (expected host:port)");
        }
        return new Endpoint(e.scheme(), e.user(), e.password(), e.host(), defaultPort, false, e.rest());
    }

    /** {@link #parseHostPort} for each entry of a comma-separated list. */
    public static List<Endpoint> parseHostPorts(String text, int defaultPort) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty host list (expected host:port[,host:port])");
        }
        List<Endpoint> out = new ArrayList<>();
        List<String> items = bareItems(text);
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).isBlank()) {
                throw stray(text.trim(), i + 1);
            }
            out.add(parseHostPort(items.get(i), defaultPort));
        }
        return List.copyOf(out);
    }

    private static IllegalArgumentException stray(String all, int entry) {
        return new IllegalArgumentException("entry " + entry + " of '" + Redaction.maskSettingValue(all) + "' is empty (stray comma?)");
    }

    private static List<Endpoint> parseUrl(String written, String all, int entry) {
        // kafka://b1:9092, b2:9092: white space after a comma of the host list is no fault
        String url = written.replaceAll(",\\s+", ",");
        int sep = url.indexOf("://");
        String shown = Redaction.maskSettingValue(url);
        if (url.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("'" + shown + "' contains whitespace");
        }
        String s = url.substring(0, sep);
        if (!SCHEME.matcher(s).matches()) {
            throw new IllegalArgumentException("'" + shown + "' does not start with a valid URL scheme");
        }
        String scheme = s.toLowerCase(Locale.ROOT);
        Scheme known = Scheme.of(scheme).orElse(null);
        int defaultPort = known == null ? -1 : known.defaultPort();
        String after = url.substring(sep + 3);
        int end = indexOfAny(after, "/?#");
        int lastAt = after.lastIndexOf('@');
        boolean atLater = end >= 0 && lastAt > end;
        if (atLater && looksLikeRawUserInfo(scheme, after.substring(end, lastAt), after.substring(lastAt + 1))) {
            throw rawUserInfo(shown);
        }
        String authority = end >= 0 ? after.substring(0, end) : after;
        String rest = end >= 0 ? after.substring(end) : "";
        UserInfo info = UserInfo.split(authority);
        String user = info.user();
        String password = info.password();
        authority = info.rest();
        if (authority.isEmpty()) {
            if (known != null && known.hostless()) {
                return List.of(new Endpoint(scheme, user, password, "", known.defaultPort(), false, rest));
            }
            throw new IllegalArgumentException("no host in '" + shown + "'");
        }
        List<Endpoint> out = new ArrayList<>();
        String[] hosts = authority.split(",", -1);
        for (int i = 0; i < hosts.length; i++) {
            if (hosts[i].isEmpty()) {
                throw i == hosts.length - 1 && hosts.length > 1 ? stray(all, entry + i) : new IllegalArgumentException("no host in '" + shown + "'");
            }
            HostAndPort hp;
            try {
                hp = hostAndPort(hosts[i], shown, true);
            } catch (IllegalArgumentException e) {
                // ://user:pa/ss/x@host: what was cut off as the authority is the user info and part of a raw password
                throw atLater ? rawUserInfo(shown) : e;
            }
            out.add(new Endpoint(scheme, user, password, hp.host, hp.port > 0 ? hp.port : defaultPort, hp.port > 0, rest));
        }
        return out;
    }

    private static final Pattern HOST_THEN_REST = Pattern.compile("(?:\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9_.\\-]+)(?::\\d*)?(?:[/?#].*)?");

    /**
     * {@code ://u:p/ss@host/db}: the part before the last '@' has a '/', '?' or '#' and the part after
     * it is a host. The path or query of a broker's or database's URL never holds an '@', so for
     * every scheme but HTTP's that is user info; an HTTP URL's path may ({@code /npm/pkg@1.2.3}, a
     * query's {@code ?to=a@b.io}), so there only a single segment with no query pairs counts.
     */
    private static boolean looksLikeRawUserInfo(String scheme, String between, String tail) {
        if (!HOST_THEN_REST.matcher(tail).matches()) {
            return false;
        }
        boolean http = scheme.equals("http") || scheme.equals("https") || scheme.equals("ws") || scheme.equals("wss");
        return !http || (between.indexOf('=') < 0 && between.indexOf('&') < 0 && between.indexOf('/', 1) < 0);
    }

    private static IllegalArgumentException rawUserInfo(String shown) {
        return new IllegalArgumentException("the user info of '" + shown + "' holds a raw '/', '?' or '#' (in the password?):"
                + " percent-encode them as %2F, %3F and %23, or every client will read a wrong host");
    }

    private static final Pattern ZOOKEEPER_ENTRY = Pattern.compile("[A-Za-z0-9_.\\-]+:\\d{1,5}:\\d{1,5}");

    private static Endpoint parseBare(String item) {
        String shown = Redaction.maskSettingValue(item);
        if (item.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("'" + shown + "' contains whitespace");
        }
        UserInfo info = UserInfo.split(item);
        String user = info.user();
        String password = info.password();
        String authority = info.rest();
        if (authority.contains("/")) {
            throw new IllegalArgumentException("'" + shown + "' is neither a URL (scheme://host:port) nor host:port");
        }
        if (authority.isEmpty()) {
            throw new IllegalArgumentException("no host in '" + shown + "'");
        }
        HostAndPort hp = hostAndPort(authority, shown, false);
        return new Endpoint(null, user, password, hp.host, hp.port, hp.port > 0, "");
    }

    private record HostAndPort(String host, int port) {}

    /** {@code user:password@rest} split at the last '@'; user and password null when absent. */
    private record UserInfo(String user, String password, String rest) {
        static UserInfo split(String authority) {
            int at = authority.lastIndexOf('@');
            if (at < 0) {
                return new UserInfo(null, null, authority);
            }
            String info = authority.substring(0, at);
            int colon = info.indexOf(':');
            return new UserInfo(colon >= 0 ? info.substring(0, colon) : info, colon >= 0 ? info.substring(colon + 1) : null,
                    authority.substring(at + 1));
        }
    }

    private static HostAndPort hostAndPort(String authority, String shown, boolean inUrl) {
        String host;
        String portText = null;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("unclosed '[' in '" + shown + "': write IPv6 as [2001:db8::1]:6379");
            }
            host = authority.substring(1, close);
            String after = authority.substring(close + 1);
            if (!after.isEmpty()) {
                if (!after.startsWith(":")) {
                    throw new IllegalArgumentException("unexpected '" + after + "' after ']' in '" + shown + "'");
                }
                portText = after.substring(1);
            }
            if (!isIpv6Literal(host)) {
                throw new IllegalArgumentException("'" + host + "' in '" + shown + "' is not an IPv6 address");
            }
        } else {
            int colons = (int) authority.chars().filter(c -> c == ':').count();
            if (colons > 1) {
                if (!inUrl && isIpv6Literal(authority)) {
                    return new HostAndPort(authority, -1);
                }
                if (!inUrl && ZOOKEEPER_ENTRY.matcher(authority).matches()) {
                    // ZooKeeper's host:peer-port:election-port (ZOOKEEPER_SERVERS): the host is checked, the peer port kept
                    return hostAndPort(authority.substring(0, authority.lastIndexOf(':')), shown, false);
                }
                throw new IllegalArgumentException("'" + shown + "' has more than one ':'; write IPv6 as [2001:db8::1]:6379");
            }
            int colon = authority.indexOf(':');
            host = colon >= 0 ? authority.substring(0, colon) : authority;
            portText = colon >= 0 ? authority.substring(colon + 1) : null;
            if (host.isEmpty()) {
                throw new IllegalArgumentException("no host in '" + shown + "'");
            }
            if (!Loopback.HOST_NAME.matcher(host).matches()) {
                throw new IllegalArgumentException("'" + Redaction.maskText(host) + "' in '" + shown + "' is not a valid host name");
            }
        }
        int port = -1;
        if (portText != null) {
            if (portText.isEmpty() || !portText.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("port '" + portText + "' in '" + shown + "' is not a number");
            }
            long p = portText.length() > 6 ? Long.MAX_VALUE : Long.parseLong(portText);
            if (p < 1 || p > 65535) {
                throw new IllegalArgumentException("port " + portText + " in '" + shown + "' is out of range 1-65535");
            }
            port = (int) p;
        }
        return new HostAndPort(host, port);
    }

    private static int indexOfAny(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    /** True for an IPv6 literal without brackets ({@code 2001:db8::1}, {@code fe80::1%eth0}). Never looks a name up. */
    static boolean isIpv6Literal(String host) {
        if (host.isEmpty() || host.indexOf(':') < 0 || !host.chars().allMatch(c -> Character.digit(c, 16) >= 0
                || c == ':' || c == '.' || c == '%' || Character.isLetterOrDigit(c))) {
            return false;
        }
        try {
            // a literal containing ':' is parsed, never looked up
            InetAddress.getByName("[" + host + "]");
            return true;
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
    }
}
