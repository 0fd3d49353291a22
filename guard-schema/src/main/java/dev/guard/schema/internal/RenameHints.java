package dev.guard.schema.internal;

import dev.guard.schema.SchemaViolation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.everit.json.schema.ArraySchema;
import org.everit.json.schema.CombinedSchema;
import org.everit.json.schema.ObjectSchema;
import org.everit.json.schema.ReferenceSchema;
import org.everit.json.schema.Schema;
import org.json.JSONObject;

/**
 * Guesses what the producer changed when a payload breaks its schema: a required property missing
 * beside an undeclared one with a close name or the same role (renamed), a value of another type
 * (type changed), or the missing property one level down inside an undeclared object (nesting).
 * Undeclared properties are computed from the schema's declared properties, so the schema need not
 * say {@code additionalProperties: false}.
 */
public final class RenameHints {

    private static final Pattern REQUIRED = Pattern.compile("required key \\[(.*)\\] not found");
    private static final Pattern TYPE = Pattern.compile("expected type: (\\w+), found: (\\w+)");

    private RenameHints() {}

    /** What the schema says of the object at an instance pointer: the properties it declares and requires. */
    public record Declared(Set<String> properties, Set<String> required) {}

    /** The schema, read for hints: what it declares for the object at an instance pointer ({@code "#/a/b"}). */
    @FunctionalInterface
    public interface Shape {
        Declared at(String pointer);
    }

    /** What a violation tells the hints: a required property missing, or a value of another type. */
    public sealed interface Fact permits Missing, WrongType {}

    /** {@code name} is required in the object at {@code pointer} and absent. */
    public record Missing(String pointer, String name) implements Fact {}

    /** The value at {@code pointer} is not of {@code expected} (a JSON type name, or several joined by " or "). */
    public record WrongType(String pointer, String expected) implements Fact {}

    /** Hints for everit's violations (drafts 4 to 7): the facts read from its messages, the shape from its schema. */
    public static List<String> hints(Schema root, Object payload, List<SchemaViolation> violations) {
        return hints(pointer -> everitShape(root, pointer), payload, everitFacts(violations));
    }

    /** {@link #hints(Schema, Object, List)}, none when guessing fails. */
    public static List<String> hintsOrNone(Schema root, Object payload, List<SchemaViolation> violations) {
        try {
            return hints(root, payload, violations);
        } catch (RuntimeException hintFailure) {
            return List.of();
        }
    }

    private static List<Fact> everitFacts(List<SchemaViolation> violations) {
        List<Fact> facts = new ArrayList<>();
        for (SchemaViolation v : violations) {
            if ("required".equals(v.keyword())) {
                Matcher m = REQUIRED.matcher(v.message());
                if (m.find()) {
                    facts.add(new Missing(v.pointer(), m.group(1)));
                }
            } else if ("type".equals(v.keyword())) {
                Matcher m = TYPE.matcher(v.message());
                if (m.find()) {
                    facts.add(new WrongType(v.pointer(), jsonType(m.group(1))));
                }
            }
        }
        return facts;
    }

    /** {@link #hints(Shape, Object, List)}, none when guessing fails: a hint must never cost the verdict. */
    public static List<String> hintsOrNone(Shape shape, Object payload, List<Fact> facts) {
        try {
            return hints(shape, payload, facts);
        } catch (RuntimeException hintFailure) {
            return List.of();
        }
    }

    /** Hints for any engine's facts, read against the schema's shape. */
    public static List<String> hints(Shape shape, Object payload, List<Fact> facts) {
        Set<String> out = new LinkedHashSet<>();
        for (Fact f : facts) {
            if (f instanceof Missing m) {
                String hint = requiredHint(shape, payload, m.pointer(), m.name());
                if (hint != null) {
                    out.add(hint);
                }
            } else if (f instanceof WrongType t) {
                String found = Json.typeName(Json.at(payload, t.pointer()));
                out.add(name(t.pointer()) + ": expected " + t.expected() + ", found " + found
                        + ": type changed by the producer?");
            }
        }
        return new ArrayList<>(out);
    }

    private static Declared everitShape(Schema root, String pointer) {
        Set<String> declared = new HashSet<>();
        Set<String> required = new HashSet<>();
        for (ObjectSchema os : objectSchemasAt(root, pointer)) {
            declared.addAll(os.getPropertySchemas().keySet());
            required.addAll(os.getRequiredProperties());
        }
        return new Declared(declared, required);
    }

    private static String requiredHint(Shape shape, Object payload, String pointer, String missing) {
        if (!(Json.at(payload, pointer) instanceof JSONObject obj)) {
            return null;
        }
        Declared d = shape.at(pointer);
        Set<String> declared = d.properties();
        Set<String> required = d.required();
        List<String> unexpected = new ArrayList<>();
        for (String key : obj.keySet()) {
            if (!declared.contains(key) && !required.contains(key)) {
                unexpected.add(key);
            }
        }
        unexpected.sort(null);
        String where = "#".equals(pointer) || pointer.isEmpty() ? "" : " at " + pointer;
        // 1. nesting (the key itself is one level down), 2. close name (case/separator change, shared
        // stem, small edit distance), 3. same role
        for (String u : unexpected) {
            if (obj.opt(u) instanceof JSONObject inner && inner.has(missing)) {
                String base = "#".equals(pointer) || pointer.isEmpty() ? "#" : pointer;
                return missing + " missing" + where + ", found at " + base + "/" + u + "/" + missing
                        + ": extra nesting by the producer?";
            }
        }
        for (String u : unexpected) {
            if (closeName(missing, u)) {
                return missing + " missing" + where + ", " + u + " present: renamed by the producer?";
            }
        }
        String role = role(missing);
        if (role != null) {
            for (String u : unexpected) {
                if (role.equals(role(u))) {
                    return missing + " missing" + where + ", " + u + " present (both look like " + role
                            + "s): renamed by the producer?";
                }
            }
        }
        return null;
    }

    static boolean closeName(String a, String b) {
        String na = normalize(a);
        String nb = normalize(b);
        if (na.isEmpty() || nb.isEmpty()) {
            return false;
        }
        if (na.equals(nb)) {
            return true;
        }
        Set<String> ta = tokens(a);
        Set<String> tb = tokens(b);
        if (!ta.isEmpty() && !tb.isEmpty() && (ta.containsAll(tb) || tb.containsAll(ta))) {
            return true;
        }
        int max = Math.max(na.length(), nb.length());
        return max >= 4 && levenshtein(na, nb) <= Math.max(1, max / 4);
    }

    private static String role(String name) {
        Set<String> t = tokens(name);
        String n = normalize(name);
        if (t.contains("id") || t.contains("uuid") || t.contains("guid") || n.endsWith("id")) {
            return "identifier";
        }
        if (t.contains("at") || t.contains("time") || t.contains("timestamp") || t.contains("ts") || t.contains("date")) {
            return "timestamp";
        }
        if (t.contains("email") || t.contains("mail")) {
            return "email address";
        }
        if (t.contains("url") || t.contains("uri") || t.contains("href") || t.contains("link")) {
            return "URL";
        }
        return null;
    }

    /** Letters and digits only, lower case ({@code "Job-ID"} is {@code "jobid"}). */
    private static String normalize(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (isAlnum(c)) {
                b.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
            }
        }
        return b.toString();
    }

    /** The words of a name, lower case: split at non-alphanumerics and where a capital follows a lower-case letter or digit. */
    private static Set<String> tokens(String s) {
        Set<String> out = new HashSet<>();
        int start = -1;
        for (int i = 0; i <= s.length(); i++) {
            char c = i < s.length() ? s.charAt(i) : ' ';
            boolean camelBreak = i > 0 && c >= 'A' && c <= 'Z' && isLowerOrDigit(s.charAt(i - 1));
            if (!isAlnum(c) || camelBreak) {
                if (start >= 0) {
                    out.add(s.substring(start, i).toLowerCase(Locale.ROOT));
                }
                start = isAlnum(c) ? i : -1;
            } else if (start < 0) {
                start = i;
            }
        }
        return out;
    }

    private static boolean isAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    private static boolean isLowerOrDigit(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }

    private static int levenshtein(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static String name(String pointer) {
        if (pointer == null || "#".equals(pointer) || pointer.isEmpty()) {
            return "(root)";
        }
        return pointer.substring(pointer.lastIndexOf('/') + 1);
    }

    private static String jsonType(String everitType) {
        switch (everitType) {
            case "JSONObject":
                return "object";
            case "JSONArray":
                return "array";
            default:
                return everitType.toLowerCase(Locale.ROOT);
        }
    }

    /** The object schemas that apply at a pointer, through $ref, allOf/anyOf/oneOf and array items. */
    static List<ObjectSchema> objectSchemasAt(Schema root, String pointer) {
        List<Schema> current = new ArrayList<>();
        unwrap(root, current, 0);
        for (String seg : Json.tokens(pointer)) {
            List<Schema> next = new ArrayList<>();
            for (Schema s : current) {
                if (s instanceof ObjectSchema os) {
                    Schema child = os.getPropertySchemas().get(seg);
                    if (child != null) {
                        unwrap(child, next, 0);
                    }
                } else if (s instanceof ArraySchema as) {
                    if (as.getAllItemSchema() != null) {
                        unwrap(as.getAllItemSchema(), next, 0);
                    } else if (as.getItemSchemas() != null) {
                        try {
                            int i = Integer.parseInt(seg);
                            if (i < as.getItemSchemas().size()) {
                                unwrap(as.getItemSchemas().get(i), next, 0);
                            }
                        } catch (NumberFormatException ignored) {
                            // not an index: no schema applies
                        }
                    }
                }
            }
            current = next;
        }
        List<ObjectSchema> out = new ArrayList<>();
        for (Schema s : current) {
            if (s instanceof ObjectSchema os) {
                out.add(os);
            }
        }
        return out;
    }

    private static void unwrap(Schema s, List<Schema> out, int depth) {
        if (s == null || depth > 16) {
            return;
        }
        if (s instanceof ReferenceSchema r) {
            unwrap(r.getReferredSchema(), out, depth + 1);
        } else if (s instanceof CombinedSchema c) {
            for (Schema sub : c.getSubschemas()) {
                unwrap(sub, out, depth + 1);
            }
        } else {
            out.add(s);
        }
    }
}
