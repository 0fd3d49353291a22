package dev.guard.init.lint;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * One file given to lint, read as what it is: a Dockerfile (by its name, or by a first instruction
 * {@code FROM}), else YAML whose documents are Kubernetes objects ({@code apiVersion} and
 * {@code kind}), Compose files ({@code services:}), or neither (skipped, and said).
 */
final class Input {

    enum Kind { DOCKERFILE, YAML }

    final String name;
    final Kind kind;
    final String text;
    /** YAML documents, in order (empty documents dropped). */
    final List<Y> documents = new ArrayList<>();
    /** Rules allowed by a comment ({@code # guard-init lint: allow RULE[, RULE] (why)}), by the comment's line. */
    final java.util.Map<Integer, java.util.Set<String>> allowed = new java.util.HashMap<>();

    private static final Pattern ALLOW = Pattern.compile("#\\s*guard-init lint:\\s*allow\\s+([a-z0-9-]+(?:\\s*,\\s*[a-z0-9-]+)*)");

    private static final Pattern FIRST_INSTRUCTION = Pattern.compile("(?is)\\A(\\s*(#[^\\n]*)?\\n)*\\s*(FROM|ARG)\\s");

    private Input(String name, Kind kind, String text) {
        this.name = name;
        this.kind = kind;
        this.text = text;
    }

    /**
     * @throws IllegalArgumentException with the parser's words and line, for YAML that does not parse
     */
    static Input read(String name, String text) {
        String base = name.substring(name.lastIndexOf('/') + 1);
        boolean dockerfile = base.equals("Dockerfile") || base.startsWith("Dockerfile.") || base.endsWith(".Dockerfile")
                || base.equals("Containerfile") || (!base.endsWith(".yml") && !base.endsWith(".yaml")
                && FIRST_INSTRUCTION.matcher(text).find());
        Input in = new Input(name, dockerfile ? Kind.DOCKERFILE : Kind.YAML, text);
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            java.util.regex.Matcher m = ALLOW.matcher(lines[i]);
            if (m.find()) {
                in.allowed.put(i + 1, java.util.Set.of(m.group(1).split("\\s*,\\s*")));
            }
        }
        if (!dockerfile) {
            LoaderOptions options = new LoaderOptions();
            options.setMaxAliasesForCollections(200);
            options.setCodePointLimit(64 * 1024 * 1024);
            try {
                // the composer alone: the node tree with its marks, no Java objects built (and none of
                // SnakeYAML's bean introspection, whose java.beans the image's runtime leaves out)
                Composer composer = new Composer(new ParserImpl(new StreamReader(new StringReader(text)), options),
                        new Resolver(), options);
                while (composer.checkNode()) {
                    Node n = composer.getNode();
                    if (n != null) {
                        in.documents.add(Y.of(n));
                    }
                }
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(name + " is not YAML that lint can read: "
                        + String.valueOf(e.getMessage()).replace('\n', ' '), e);
            }
        }
        return in;
    }

    /** Whether a comment on the finding's line or the line above it allows its rule. */
    boolean allows(Finding f) {
        for (int l : new int[] {f.line(), f.line() - 1}) {
            java.util.Set<String> rules = allowed.get(l);
            if (rules != null && rules.contains(f.rule())) {
                return true;
            }
        }
        return false;
    }

    /** Whether a document is a Compose file. */
    static boolean isCompose(Y doc) {
        return doc.isMap() && doc.get("services") != null && doc.get("services").isMap() && doc.get("kind") == null;
    }

    /** Whether a document is a Kubernetes object. */
    static boolean isKubernetes(Y doc) {
        return doc.isMap() && doc.text("apiVersion") != null && doc.text("kind") != null;
    }
}
