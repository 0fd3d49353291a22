package dev.guard.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;

/**
 * The package cycles among compiled classes, as the JDK's own {@code jdeps} sees them: each cycle
 * is a set of packages that reach each other through their classes' references (a strongly
 * connected component of more than one package). A module's test names the cycles it accepts, so
 * a new one fails the build with the packages and the classes that close it.
 */
public final class PackageCycles {

    private final Map<String, Set<String>> edges;
    private final String classLevel;

    private PackageCycles(Map<String, Set<String>> edges, String classLevel) {
        this.edges = edges;
        this.classLevel = classLevel;
    }

    /** Reads the references among packages starting with {@code prefix} in these class directories. */
    public static PackageCycles of(String prefix, Path... classDirs) {
        Map<String, Set<String>> edges = new TreeMap<>();
        StringBuilder classes = new StringBuilder();
        for (Path dir : classDirs) {
            if (!Files.isDirectory(dir)) {
                throw new IllegalStateException(dir.toAbsolutePath() + " is not a directory of compiled classes; "
                        + "run the module's compile first (./mvnw -pl <module> test-compile)");
            }
            for (String line : jdeps(dir)) {
                String[] words = line.trim().split("\\s+");
                if (words.length >= 3 && words[1].equals("->") && words[0].startsWith(prefix) && words[2].startsWith(prefix)) {
                    classes.append(words[0]).append(" -> ").append(words[2]).append('\n');
                    String from = packageOf(words[0]);
                    String to = packageOf(words[2]);
                    if (!from.equals(to)) {
                        edges.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
                    }
                }
            }
        }
        return new PackageCycles(edges, classes.toString());
    }

    /** The class-to-class references of jdeps {@code -verbose:class}; the package graph is read from them. */
    private static List<String> jdeps(Path dir) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new IllegalStateException(
                "the jdeps tool is not in this runtime (" + System.getProperty("java.home") + "); run the tests on a full JDK 17+"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:class", "-filter:none", dir.toString());
        if (rc != 0) {
            throw new IllegalStateException("jdeps -verbose:class " + dir + " ended with " + rc + ": " + err);
        }
        return out.toString().lines().toList();
    }

    /**
     * Fails unless the package cycles among the module's compiled classes ({@code target/classes}, the
     * working directory of a module's tests) are exactly {@code accepted}; the message lists the classes
     * that close each cycle found.
     */
    public static void assertOnly(Set<Set<String>> accepted) {
        PackageCycles found = of("dev.guard", Path.of("target/classes"));
        Set<Set<String>> cycles = found.cycles();
        org.junit.jupiter.api.Assertions.assertEquals(accepted, cycles, () -> "package cycles changed; the classes that close each one:\n"
                + cycles.stream().map(c -> c + ":\n  " + found.explain(c)).collect(java.util.stream.Collectors.joining("\n")));
    }

    /** Every cycle, each as its sorted package names. */
    public Set<Set<String>> cycles() {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new java.util.HashSet<>();
        Set<Set<String>> found = new java.util.LinkedHashSet<>();
        for (String v : edges.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, index, low, stack, onStack, found);
            }
        }
        return found;
    }

    private void connect(String v, Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
                         Set<String> onStack, Set<Set<String>> found) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : edges.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, index, low, stack, onStack, found);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                found.add(component);
            }
        }
    }

    /** The class references that tie a cycle's packages together, one per line, for a failure message. */
    public String explain(Set<String> cycle) {
        List<String> out = new ArrayList<>();
        for (String line : classLevel.lines().toList()) {
            String[] ends = line.split(" -> ");
            String from = packageOf(ends[0]);
            String to = packageOf(ends[1]);
            if (!from.equals(to) && cycle.contains(from) && cycle.contains(to) && !out.contains(line)) {
                out.add(line);
            }
        }
        return String.join("\n  ", out);
    }

    private static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }
}
