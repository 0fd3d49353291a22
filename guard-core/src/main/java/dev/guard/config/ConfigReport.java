package dev.guard.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The result of {@link ConfigGuard#check()}: every declared setting with its origin and redacted
 * value, and every violation. Immutable; all text is already redacted.
 */
public final class ConfigReport {

    /** Created on the first {@link #toJson}: a report only rendered as text never starts Jackson. */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    }

    private final List<Setting> settings;
    private final List<Violation> violations;
    private final boolean inContainer;
    private final String containerEvidence;
    private final List<String> loopbackAllowed;

    ConfigReport(List<Setting> settings, List<Violation> violations, String containerEvidence, List<String> loopbackAllowed) {
        this.settings = List.copyOf(settings);
        this.violations = List.copyOf(violations);
        this.inContainer = containerEvidence != null;
        this.containerEvidence = containerEvidence;
        this.loopbackAllowed = List.copyOf(loopbackAllowed);
    }

    /** Every violation found, errors first, in declaration order. */
    public List<Violation> violations() {
        return violations;
    }

    /** Only the {@link Severity#ERROR} violations. */
    public List<Violation> errors() {
        return violations.stream().filter(v -> v.severity() == Severity.ERROR).toList();
    }

    /** Only the {@link Severity#WARNING} violations. */
    public List<Violation> warnings() {
        return violations.stream().filter(v -> v.severity() == Severity.WARNING).toList();
    }

    /** Every declared setting, in declaration order. */
    public List<Setting> settings() {
        return settings;
    }

    /** True when there is no {@link Severity#ERROR} violation (warnings allowed). */
    public boolean ok() {
        return errors().isEmpty();
    }

    /** Whether the check ran as inside a container (which changes what loopback means). */
    public boolean inContainer() {
        return inContainer;
    }

    /** Why the check took this for a container ({@code /.dockerenv exists}), or empty outside one. */
    public java.util.Optional<String> containerEvidence() {
        return java.util.Optional.ofNullable(containerEvidence);
    }

    /** Whether loopback was allowed for every setting. */
    public boolean allowLoopback() {
        return loopbackAllowed.contains("*");
    }

    /** The settings loopback was allowed for ({@code "*"}: all of them). */
    public List<String> loopbackAllowedFor() {
        return loopbackAllowed;
    }

    /** The report for humans: a summary line, one line per setting, one line per violation. */
    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append("config guard: ").append(settings.size()).append(settings.size() == 1 ? " setting, " : " settings, ")
                .append(errors().size()).append(errors().size() == 1 ? " error, " : " errors, ")
                .append(warnings().size()).append(warnings().size() == 1 ? " warning" : " warnings")
                .append(inContainer ? " (in a container: " + containerEvidence + ")" : " (not in a container)")
                .append(allowLoopback() ? ", loopback allowed" : loopbackAllowed.isEmpty() ? ""
                        : ", loopback allowed for " + String.join(", ", loopbackAllowed)).append('\n');
        int width = settings.stream().mapToInt(s -> s.name().length()).max().orElse(0);
        int originWidth = settings.stream().mapToInt(s -> s.origin().length()).max().orElse(0);
        for (Setting s : settings) {
            sb.append("  ").append(pad(s.name(), width)).append("  ").append(pad(s.origin(), originWidth)).append("  ")
                    .append(s.redactedValue() == null ? "(unset)" : s.redactedValue());
            if (s.inferred()) {
                sb.append("  (checked as ").append(s.type().withArticle()).append(": ").append(s.inferredBecause()).append(')');
            }
            sb.append('\n');
        }
        for (Violation v : violations) {
            sb.append(v.severity()).append(' ').append(v.rule()).append(": ").append(v.message()).append('\n');
        }
        return sb.toString();
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    /**
     * The report as JSON: {@code ok}, {@code inContainer}, {@code containerEvidence}, {@code allowLoopback},
     * {@code loopbackAllowedFor}, {@code settings}
     * (name, type, inferred, inferredBecause, origin, source, value) and {@code violations} (setting, rule, severity, origin,
     * found, problem, action, message).
     */
    public String toJson() {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("ok", ok());
        root.put("inContainer", inContainer);
        if (containerEvidence != null) {
            root.put("containerEvidence", containerEvidence);
        }
        root.put("allowLoopback", allowLoopback());
        loopbackAllowed.stream().filter(n -> !n.equals("*")).forEach(root.withArray("loopbackAllowedFor")::add);
        root.put("errors", errors().size());
        root.put("warnings", warnings().size());
        ArrayNode s = root.putArray("settings");
        for (Setting setting : settings) {
            ObjectNode n = s.addObject();
            n.put("name", setting.name());
            n.put("type", setting.type().name());
            n.put("inferred", setting.inferred());
            if (setting.inferred()) {
                n.put("inferredBecause", setting.inferredBecause());
            }
            n.put("origin", setting.origin());
            n.put("source", setting.source().name());
            n.put("value", setting.redactedValue());
        }
        ArrayNode vs = root.putArray("violations");
        for (Violation v : violations) {
            ObjectNode n = vs.addObject();
            n.put("setting", v.setting());
            n.put("rule", v.rule().name());
            n.put("severity", v.severity().name());
            n.put("origin", v.origin());
            n.put("found", v.found());
            n.put("problem", v.problem());
            n.put("action", v.action());
            n.put("message", v.message());
        }
        try {
            return Json.MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return render();
    }
}
