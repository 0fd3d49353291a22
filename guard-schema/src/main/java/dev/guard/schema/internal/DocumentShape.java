package dev.guard.schema.internal;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * The shape of a 2019-09 / 2020-12 schema document for {@link RenameHints}: the object schemas that apply
 * at an instance pointer, followed through {@code properties}, {@code prefixItems} and {@code items}, and
 * through {@code $ref} (in the document or a registered one), {@code allOf}/{@code anyOf}/{@code oneOf},
 * {@code then}/{@code else} and {@code dependentSchemas}. Best effort, as hints are: a schema it cannot
 * follow gives fewer declared names, never a failure.
 */
final class DocumentShape implements RenameHints.Shape {

    private static final int MAX_DEPTH = 16;

    private final Object root;
    private final URI base;
    private final Map<URI, Object> byUri;

    DocumentShape(Object root, URI base, Map<URI, Object> byUri) {
        this.root = root;
        this.base = base;
        this.byUri = byUri;
    }

    @Override
    public RenameHints.Declared at(String pointer) {
        List<JSONObject> current = new ArrayList<>();
        unwrap(root, current, 0);
        for (String seg : Json.tokens(pointer)) {
            List<JSONObject> next = new ArrayList<>();
            for (JSONObject s : current) {
                if (s.opt("properties") instanceof JSONObject props && props.has(seg)) {
                    unwrap(props.opt(seg), next, 0);
                }
                int index = index(seg);
                if (index >= 0) {
                    JSONArray prefix = s.opt("prefixItems") instanceof JSONArray a ? a
                            : s.opt("items") instanceof JSONArray a2 ? a2 : null;
                    if (prefix != null && index < prefix.length()) {
                        unwrap(prefix.opt(index), next, 0);
                    } else if (s.opt("items") instanceof JSONObject items) {
                        unwrap(items, next, 0);
                    }
                }
            }
            current = next;
        }
        Set<String> declared = new HashSet<>();
        Set<String> required = new HashSet<>();
        for (JSONObject s : current) {
            if (s.opt("properties") instanceof JSONObject props) {
                declared.addAll(props.keySet());
            }
            if (s.opt("required") instanceof JSONArray req) {
                for (int i = 0; i < req.length(); i++) {
                    if (req.opt(i) instanceof String name) {
                        required.add(name);
                    }
                }
            }
        }
        return new RenameHints.Declared(declared, required);
    }

    private static int index(String seg) {
        if (seg.isEmpty() || seg.length() > 9) {
            return -1;
        }
        for (int i = 0; i < seg.length(); i++) {
            if (seg.charAt(i) < '0' || seg.charAt(i) > '9') {
                return -1;
            }
        }
        return Integer.parseInt(seg);
    }

    private void unwrap(Object node, List<JSONObject> out, int depth) {
        if (!(node instanceof JSONObject s) || depth > MAX_DEPTH) {
            return;
        }
        out.add(s);
        if (s.opt("$ref") instanceof String ref) {
            unwrap(target(ref), out, depth + 1);
        }
        for (String combinator : new String[] {"allOf", "anyOf", "oneOf"}) {
            if (s.opt(combinator) instanceof JSONArray a) {
                for (int i = 0; i < a.length(); i++) {
                    unwrap(a.opt(i), out, depth + 1);
                }
            }
        }
        unwrap(s.opt("then"), out, depth + 1);
        unwrap(s.opt("else"), out, depth + 1);
        if (s.opt("dependentSchemas") instanceof JSONObject dep) {
            for (String k : dep.keySet()) {
                unwrap(dep.opt(k), out, depth + 1);
            }
        }
    }

    private Object target(String ref) {
        try {
            URI resolved = SchemaTree.resolve(base, ref);
            URI doc = SchemaTree.withoutFragment(resolved);
            Object document = doc.toString().isEmpty() || doc.equals(base) ? root : byUri.get(doc);
            String fragment = resolved.getRawFragment();
            if (document == null || fragment == null || fragment.isEmpty()) {
                return document;
            }
            return fragment.startsWith("/") ? SchemaTree.follow(document, fragment) : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
