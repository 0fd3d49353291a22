package dev.guard.init.diagnose;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints a {@link Diagnosis}: for people (first line {@code cause: id[, id...]}, then evidence as
 * {@code file:line}, counts, what to do next in fix order) or as JSON.
 */
public final class DiagnosisReport {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private DiagnosisReport() {}

    /** The human report; its first line is {@link Diagnosis#causeLine()}. */
    public static String human(Diagnosis d) {
        StringBuilder b = new StringBuilder();
        b.append(d.causeLine()).append('\n');
        if (d.causes().size() > 1) {
            b.append("fix order: ");
            for (int i = 0; i < d.next().size(); i++) {
                Diagnosis.NextStep n = d.next().get(i);
                b.append(i == 0 ? "" : ", then ").append(n.cause());
                if (!n.groups().isEmpty()) {
                    b.append(" (").append(String.join(", ", n.groups())).append(')');
                }
            }
            b.append('\n');
        }
        for (GroupFinding g : d.groups()) {
            b.append('\n').append(g.group()).append(" [").append(g.role()).append("]: ")
                    .append(g.causes().isEmpty() ? "no problem found" : String.join(", ", g.causes())).append('\n');
            for (String r : g.reasons()) {
                b.append("  - ").append(r).append('\n');
            }
            if (!g.jobs().source().equals("none")) {
                b.append("  jobs: received ").append(g.jobs().received()).append(", processed ")
                        .append(g.jobs().processed());
                if (g.jobs().source().equals("ledger")) {
                    b.append(", rejected ").append(g.jobs().rejected()).append(", failed ").append(g.jobs().failed())
                            .append(", handed back ").append(g.jobs().handedBack())
                            .append(", missing ").append(g.jobs().missing());
                }
                b.append(" (").append(g.jobs().source()).append(")\n");
            }
            if (!g.evidence().isEmpty()) {
                b.append("  evidence:\n");
                int w = g.evidence().stream().mapToInt(e -> e.at().length()).max().orElse(0);
                for (Evidence e : g.evidence()) {
                    b.append("    ").append(pad(e.at(), w)).append("  ").append(e.text()).append('\n');
                    b.append("    ").append(pad("", w)).append("  ^ ").append(e.why()).append('\n');
                }
            }
        }
        if (!d.hosts().isEmpty()) {
            b.append("\nconnection errors per host (lines, not attempts):\n");
            for (HostErrors h : d.hosts()) {
                b.append("  ").append(h.group()).append("  ").append(h.target()).append("  ").append(h.lines())
                        .append(" lines  [").append(h.category()).append("]  first ")
                        .append(h.first() == null ? "" : h.first() + " ").append('(').append(h.firstAt())
                        .append("), last ").append(h.last() == null ? "" : h.last() + " ").append('(')
                        .append(h.lastAt()).append(")  ").append(h.stopped() ? "then got through" : "never got through")
                        .append('\n');
            }
        }
        if (!d.jobs().source().equals("none")) {
            b.append("\njobs (all workers): received ").append(d.jobs().received()).append(", processed ")
                    .append(d.jobs().processed()).append('\n');
        }
        b.append("\nnext, in fix order (connectivity, then config, then contract):\n");
        int i = 1;
        for (Diagnosis.NextStep n : d.next()) {
            b.append("  ").append(i++).append(". ").append(n.cause());
            if (!n.stage().equals("none")) {
                b.append(" [").append(n.stage()).append(']');
            }
            if (!n.groups().isEmpty()) {
                b.append(" (").append(String.join(", ", n.groups())).append(')');
            }
            b.append(": ").append(n.action()).append('\n');
        }
        b.append("\nfiles read:\n");
        for (FileSummary f : d.files()) {
            b.append("  ").append(f.file());
            if (f.service() != null) {
                b.append(" [").append(f.service()).append(']');
            }
            b.append(": ").append(f.kind()).append(", ").append(f.lines()).append(" lines, ").append(f.timestamps())
                    .append(" with timestamps\n");
        }
        if (!d.endpoints().isEmpty()) {
            b.append("endpoints checked against: ").append(String.join(", ", d.endpoints())).append('\n');
        }
        for (String n : d.notes()) {
            b.append("note: ").append(n).append('\n');
        }
        return b.toString();
    }

    /** The JSON report: {@code cause} (the first line's text), {@code causes}, and the rest of the diagnosis. */
    public static String json(Diagnosis d) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("cause", d.causeLine());
        root.put("causes", d.causes());
        root.put("groups", d.groups());
        root.put("hosts", d.hosts());
        root.put("jobs", d.jobs());
        root.put("next", d.next());
        root.put("files", d.files());
        root.put("endpoints", d.endpoints());
        root.put("notes", d.notes());
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the diagnosis as JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static String pad(String s, int w) {
        return s + " ".repeat(Math.max(0, w - s.length()));
    }

    static List<String> lines(String s) {
        return List.of(s.split("\n"));
    }
}
