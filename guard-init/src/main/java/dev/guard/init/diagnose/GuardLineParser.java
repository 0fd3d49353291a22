package dev.guard.init.diagnose;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * guard's own lines, which name target, state and attempt so this is trivial:
 * <ul>
 *   <li>readiness: {@code redis redis:6379 loading (dataset 40%), attempt 7, 3.1s of 60s}; for Sentinel and
 *       Cluster targets {@code redis-sentinel s1:26379,s2:26379#mymaster announced (...)} and
 *       {@code redis-cluster redis:7000 topology (cluster_state:fail ...)}</li>
 *   <li>config guard ({@code dev.guard.config.ConfigGuard}): the boot log line {@code config ERROR LOOPBACK:
 *       CACHE_URL points at ...}, the report / exception line {@code ERROR NAME_DRIFT: CACHE_URL is not set ...},
 *       and free-form {@code config guard: ... violates ...}</li>
 *   <li>the CLI's first line {@code guard-init wait: 1 target (from arguments), deadline 60s (from --timeout),
 *       attempt timeout 2s: redis://redis:6379}: the URL resolved at boot</li>
 *   <li>ledger summary: {@code received=100 processed=91 rejected=9 failed=0 handed_back=0 missing=0}</li>
 * </ul>
 */
final class GuardLineParser implements LineParser {
    /**
     * ReadinessGate's log line {@code redis redis:6379 loading (dataset 40% loaded), attempt 7, 3.1s of 60s},
     * the CLI's progress line {@code   [1.1s] redis redis:6379: refused (...), attempt 1} and ReadinessReport's
     * {@code   FAIL redis redis:6379: loading (...), attempt 7, 3.1s}.
     */
    static final Pattern READINESS = Pattern.compile(
            "\\b(redis-sentinel|redis-cluster|redis|amqp|rabbitmq|nats|kafka|tcp|http)\\s+(\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9_.\\-]+):(\\d{1,5})"
                    + "(?:,[^\\s:#]+:\\d{1,5})*(?:#[^\\s:]+)?:?\\s+"
                    + "(ready|loading|refused|dns|timeout|auth|tls|protocol|missing|config|topology|announced)\\b(?:\\s*\\((.*)\\))?,\\s*attempt (\\d+)"
                    + "(?:,\\s*([\\d.]+)s(?: of ([\\d.]+)s)?)?");
    private static final Pattern CONFIG_GUARD = Pattern.compile(
            "(?i)\\bconfig(?:[ -]guard)?\\b.*?\\b(violat\\w*|rule)\\b");
    /** ConfigGuard's Violation: "[config ]SEVERITY RULE: SETTING problem ...". */
    private static final List<String> RULES = java.util.Arrays.stream(dev.guard.config.Violation.Rule.values())
            .map(Enum::name).toList();
    private static final Pattern VIOLATION = Pattern.compile(
            "\\b(ERROR|WARNING) (" + String.join("|", RULES) + "): (\\S+)");
    private static final Pattern SETTING = Pattern.compile("\\b([A-Z][A-Z0-9_]{2,})\\b");
    private static final Pattern LEDGER = Pattern.compile("\\breceived=(\\d{1,9})\\s+processed=(\\d{1,9})");

    @Override
    public List<Signal> parse(LogLine line, Words.Found w) {
        String t = line.text();
        List<Signal> out = new ArrayList<>(1);
        // each pattern only where its literal part is: most lines of a large capture are none of these
        Matcher m;
        if (w.has(Word.ATTEMPT) && (m = READINESS.matcher(t)).find()) {
            Signal.Type type = switch (m.group(4)) {
                case "ready" -> Signal.Type.READY;
                case "loading" -> Signal.Type.LOADING;
                case "refused" -> Signal.Type.REFUSED;
                case "dns" -> Signal.Type.DNS;
                case "timeout" -> Signal.Type.TIMEOUT;
                case "auth" -> Signal.Type.AUTH;
                case "config" -> Signal.Type.CONFIG_VIOLATION;
                case "announced" -> Signal.Type.ANNOUNCED;
                default -> Signal.Type.UNAVAILABLE;
            };
            String detail = type == Signal.Type.CONFIG_VIOLATION ? m.group(1) + " target " + m.group(2)
                    : "attempt " + m.group(6) + (m.group(7) == null ? "" : ", " + m.group(7) + "s")
                    + (m.group(8) == null ? "" : " of " + m.group(8) + "s");
            out.add(Signal.at(type, line, m.group(2), Integer.parseInt(m.group(3)), "guard").withDetail(detail));
            return out;
        }
        if (w.has(Word.GUARD_INIT_WAIT) && t.contains("guard-init wait: ") && t.contains(", attempt timeout ")) {
            // the CLI's first line names what it waits for: the URL resolved at boot, not a connect timeout
            dev.guard.endpoint.Endpoint e = ApplicationLineParser.brokerUrl(t);
            if (e != null) {
                out.add(Signal.at(Signal.Type.BOOT_TARGET, line, e.host(), e.portGiven() ? e.port() : 0, "guard")
                        .withDetail(e.scheme()));
            }
            return out;
        }
        Matcher v;
        if ((w.has(Word.ERROR_SPACE) && namesRule(t, "ERROR ") || w.has(Word.WARNING_SPACE) && namesRule(t, "WARNING "))
                && (v = VIOLATION.matcher(t)).find() && (v.group(1).equals("ERROR") || v.group(2).equals("LOOPBACK"))) {
            out.add(Signal.of(Signal.Type.CONFIG_VIOLATION, line, "guard").withDetail(v.group(3) + " (" + v.group(2) + ")"));
            return out;
        }
        if (w.has(Word.CONFIG) && t.toLowerCase(java.util.Locale.ROOT).contains("config guard") && CONFIG_GUARD.matcher(t).find()) {
            Matcher s = SETTING.matcher(t);
            out.add(Signal.of(Signal.Type.CONFIG_VIOLATION, line, "guard").withDetail(s.find() ? s.group(1) : null));
            return out;
        }
        if (w.has(Word.RECEIVED_EQ) && (m = LEDGER.matcher(t)).find()) {
            out.add(Signal.of(Signal.Type.LEDGER, line, "guard").withDetail(t.substring(m.start())));
        }
        return out;
    }

    /** True when a rule of {@link #VIOLATION} follows {@code severity} somewhere: most ERROR lines are no violation. */
    private static boolean namesRule(String t, String severity) {
        for (int i = t.indexOf(severity); i >= 0; i = t.indexOf(severity, i + 1)) {
            int at = i + severity.length();
            for (String rule : RULES) {
                if (t.startsWith(rule, at)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The value of {@code name=N} in a ledger line, 0 when absent. */
    static int ledgerValue(String ledger, String name) {
        Matcher m = Pattern.compile("\\b" + name + "=(\\d{1,9})").matcher(ledger);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }
}
