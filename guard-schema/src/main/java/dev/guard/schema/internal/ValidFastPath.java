package dev.guard.schema.internal;

import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.everit.json.schema.ArraySchema;
import org.everit.json.schema.BooleanSchema;
import org.everit.json.schema.CombinedSchema;
import org.everit.json.schema.ConstSchema;
import org.everit.json.schema.EmptySchema;
import org.everit.json.schema.EnumSchema;
import org.everit.json.schema.FalseSchema;
import org.everit.json.schema.FormatValidator;
import org.everit.json.schema.NullSchema;
import org.everit.json.schema.NumberSchema;
import org.everit.json.schema.ObjectSchema;
import org.everit.json.schema.ReferenceSchema;
import org.everit.json.schema.Schema;
import org.everit.json.schema.StringSchema;
import org.everit.json.schema.regexp.Regexp;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * A pre-check that answers "certainly valid" for a value without running everit, for the keywords
 * whose everit 1.14.6 semantics it repeats exactly (read from everit's own compiled {@link Schema}, so
 * a keyword means here what everit's loader made of it, with the very same format validators and
 * regular expression handlers). It never says "invalid": {@code false} means "not certain", and the
 * caller then runs everit, which gives the verdict and the violations. So an invalid payload always
 * gets everit's full answer, and a valid one that reaches a keyword this class does not repeat
 * ({@code oneOf}, {@code not}, {@code if}, {@code uniqueItems} with two or more items, an enum
 * value that is not a string or boolean, ...) is validated by everit too.
 *
 * <p>Why: everit allocates about 9 KB per validation of a 1 KB job (iterators, a failure reporter per
 * subschema, a {@code ValidationException} with its message for every member of a {@code type} list a
 * value is not), which made validating a valid job cost about twice what parsing it costs. This walk
 * allocates almost nothing.
 *
 * <p>What everit does, repeated here (ValidatingVisitor and the per-type visitors of 1.14.6, default
 * {@code Validator}: STRICT primitives, no read/write context): a schema with {@code nullable} set or a
 * default value is not repeated (everit would write defaults into the payload); a type-specific
 * schema passes a value of another type (or null) unless it requires its type; {@code integer} is
 * Integer, Long or BigInteger; numbers compare as everit's NumberComparator does (exact BigDecimal,
 * Integer and Long as longs); string lengths are code points; {@code required} and {@code properties}
 * use {@code JSONObject.has}; a property is additional when it is neither in {@code properties} nor
 * matched by a {@code patternProperties} pattern. Anything that throws here is "not certain".
 */
public final class ValidFastPath {

    /**
     * Values nested (objects, arrays and $refs counted) deeper than this are left to everit: its recursion uses about 25 stack
     * frames per level and runs out of stack (a VALIDATOR_FAILED verdict) at some depth that depends on
     * the thread's stack size, 200 to 300 levels with a 1 MB stack; this walk would accept such a payload.
     */
    static final int MAX_DEPTH = 32;

    private final Node root;

    private ValidFastPath(Node root) {
        this.root = root;
    }

    /**
     * The fast path for an everit schema; null when the root itself is a keyword this class does not
     * repeat (then it would never say "valid").
     */
    public static ValidFastPath compile(Schema schema) {
        try {
            Node root = new Compiler().node(schema);
            return root == Node.UNSURE ? null : new ValidFastPath(root);
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            return null;
        }
    }

    /**
     * True only when everit would accept the value (and would leave it unchanged); false when it would
     * reject it or this class cannot tell. Never throws.
     */
    public boolean certainlyValid(Object value) {
        try {
            return root.ok(value, 0);
        } catch (RuntimeException | StackOverflowError e) {
            return false; // everit decides, and reports the same failure if it has one
        }
    }

    /** One compiled schema: {@code ok} is true only when everit certainly accepts the value. */
    abstract static class Node {
        /** Never certain: everit decides. */
        static final Node UNSURE = new Node() {
            @Override
            boolean ok(Object v, int depth) {
                return false;
            }
        };
        /** Everything is valid (true, {}). */
        static final Node ANY = new Node() {
            @Override
            boolean ok(Object v, int depth) {
                return true;
            }
        };

        abstract boolean ok(Object v, int depth);
    }

    private static boolean isNull(Object v) {
        return v == null || JSONObject.NULL.equals(v);
    }

    /** Builds nodes once per everit schema instance (references may be cyclic). */
    private static final class Compiler {
        private final Map<Schema, Node> done = new IdentityHashMap<>();

        Node node(Schema s) {
            Node n = done.get(s);
            if (n != null) {
                return n;
            }
            if (s instanceof ReferenceSchema r) {
                Ref ref = new Ref();
                done.put(s, ref);
                ref.target = common(r) && r.getReferredSchema() != null ? node(r.getReferredSchema()) : Node.UNSURE;
                return ref;
            }
            n = common(s) ? build(s) : Node.UNSURE;
            done.put(s, n);
            return n;
        }

        /** What ValidatingVisitor.visit checks for every schema: nullable; and defaults, which everit writes into the payload. */
        private static boolean common(Schema s) {
            return s.isNullable() == null && !s.hasDefaultValue();
        }

        private Node build(Schema s) {
            Class<?> c = s.getClass();
            if (c == EmptySchema.class || c == org.everit.json.schema.TrueSchema.class) {
                return Node.ANY;
            }
            if (c == FalseSchema.class) {
                return Node.UNSURE; // always invalid: everit reports it
            }
            if (c == BooleanSchema.class) {
                return new Node() {
                    @Override
                    boolean ok(Object v, int depth) {
                        return v instanceof Boolean;
                    }
                };
            }
            if (c == NullSchema.class) {
                return new Node() {
                    @Override
                    boolean ok(Object v, int depth) {
                        return v == null || v == JSONObject.NULL;
                    }
                };
            }
            if (c == StringSchema.class) {
                return string((StringSchema) s);
            }
            if (c == NumberSchema.class) {
                return new Num((NumberSchema) s);
            }
            if (c == EnumSchema.class) {
                return enumeration(((EnumSchema) s).getPossibleValues());
            }
            if (c == ConstSchema.class) {
                Object p = ((ConstSchema) s).getPermittedValue();
                return p instanceof String || p instanceof Boolean ? enumeration(Set.of(p)) : Node.UNSURE;
            }
            if (c == CombinedSchema.class) {
                return combined((CombinedSchema) s);
            }
            if (c == ObjectSchema.class) {
                return object((ObjectSchema) s);
            }
            if (c == ArraySchema.class) {
                return array((ArraySchema) s);
            }
            return Node.UNSURE; // not, if/then/else, and anything unknown
        }

        private Node string(StringSchema s) {
            FormatValidator format = s.getFormatValidator();
            Regexp pattern;
            try {
                Method m = StringSchema.class.getDeclaredMethod("getRegexpPattern");
                m.setAccessible(true);
                pattern = (Regexp) m.invoke(s);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return Node.UNSURE;
            }
            if (format == null) {
                return Node.UNSURE; // everit would fail with a NullPointerException
            }
            return new Str(s.requireString(), s.getMinLength(), s.getMaxLength(), pattern,
                    format == FormatValidator.NONE ? null : format);
        }

        /** enum / const: a string or boolean value equal to one of the string or boolean members (ObjectComparator: Objects.equals). */
        private static Node enumeration(Collection<Object> values) {
            Set<String> strings = new HashSet<>();
            boolean t = false;
            boolean f = false;
            for (Object o : values) {
                if (o instanceof String str) {
                    strings.add(str);
                } else if (Boolean.TRUE.equals(o)) {
                    t = true;
                } else if (Boolean.FALSE.equals(o)) {
                    f = true;
                }
            }
            boolean acceptTrue = t;
            boolean acceptFalse = f;
            return new Node() {
                @Override
                boolean ok(Object v, int depth) {
                    if (v instanceof String str) {
                        return strings.contains(str);
                    }
                    if (v instanceof Boolean b) {
                        return b ? acceptTrue : acceptFalse;
                    }
                    return false; // numbers, null, objects, arrays: everit decides
                }
            };
        }

        private Node combined(CombinedSchema s) {
            List<Node> subs = new ArrayList<>();
            for (Schema sub : s.getSubschemas()) {
                subs.add(node(sub));
            }
            Node[] n = subs.toArray(new Node[0]);
            if (s.getCriterion() == CombinedSchema.ALL_CRITERION) {
                for (Node x : n) {
                    if (x == Node.UNSURE) {
                        return Node.UNSURE;
                    }
                }
                return new Node() {
                    @Override
                    boolean ok(Object v, int depth) {
                        for (Node x : n) {
                            if (!x.ok(v, depth)) {
                                return false;
                            }
                        }
                        return true;
                    }
                };
            }
            if (s.getCriterion() == CombinedSchema.ANY_CRITERION) {
                return new Node() {
                    @Override
                    boolean ok(Object v, int depth) {
                        for (Node x : n) {
                            if (x.ok(v, depth)) {
                                return true;
                            }
                        }
                        return false;
                    }
                };
            }
            return Node.UNSURE; // oneOf needs "certainly invalid" for the others
        }

        @SuppressWarnings("unchecked")
        private Node object(ObjectSchema s) {
            if (hasDefaultProperty(s) || (s.getPropertySchemas() != null
                    && s.getPropertySchemas().values().stream().anyMatch(Schema::hasDefaultValue))) {
                return Node.UNSURE; // everit writes the default of an absent property into the payload
            }
            Map<Regexp, Schema> patterns;
            try {
                Method m = ObjectSchema.class.getDeclaredMethod("getRegexpPatternProperties");
                m.setAccessible(true);
                patterns = (Map<Regexp, Schema>) m.invoke(s);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return Node.UNSURE;
            }
            Obj o = new Obj();
            o.requiresObject = s.requiresObject();
            o.required = s.getRequiredProperties().toArray(new String[0]);
            o.minProperties = s.getMinProperties();
            o.maxProperties = s.getMaxProperties();
            o.propertyNames = s.getPropertyNameSchema() == null ? null : node(s.getPropertyNameSchema());
            List<String> depKeys = new ArrayList<>();
            List<String[]> depValues = new ArrayList<>();
            s.getPropertyDependencies().forEach((k, v) -> {
                depKeys.add(k);
                depValues.add(v.toArray(new String[0]));
            });
            o.depKeys = depKeys.toArray(new String[0]);
            o.depValues = depValues.toArray(new String[0][]);
            o.permitsAdditional = s.permitsAdditionalProperties();
            o.additional = s.getSchemaOfAdditionalProperties() == null ? null : node(s.getSchemaOfAdditionalProperties());
            int np = patterns == null ? 0 : patterns.size();
            o.patterns = new Regexp[np];
            o.patternNodes = new Node[np];
            if (patterns != null) {
                int i = 0;
                for (Map.Entry<Regexp, Schema> e : patterns.entrySet()) {
                    o.patterns[i] = e.getKey();
                    o.patternNodes[i++] = node(e.getValue());
                }
            }
            List<String> sdKeys = new ArrayList<>();
            List<Node> sdNodes = new ArrayList<>();
            s.getSchemaDependencies().forEach((k, v) -> {
                sdKeys.add(k);
                sdNodes.add(node(v));
            });
            o.schemaDepKeys = sdKeys.toArray(new String[0]);
            o.schemaDepNodes = sdNodes.toArray(new Node[0]);
            Map<String, Schema> props = s.getPropertySchemas();
            o.names = new String[props == null ? 0 : props.size()];
            o.nodes = new Node[o.names.length];
            o.byName = new HashMap<>();
            if (props != null) {
                List<Map.Entry<String, Node>> byCost = new ArrayList<>();
                for (Map.Entry<String, Schema> e : props.entrySet()) {
                    Node n = node(e.getValue());
                    byCost.add(Map.entry(e.getKey(), n));
                    o.byName.put(e.getKey(), n);
                }
                // cheap checks first, so that an invalid payload (which everit then validates) costs little here
                byCost.sort(java.util.Comparator.comparingInt(e -> cost(e.getValue())));
                for (int i = 0; i < byCost.size(); i++) {
                    o.names[i] = byCost.get(i).getKey();
                    o.nodes[i] = byCost.get(i).getValue();
                }
            }
            o.scanKeys = o.propertyNames != null || np > 0 || !o.permitsAdditional || o.additional != null;
            return o;
        }

        /** 0: a type or length check, 1: a pattern or format, 2: anything nested. */
        private static int cost(Node n) {
            if (n instanceof Str str) {
                return str.pattern == null && str.format == null ? 0 : 1;
            }
            return n instanceof Obj || n instanceof Arr || n instanceof Ref ? 2 : n == Node.UNSURE ? 0 : 1;
        }

        /** A draft-2019 style default on the object schema itself (not in 1.14.6's public API): refuse when present or unknown. */
        private static boolean hasDefaultProperty(ObjectSchema s) {
            try {
                Method m = ObjectSchema.class.getDeclaredMethod("hasDefaultProperty");
                m.setAccessible(true);
                return (Boolean) m.invoke(s);
            } catch (NoSuchMethodException e) {
                return false;
            } catch (ReflectiveOperationException | RuntimeException e) {
                return true;
            }
        }

        private Node array(ArraySchema s) {
            Arr a = new Arr();
            a.requiresArray = s.requiresArray();
            a.minItems = s.getMinItems();
            a.maxItems = s.getMaxItems();
            a.unique = s.needsUniqueItems();
            a.all = s.getAllItemSchema() == null ? null : node(s.getAllItemSchema());
            a.permitsAdditional = s.permitsAdditionalItems();
            if (s.getItemSchemas() != null) {
                a.tuple = new Node[s.getItemSchemas().size()];
                for (int i = 0; i < a.tuple.length; i++) {
                    a.tuple[i] = node(s.getItemSchemas().get(i));
                }
            }
            a.additional = s.getSchemaOfAdditionalItems() == null ? null : node(s.getSchemaOfAdditionalItems());
            a.contains = s.getContainedItemSchema() == null ? null : node(s.getContainedItemSchema());
            return a;
        }
    }

    private static final class Ref extends Node {
        Node target;

        @Override
        boolean ok(Object v, int depth) {
            if (depth >= MAX_DEPTH) {
                return false; // a reference cycle that does not descend into the value ends here
            }
            return target.ok(v, depth + 1);
        }
    }

    /** StringSchemaValidatingVisitor: code point length, then pattern (find), then format. */
    private static final class Str extends Node {
        private final boolean requireString;
        private final int minLength;
        private final int maxLength;
        private final Regexp pattern;
        private final FormatValidator format;

        Str(boolean requireString, Integer minLength, Integer maxLength, Regexp pattern, FormatValidator format) {
            this.requireString = requireString;
            this.minLength = minLength == null ? Integer.MIN_VALUE : minLength;
            this.maxLength = maxLength == null ? Integer.MAX_VALUE : maxLength;
            this.pattern = pattern;
            this.format = format;
        }

        @Override
        boolean ok(Object v, int depth) {
            if (!(v instanceof String s)) {
                return !requireString; // null or another type: fails only when the type is required
            }
            int length = s.codePointCount(0, s.length());
            if (length < minLength || length > maxLength) {
                return false;
            }
            if (pattern != null && pattern.patternMatchingFailure(s).isPresent()) {
                return false;
            }
            return format == null || format.validate(s).isEmpty();
        }
    }

    /** NumberSchemaValidatingVisitor with NumberComparator's exact comparisons. */
    private static final class Num extends Node {
        private final boolean integer;
        private final boolean requiresType;
        private final Number minimum;
        private final boolean exclusiveMinimum;
        private final Number exclusiveMinimumLimit;
        private final Number maximum;
        private final boolean exclusiveMaximum;
        private final Number exclusiveMaximumLimit;
        private final Number multipleOf;

        Num(NumberSchema s) {
            integer = s.requiresInteger();
            requiresType = s.requiresInteger() || s.isRequiresNumber();
            minimum = s.getMinimum();
            exclusiveMinimum = s.isExclusiveMinimum();
            exclusiveMinimumLimit = s.getExclusiveMinimumLimit();
            maximum = s.getMaximum();
            exclusiveMaximum = s.isExclusiveMaximum();
            exclusiveMaximumLimit = s.getExclusiveMaximumLimit();
            multipleOf = s.getMultipleOf();
        }

        @Override
        boolean ok(Object v, int depth) {
            if (isNull(v)) {
                return !requiresType;
            }
            boolean typed = integer ? isIntegral(v) : v instanceof Number;
            if (!typed) {
                return !requiresType;
            }
            Number n = (Number) v;
            if (minimum != null) {
                int c = compare(n, minimum);
                if (exclusiveMinimum ? c <= 0 : c < 0) {
                    return false;
                }
            }
            if (exclusiveMinimumLimit != null && compare(n, exclusiveMinimumLimit) <= 0) {
                return false;
            }
            if (maximum != null) {
                int c = compare(maximum, n);
                if (exclusiveMaximum ? c <= 0 : c < 0) {
                    return false;
                }
            }
            if (exclusiveMaximumLimit != null && compare(n, exclusiveMaximumLimit) >= 0) {
                return false;
            }
            if (multipleOf != null) {
                if (isLong(n) && isLong(multipleOf)) {
                    return n.longValue() % multipleOf.longValue() == 0; // x % 0 throws, as BigDecimal's remainder does
                }
                return big(n).remainder(big(multipleOf)).compareTo(BigDecimal.ZERO) == 0;
            }
            return true;
        }

        /** everit's TypeChecker for Integer. */
        private static boolean isIntegral(Object v) {
            Class<?> c = v.getClass();
            return c == Integer.class || c == Long.class || c == BigInteger.class || c == AtomicInteger.class
                    || c == AtomicLong.class;
        }

        private static boolean isLong(Number n) {
            return n instanceof Integer || n instanceof Long;
        }

        /** NumberComparator.compare. */
        static int compare(Number a, Number b) {
            if (isLong(a) && isLong(b)) {
                return Long.compare(a.longValue(), b.longValue());
            }
            return big(a).compareTo(big(b));
        }

        /** NumberComparator.getAsBigDecimal. */
        static BigDecimal big(Number n) {
            if (n instanceof BigDecimal d) {
                return d;
            }
            if (n instanceof BigInteger i) {
                return new BigDecimal(i);
            }
            if (n instanceof Integer || n instanceof Long) {
                return new BigDecimal(n.longValue());
            }
            return BigDecimal.valueOf(n.doubleValue());
        }
    }

    /** ObjectSchemaValidatingVisitor. */
    private static final class Obj extends Node {
        boolean requiresObject;
        String[] required;
        Integer minProperties;
        Integer maxProperties;
        Node propertyNames;
        String[] depKeys;
        String[][] depValues;
        boolean permitsAdditional;
        Node additional;
        Regexp[] patterns;
        Node[] patternNodes;
        String[] schemaDepKeys;
        Node[] schemaDepNodes;
        String[] names;
        Node[] nodes;
        Map<String, Node> byName;
        /** Whether every key must be looked at (propertyNames, patternProperties, additionalProperties). */
        boolean scanKeys;

        @Override
        boolean ok(Object v, int depth) {
            if (!(v instanceof JSONObject o)) {
                return !requiresObject; // null or another type
            }
            if (depth >= MAX_DEPTH) {
                return false; // deeper payloads: everit decides, as before (it may run out of stack there)
            }
            for (String r : required) {
                if (!o.has(r)) {
                    return false;
                }
            }
            int size = o.length();
            if (minProperties != null && size < minProperties) {
                return false;
            }
            if (maxProperties != null && size > maxProperties) {
                return false;
            }
            for (int i = 0; i < depKeys.length; i++) {
                if (o.has(depKeys[i])) {
                    for (String must : depValues[i]) {
                        if (!o.has(must)) {
                            return false;
                        }
                    }
                }
            }
            if (scanKeys) {
                for (String key : o.keySet()) {
                    if (propertyNames != null && !propertyNames.ok(key, depth + 1)) {
                        return false;
                    }
                    Object value = o.opt(key);
                    boolean matched = false;
                    for (int i = 0; i < patterns.length; i++) {
                        if (patterns[i].patternMatchingFailure(key).isEmpty()) {
                            matched = true;
                            if (!patternNodes[i].ok(value, depth + 1)) {
                                return false;
                            }
                        }
                    }
                    Node p = byName.get(key);
                    if (p != null) {
                        if (!p.ok(value, depth + 1)) {
                            return false;
                        }
                    } else if (!matched) {
                        if (!permitsAdditional || (additional != null && !additional.ok(value, depth + 1))) {
                            return false;
                        }
                    }
                }
            } else {
                for (int i = 0; i < names.length; i++) {
                    Object value = o.opt(names[i]);
                    if (value != null && !nodes[i].ok(value, depth + 1)) {
                        return false;
                    }
                }
            }
            for (int i = 0; i < schemaDepKeys.length; i++) {
                if (o.has(schemaDepKeys[i]) && !schemaDepNodes[i].ok(o, depth)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** ArraySchemaValidatingVisitor. */
    private static final class Arr extends Node {
        boolean requiresArray;
        Integer minItems;
        Integer maxItems;
        boolean unique;
        Node all;
        boolean permitsAdditional;
        Node[] tuple;
        Node additional;
        Node contains;

        @Override
        boolean ok(Object v, int depth) {
            if (!(v instanceof JSONArray a)) {
                return !requiresArray;
            }
            if (depth >= MAX_DEPTH) {
                return false; // deeper payloads: everit decides, as before (it may run out of stack there)
            }
            int n = a.length();
            if (minItems != null && n < minItems) {
                return false;
            }
            if (maxItems != null && maxItems < n) {
                return false;
            }
            if (unique && n > 1) {
                return false; // everit's deepEquals over every pair decides
            }
            if (all != null) {
                for (int i = 0; i < n; i++) {
                    if (!all.ok(a.opt(i), depth + 1)) {
                        return false;
                    }
                }
            }
            if (tuple != null) {
                if (!permitsAdditional && n > tuple.length) {
                    return false;
                }
                for (int i = 0; i < tuple.length && i < n; i++) {
                    if (!tuple[i].ok(a.opt(i), depth + 1)) {
                        return false;
                    }
                }
                if (additional != null) {
                    for (int i = tuple.length; i < n; i++) {
                        if (!additional.ok(a.opt(i), depth + 1)) {
                            return false;
                        }
                    }
                }
            }
            if (contains != null) {
                boolean any = false;
                for (int i = 0; i < n && !any; i++) {
                    any = contains.ok(a.opt(i), depth + 1);
                }
                return any;
            }
            return true;
        }
    }
}
