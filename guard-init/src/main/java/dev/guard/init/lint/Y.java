package dev.guard.init.lint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A YAML node as SnakeYAML composed it, with its line: lint reads the node tree (not Java maps)
 * so that every finding names the line of what it found. Merge keys ({@code <<: *defaults}, which
 * Compose files use for shared settings) are followed: a key of the mapping itself wins over the
 * same key merged in.
 */
final class Y {

    private final Node node;

    private Y(Node node) {
        this.node = node;
    }

    static Y of(Node node) {
        return node == null ? null : new Y(node);
    }

    /** 1-based line where the node starts. */
    int line() {
        return node.getStartMark().getLine() + 1;
    }

    boolean isMap() {
        return node instanceof MappingNode;
    }

    boolean isSeq() {
        return node instanceof SequenceNode;
    }

    boolean isScalar() {
        return node instanceof ScalarNode;
    }

    /** The scalar's text; null for a mapping or a sequence, and for YAML's null ({@code ~}, empty). */
    String text() {
        if (node instanceof ScalarNode s) {
            String v = s.getValue();
            return s.getTag().getValue().endsWith(":null") ? null : v;
        }
        return null;
    }

    /** The value under {@code key}, merge keys followed; null when absent or this is not a mapping. */
    Y get(String key) {
        return entries().get(key);
    }

    /** Text under {@code key}, or null. */
    String text(String key) {
        Y v = get(key);
        return v == null ? null : v.text();
    }

    /** The mapping's entries in file order (merged ones after the mapping's own), keys as text. */
    Map<String, Y> entries() {
        Map<String, Y> out = new LinkedHashMap<>();
        if (!(node instanceof MappingNode m)) {
            return out;
        }
        List<Node> merged = new ArrayList<>();
        for (NodeTuple t : m.getValue()) {
            String k = t.getKeyNode() instanceof ScalarNode s ? s.getValue() : null;
            if (k == null) {
                continue;
            }
            if ("<<".equals(k)) {
                Node v = t.getValueNode();
                if (v instanceof SequenceNode seq) {
                    merged.addAll(seq.getValue());
                } else {
                    merged.add(v);
                }
                continue;
            }
            out.put(k, new Y(t.getValueNode()));
        }
        for (Node n : merged) {
            new Y(n).entries().forEach(out::putIfAbsent);
        }
        return out;
    }

    /** The 1-based line of {@code key} in this mapping (not merged ones), or the mapping's own line. */
    int keyLine(String key) {
        if (node instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode s && key.equals(s.getValue())) {
                    return s.getStartMark().getLine() + 1;
                }
            }
        }
        return line();
    }

    /** The sequence's items; empty for anything else. */
    List<Y> items() {
        List<Y> out = new ArrayList<>();
        if (node instanceof SequenceNode s) {
            for (Node n : s.getValue()) {
                out.add(new Y(n));
            }
        }
        return out;
    }

    /** A scalar as one string, a sequence of scalars as its items: how Compose and Kubernetes write commands and lists. */
    List<String> strings() {
        List<String> out = new ArrayList<>();
        if (isScalar()) {
            if (text() != null) {
                out.add(text());
            }
        } else {
            for (Y i : items()) {
                if (i.text() != null) {
                    out.add(i.text());
                }
            }
        }
        return out;
    }
}
