package dev.guard.init;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Test helper: the repository's deployment files, parsed the way Compose and kubectl read them
 * (SnakeYAML, the YAML engine under jackson-dataformat-yaml, resolves anchors, aliases and
 * {@code <<} merge keys as they do), and small typed accessors over the resulting maps.
 */
final class Manifests {
    private Manifests() {}

    static List<Map<String, Object>> loadAll(Path file) throws IOException {
        List<Map<String, Object>> docs = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file)) {
            for (Object doc : new Yaml(new LoaderOptions()).loadAll(r)) {
                if (doc != null) {
                    docs.add(map(doc, file + " document"));
                }
            }
        }
        return docs;
    }

    static Map<String, Object> load(Path file) throws IOException {
        List<Map<String, Object>> all = loadAll(file);
        if (all.size() != 1) {
            throw new AssertionError(file + ": expected one YAML document, found " + all.size());
        }
        return all.get(0);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o, String what) {
        if (!(o instanceof Map)) {
            throw new AssertionError(what + " is not a mapping: " + o);
        }
        return (Map<String, Object>) o;
    }

    static Map<String, Object> map(Map<String, Object> m, String key) {
        return map(m.get(key), key);
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o, String what) {
        if (!(o instanceof List)) {
            throw new AssertionError(what + " is not a list (exec form is a YAML list): " + o);
        }
        return (List<Object>) o;
    }

    /** Every string value anywhere below {@code o} (keys excluded), for "no sleep anywhere" checks. */
    static List<String> strings(Object o) {
        List<String> out = new ArrayList<>();
        collect(o, out);
        return out;
    }

    private static void collect(Object o, List<String> out) {
        if (o instanceof Map<?, ?> m) {
            m.values().forEach(v -> collect(v, out));
        } else if (o instanceof List<?> l) {
            l.forEach(v -> collect(v, out));
        } else if (o != null) {
            out.add(String.valueOf(o));
        }
    }

    /** Seconds of a Compose duration ({@code 90s}, {@code 2m}, {@code 1m30s}). */
    static long composeSeconds(Object value) {
        String s = String.valueOf(value).trim();
        long total = 0;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(h|ms|m|s)").matcher(s);
        int end = 0;
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            total += switch (m.group(2)) {
                case "h" -> n * 3600;
                case "m" -> n * 60;
                case "s" -> n;
                default -> 0;
            };
            end = m.end();
        }
        if (end != s.length() || s.isEmpty()) {
            throw new AssertionError("not a Compose duration: '" + s + "'");
        }
        return total;
    }
}
