package dev.guard.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Measures the PLACEHOLDER rule on settings of public projects' shipped templates: the manifest
 * {@code guard-core/src/test/corpus/env-settings/manifest.tsv} names each setting (repository,
 * commit, file, line, name) and a person's label; the values are read from snapshots of those
 * repositories (the {@code fetch} verb of the tool library lays them out under
 * {@code /work/.mirror/owner+name/}), never copied into this repository. Each setting is required
 * with no declared type, as {@code check-env} would, and counts as "flagged" when guard reports
 * PLACEHOLDER for it. Prints, per set (learn, heldout), precision and recall against the
 * {@code placeholder} label, and every miss and false alarm.
 *
 * <pre>guard-core/src/test/corpus/env-settings/measure.sh [mirror-root]</pre>
 */
public final class PlaceholderCorpus {

    record Row(String set, String repo, String commit, String path, int line, String name, String kind, String label,
            String note) {}

    record Outcome(Row row, String value, boolean flagged, String rules) {}

    private PlaceholderCorpus() {}

    public static void main(String[] args) throws Exception {
        Path manifest = Path.of(args.length > 0 ? args[0] : "guard-core/src/test/corpus/env-settings/manifest.tsv");
        Path mirrors = Path.of(args.length > 1 ? args[1] : "/work/.mirror");
        List<Row> rows = read(manifest);
        Map<String, Map<String, List<String>>> files = new LinkedHashMap<>();
        List<Outcome> outcomes = new ArrayList<>();
        int unreadable = 0;
        for (Row r : rows) {
            List<String> lines = files.computeIfAbsent(r.repo(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(r.commit() + ":" + r.path(), k -> show(mirrors, r));
            String value = lines == null || r.line() > lines.size() ? null : valueOf(lines.get(r.line() - 1), r.kind());
            if (value == null) {
                unreadable++;
                System.out.println("unreadable: " + r.repo() + " " + r.path() + ":" + r.line() + " " + r.name());
                continue;
            }
            ConfigReport report = ConfigGuard.builder().environment(Map.of(r.name(), value)).inContainer(true)
                    .requireEnv(r.name()).build().check();
            List<String> rules = report.errors().stream().map(v -> v.rule().name()).distinct().sorted().toList();
            outcomes.add(new Outcome(r, value, rules.contains("PLACEHOLDER"), String.join(",", rules)));
        }
        System.out.println("settings: " + rows.size() + " in the manifest, " + outcomes.size() + " read, " + unreadable
                + " unreadable");
        for (String set : List.of("learn", "heldout", "all")) {
            List<Outcome> in = outcomes.stream().filter(o -> set.equals("all") || o.row().set().equals(set))
                    .filter(o -> o.row().label().equals("placeholder") || o.row().label().equals("good")
                            || o.row().label().equals("dialect"))
                    .toList();
            int tp = 0;
            int fp = 0;
            int fn = 0;
            int tn = 0;
            for (Outcome o : in) {
                boolean placeholder = isPlaceholder(o.row());
                if (o.flagged() && placeholder) {
                    tp++;
                } else if (o.flagged()) {
                    fp++;
                } else if (placeholder) {
                    fn++;
                } else {
                    tn++;
                }
            }
            System.out.printf("%-8s projects=%d settings=%d placeholders=%d good=%d | flagged right=%d false alarms=%d missed=%d"
                            + " | precision %s recall %s%n", set,
                    in.stream().map(o -> o.row().repo()).distinct().count(), in.size(), tp + fn, fp + tn, tp, fp, fn,
                    ratio(tp, tp + fp), ratio(tp, tp + fn));
        }
        List<Outcome> dialects = outcomes.stream().filter(o -> o.row().label().equals("dialect")).toList();
        System.out.println("dialect rows: " + dialects.size() + ", refused by any rule: "
                + dialects.stream().filter(o -> !o.rules().isEmpty()).count());
        for (Outcome o : dialects) {
            System.out.println("  " + o.row().repo() + " " + o.row().name() + " = " + Redaction.maskValue(o.row().name(), o.value())
                    + "  [" + (o.rules().isEmpty() ? "accepted" : o.rules()) + "] " + o.row().note());
        }
        Map<String, List<Outcome>> wrong = new TreeMap<>();
        for (Outcome o : outcomes) {
            String label = o.row().label();
            if (!label.equals("placeholder") && !label.equals("good") && !label.equals("dialect")) {
                continue;
            }
            boolean placeholder = isPlaceholder(o.row());
            if (o.flagged() != placeholder) {
                wrong.computeIfAbsent((placeholder ? "missed" : "false alarm") + " (" + o.row().set() + ")", k -> new ArrayList<>())
                        .add(o);
            }
        }
        wrong.forEach((what, list) -> {
            System.out.println(what + ": " + list.size());
            for (Outcome o : list) {
                System.out.println("  " + o.row().repo() + " " + o.row().path() + ":" + o.row().line() + " " + o.row().name()
                        + " = " + Redaction.maskValue(o.row().name(), o.value()) + "  [" + o.rules() + "] "
                        + o.row().note());
            }
        });
    }

    /** A dialect row counts as a placeholder when its note says the value is otherwise one. */
    private static boolean isPlaceholder(Row r) {
        return r.label().equals("placeholder") || (r.label().equals("dialect") && r.note().toLowerCase().contains("placeholder"));
    }

    private static String ratio(int a, int b) {
        return b == 0 ? "n/a" : String.format("%d/%d = %.1f%%", a, b, 100.0 * a / b);
    }

    static List<Row> read(Path manifest) throws IOException {
        List<Row> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(manifest, StandardCharsets.UTF_8);
        for (String l : lines.subList(1, lines.size())) {
            if (l.isBlank() || l.startsWith("#")) {
                continue;
            }
            String[] c = l.split("\t", -1);
            out.add(new Row(c[0], c[1], c[2], c[3], Integer.parseInt(c[4].trim()), c[5], c[6], c[7], c.length > 8 ? c[8] : ""));
        }
        return out;
    }

    /** The file at the row's commit, from the snapshot under {@code mirrors/owner+name/}; null when it cannot be read. */
    private static List<String> show(Path mirrors, Row r) {
        Path root = mirrors.resolve(r.repo().replace('/', '+'));
        Path gitDir;
        try (Stream<Path> s = Files.walk(root, 3)) {
            gitDir = s.filter(p -> Files.isRegularFile(p.resolve("HEAD")) && Files.isDirectory(p.resolve("objects")))
                    .findFirst().orElse(null);
        } catch (IOException e) {
            return null;
        }
        if (gitDir == null) {
            return null;
        }
        try {
            Process p = new ProcessBuilder("git", "--git-dir=" + gitDir, "show", r.commit() + ":" + r.path())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = p.getInputStream().readAllBytes();
            return p.waitFor() == 0 ? new String(out, StandardCharsets.UTF_8).lines().toList() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * The value a line sets: {@code NAME=value} ({@code export}, quotes and a trailing {@code # comment}
     * dropped), {@code - NAME=value} or {@code NAME: value} in Compose, {@code key: value} in Helm
     * values and Kubernetes manifests.
     */
    static String valueOf(String line, String kind) {
        String l = line.strip();
        if (l.startsWith("- ")) {
            l = l.substring(2).strip();
        }
        if (l.startsWith("export ")) {
            l = l.substring(7).strip();
        }
        l = unquote(l);
        int eq = l.indexOf('=');
        int colon = l.indexOf(": ");
        if (l.endsWith(":")) {
            colon = l.length() - 1;
        }
        String value;
        if (kind.equals("env") || (kind.equals("compose") && eq >= 0 && (colon < 0 || eq < colon))) {
            if (eq < 0) {
                return null;
            }
            value = l.substring(eq + 1);
        } else {
            if (colon < 0) {
                return null;
            }
            value = l.substring(colon + 1);
        }
        value = value.strip();
        if (value.startsWith("\"") || value.startsWith("'")) {
            char q = value.charAt(0);
            int end = value.indexOf(q, 1);
            return end < 0 ? value.substring(1) : value.substring(1, end);
        }
        int comment = value.indexOf(" #");
        return (comment >= 0 ? value.substring(0, comment) : value).strip();
    }

    private static String unquote(String l) {
        if (l.length() >= 2 && (l.startsWith("\"") && l.endsWith("\"") || l.startsWith("'") && l.endsWith("'"))) {
            return l.substring(1, l.length() - 1);
        }
        return l;
    }
}
