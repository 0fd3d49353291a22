package dev.guard.schema.internal;

import dev.guard.schema.Draft;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * One schema document as JSON Schema draft-04/06/07 reads it: which keywords hold subschemas, the
 * base URI of each subschema (changed by {@code $id}, or {@code id} in draft-04), every embedded
 * resource (a subschema with its own {@code $id}) and every {@code $ref} with its JSON pointer and the
 * absolute URI it resolves to. Values that are data, not schemas ({@code enum}, {@code const},
 * {@code default}, property names under {@code properties}), are never read as schemas, so a property
 * named {@code $ref} or an {@code $id} inside an {@code enum} is not taken for a reference or an id.
 *
 * <p>In drafts 4 to 7, walking also corrects two things everit gets wrong, in the document before
 * everit loads it: an {@code $id} beside a {@code $ref} is removed (those drafts ignore every sibling of
 * {@code $ref}), and a fragment-only {@code $ref} inside a subschema with its own {@code $id} is made
 * absolute (everit would follow it from the document's root instead of from that subschema). In
 * 2019-09 and 2020-12 the document is left as it is: {@code $ref} is a keyword like the others there
 * (its siblings apply, an {@code $id} beside it changes the base it resolves against), names come from
 * {@code $anchor} and {@code $dynamicAnchor}, and {@code $dynamicRef} / {@code $recursiveRef} are
 * checked like {@code $ref} for where they first lead.
 */
public final class SchemaTree {

    /** A {@code $ref}: where it is, what it says, the absolute URI it means (null when it cannot be resolved). */
    public record Ref(String pointer, String value, URI resolved, String problem) {}

    /** A regular expression of {@code pattern} or a {@code patternProperties} key, and where it is. */
    public record Regex(String pointer, String regex) {}

    /** A subschema with its own id, reachable by that absolute URI. */
    public record Resource(URI uri, String pointer, Object schema) {}

    private static final Set<String> SINGLE = Set.of("additionalItems", "additionalProperties", "not", "contains",
            "propertyNames", "if", "then", "else", "items");
    private static final Set<String> ARRAYS = Set.of("allOf", "anyOf", "oneOf", "items");
    private static final Set<String> MAPS = Set.of("properties", "patternProperties", "definitions", "dependencies");
    /** 2019-09 and 2020-12 (their applicator, unevaluated and content vocabularies; {@code definitions} still read). */
    private static final Set<String> SINGLE_2019 = Set.of("additionalItems", "additionalProperties", "not", "contains",
            "propertyNames", "if", "then", "else", "items", "unevaluatedItems", "unevaluatedProperties", "contentSchema");
    private static final Set<String> ARRAYS_2019 = Set.of("allOf", "anyOf", "oneOf", "items", "prefixItems");
    private static final Set<String> MAPS_2019 = Set.of("properties", "patternProperties", "definitions", "$defs",
            "dependentSchemas");
    private static final List<String> REFS_2019 = List.of("$ref", "$dynamicRef", "$recursiveRef");

    private final Draft draft;
    private final List<Ref> refs = new ArrayList<>();
    private final List<Resource> resources = new ArrayList<>();
    private final List<Regex> regexes = new ArrayList<>();
    private URI documentBase;

    private SchemaTree(Draft draft) {
        this.draft = draft;
    }

    /**
     * Walks a schema document (a JSONObject or a Boolean) whose retrieval URI is {@code base} (may be
     * null: then only fragments and absolute references resolve).
     */
    public static SchemaTree walk(Object schema, URI base, Draft draft) {
        SchemaTree t = new SchemaTree(draft);
        t.documentBase = base;
        t.visit(schema, base, "#", 0);
        return t;
    }

    public List<Ref> refs() {
        return refs;
    }

    public List<Resource> resources() {
        return resources;
    }

    public List<Regex> regexes() {
        return regexes;
    }

    private void visit(Object node, URI base, String pointer, int depth) {
        if (!(node instanceof JSONObject o) || depth > 512) {
            return;
        }
        if (!draft.legacy()) {
            visit2019(o, base, pointer, depth);
            return;
        }
        Object ref = o.opt("$ref");
        URI here = base;
        if (ref instanceof String r) {
            o.remove(draft.idKeyword()); // siblings of $ref are ignored, $id included
            URI resolved = null;
            String problem = null;
            try {
                resolved = resolve(base, r);
            } catch (IllegalArgumentException e) {
                problem = e.getMessage();
            }
            refs.add(new Ref(pointer + "/$ref", r, resolved, problem));
            if (resolved != null && resolved.isAbsolute() && r.startsWith("#") && !java.util.Objects.equals(base, documentBase)) {
                // inside an embedded resource: everit would follow "#..." from the document's root, not from this resource
                o.put("$ref", resolved.toString());
            }
        } else if (o.opt(draft.idKeyword()) instanceof String id) {
            try {
                here = resolve(base, id);
                resources.add(new Resource(here, pointer, o));
                if (here.getRawFragment() != null) {
                    here = base; // "$id": "#name" names this subschema, the base stays
                }
            } catch (IllegalArgumentException e) {
                // an id that is not a URI: everit reports it when loading
            }
        }
        children(o, here, pointer, depth, SINGLE, ARRAYS, MAPS);
    }

    /** The regular expressions of a subschema, and its subschemas visited: those under the draft's keywords. */
    private void children(JSONObject o, URI here, String pointer, int depth, Set<String> single, Set<String> arrays,
                          Set<String> maps) {
        for (String key : o.keySet()) {
            Object child = o.opt(key);
            String at = pointer + "/" + escape(key);
            if (key.equals("pattern") && child instanceof String regex) {
                regexes.add(new Regex(at, regex));
            }
            if (key.equals("patternProperties") && child instanceof JSONObject pp) {
                for (String regex : pp.keySet()) {
                    regexes.add(new Regex(at + "/" + escape(regex), regex));
                }
            }
            if (arrays.contains(key) && child instanceof JSONArray a) {
                for (int i = 0; i < a.length(); i++) {
                    visit(a.opt(i), here, at + "/" + i, depth + 1);
                }
            } else if (maps.contains(key) && child instanceof JSONObject m) {
                for (String name : m.keySet()) {
                    visit(m.opt(name), here, at + "/" + escape(name), depth + 1);
                }
            } else if (single.contains(key)) {
                visit(child, here, at, depth + 1);
            }
        }
    }

    /** 2019-09 and later: the id first (it is the base of this subschema's references), then anchors and references. */
    private void visit2019(JSONObject o, URI base, String pointer, int depth) {
        URI here = base;
        if (o.opt("$id") instanceof String id) {
            try {
                URI u = resolve(base, id);
                if (u.getRawFragment() == null || u.getRawFragment().isEmpty()) {
                    here = withoutFragment(u);
                    resources.add(new Resource(here, pointer, o));
                }
            } catch (IllegalArgumentException e) {
                // an id that is not a URI: the engine reports it when loading
            }
        }
        for (String anchorKeyword : List.of("$anchor", "$dynamicAnchor")) {
            if (o.opt(anchorKeyword) instanceof String anchor) {
                try {
                    resources.add(new Resource(resolve(here, "#" + anchor), pointer, o));
                } catch (IllegalArgumentException e) {
                    // not a valid anchor name: the engine reports it
                }
            }
        }
        for (String refKeyword : REFS_2019) {
            if (o.opt(refKeyword) instanceof String r) {
                URI resolved = null;
                String problem = null;
                try {
                    resolved = resolve(here, r);
                } catch (IllegalArgumentException e) {
                    problem = e.getMessage();
                }
                refs.add(new Ref(pointer + "/" + escape(refKeyword), r, resolved, problem));
            }
        }
        children(o, here, pointer, depth, SINGLE_2019, ARRAYS_2019, MAPS_2019);
    }

    /**
     * {@code ref} resolved against {@code base} (RFC 3986), also for opaque bases such as
     * {@code urn:uuid:...} when the reference is a fragment.
     *
     * @throws IllegalArgumentException when {@code ref} is not a URI reference or cannot be made absolute
     */
    public static URI resolve(URI base, String ref) {
        URI r;
        try {
            r = new URI(ref);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + ref + "' is not a URI reference (" + e.getReason() + ")");
        }
        if (r.isAbsolute()) {
            return r;
        }
        if (base == null) {
            if (ref.startsWith("#")) {
                return r;
            }
            throw new IllegalArgumentException("'" + ref + "' is relative and the schema has no base URI "
                    + "(no $id, not loaded from a file)");
        }
        if (ref.startsWith("#")) {
            try {
                return new URI(base.getScheme(), base.getRawSchemeSpecificPart() == null ? null
                        : withoutFragment(base).getSchemeSpecificPart(), r.getFragment());
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        if (base.isOpaque()) {
            throw new IllegalArgumentException("'" + ref + "' is relative and the base URI " + base
                    + " is not hierarchical (a URN), so it cannot be resolved against it");
        }
        if (ref.isEmpty()) {
            return withoutFragment(base);
        }
        if (base.getRawAuthority() != null && (base.getRawPath() == null || base.getRawPath().isEmpty())) {
            base = URI.create(base.getScheme() + "://" + base.getRawAuthority() + "/"); // java.net.URI drops the '/'
        }
        return base.resolve(r);
    }

    /** The URI without its fragment. */
    public static URI withoutFragment(URI u) {
        if (u.getRawFragment() == null) {
            return u;
        }
        String s = u.toString();
        return URI.create(s.substring(0, s.indexOf('#')));
    }

    /**
     * Follows the fragment of a reference ({@code ""}, {@code "/definitions/a"}, percent-encoded and with
     * {@code ~0 ~1}) inside a document; null when it leads nowhere.
     */
    public static Object follow(Object document, String rawFragment) {
        return Json.at(document, URLDecoder.decode(rawFragment.replace("+", "%2B"), StandardCharsets.UTF_8));
    }

    static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
