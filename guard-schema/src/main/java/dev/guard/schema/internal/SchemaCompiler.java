package dev.guard.schema.internal;

import dev.guard.GuardLog;
import dev.guard.schema.Draft;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.everit.json.schema.FormatValidator;
import org.everit.json.schema.Schema;
import org.everit.json.schema.loader.SchemaClient;
import org.everit.json.schema.loader.SchemaLoader;
import org.json.JSONObject;
import org.slf4j.Logger;

/**
 * Turns a parsed schema document into an everit {@link Schema}, with references resolved only from
 * the document itself, from documents registered at boot, and from the network when allowed. Every
 * {@code $ref} is checked before everit sees it, so an unresolvable one is a problem naming its JSON
 * pointer, never a stack trace or a silent accept; anything everit itself throws becomes a problem too.
 */
public final class SchemaCompiler {

    private static final Logger LOG = GuardLog.logger(SchemaCompiler.class);
    private static final int MAX_REMOTE_BYTES = 1 << 20;

    /** A registered document: where it came from (for messages), its draft and its parsed JSON. */
    public record Document(String description, Draft draft, Object json) {}

    /** What compiling gave: a schema, or the problems found (each one sentence). */
    public record Result(Compiled schema, List<String> problems) {}

    private final Map<URI, Document> registered;
    private final boolean network;
    private final List<FormatValidator> formats;
    private final boolean formatAssertion;
    private final Map<URI, SchemaTree> trees = new LinkedHashMap<>();

    /**
     * @param registered documents by absolute URI (without fragment), from the builder's ref sources
     * @param network    whether a reference to an http(s) URI that is not registered may be fetched
     * @param formats    format validators that replace everit's own ones
     */
    public SchemaCompiler(Map<URI, Document> registered, boolean network, List<FormatValidator> formats) {
        this(registered, network, formats, false);
    }

    /**
     * @param formatAssertion whether 2019-09 and 2020-12 schemas check {@code format} (their default is an
     *                        annotation); drafts 4 to 7 always do
     */
    public SchemaCompiler(Map<URI, Document> registered, boolean network, List<FormatValidator> formats, boolean formatAssertion) {
        this.registered = registered;
        this.network = network;
        this.formats = formats;
        this.formatAssertion = formatAssertion;
        registered.forEach((uri, doc) -> {
            try {
                trees.put(uri, SchemaTree.walk(doc.json(), uri, doc.draft()));
            } catch (RuntimeException | StackOverflowError e) {
                // its references are then not checked here; everit's load reports what is wrong with it
            }
        });
    }

    /**
     * The draft of a document: its {@code $schema} when it has one, else {@code fallback}.
     *
     * @return empty when {@code $schema} names a meta-schema guard does not validate with
     */
    public static Optional<Draft> draftOf(Object json, Draft fallback) {
        return draftOf(json, fallback, Map.of());
    }

    /**
     * The draft of a document, where {@code $schema} may also name a registered meta-schema of one's own
     * (a dialect: in 2019-09 and 2020-12 its {@code $vocabulary} says which keywords apply): the draft is
     * then that meta-schema's own.
     */
    public static Optional<Draft> draftOf(Object json, Draft fallback, Map<URI, Document> registered) {
        if (json instanceof JSONObject o && o.opt("$schema") instanceof String ms) {
            Optional<Draft> known = Draft.ofMetaSchema(ms);
            if (known.isPresent()) {
                return known;
            }
            try {
                Document meta = registered.get(SchemaTree.withoutFragment(new URI(ms.strip())));
                return meta == null ? Optional.empty() : Optional.of(meta.draft());
            } catch (java.net.URISyntaxException e) {
                return Optional.empty();
            }
        }
        return Optional.of(fallback);
    }

    /**
     * The base URI of a document: its id resolved against where it was read from (either may be
     * missing).
     */
    public static URI baseOf(Object json, Draft draft, URI retrieval) {
        if (json instanceof JSONObject o && o.opt(draft.idKeyword()) instanceof String id) {
            try {
                URI u = SchemaTree.resolve(retrieval, id);
                return u.isAbsolute() ? SchemaTree.withoutFragment(u) : retrieval;
            } catch (IllegalArgumentException e) {
                return retrieval;
            }
        }
        return retrieval;
    }

    /** Compiles one root document; never throws (a failure of guard's own analysis is a problem too). */
    public Result compile(Object root, Draft draft, URI retrieval) {
        try {
            return compileOrThrow(root, draft, retrieval);
        } catch (RuntimeException | StackOverflowError e) {
            return new Result(null, List.of("guard could not analyse it: " + describe(e)));
        }
    }

    private Result compileOrThrow(Object root, Draft draft, URI retrieval) {
        List<String> problems = new ArrayList<>();
        URI base = baseOf(root, draft, retrieval);
        SchemaTree tree = SchemaTree.walk(root, base, draft);
        Map<URI, Object> byUri = new LinkedHashMap<>();
        Map<URI, Object> fragmentIds = new LinkedHashMap<>();
        registered.forEach((uri, doc) -> byUri.put(uri, doc.json()));
        trees.values().forEach(t -> addResources(t, byUri, fragmentIds));
        addResources(tree, byUri, fragmentIds);
        if (base != null) {
            byUri.put(base, root);
        }
        Map<String, Object> emptyTokenRefs = new LinkedHashMap<>();
        checkRefs(tree, base, root, byUri, fragmentIds, draft, emptyTokenRefs, problems);
        checkRegexes(tree, problems);
        if (!problems.isEmpty()) {
            return new Result(null, problems);
        }
        if (!draft.legacy()) {
            return compileNetworknt(root, draft, base, byUri, problems);
        }
        // everit drops a pointer's last empty token: such a reference is pointed at its target, registered whole
        int n = 0;
        for (Map.Entry<String, Object> e : emptyTokenRefs.entrySet()) {
            URI urn = URI.create("urn:guard:empty-token-ref:" + (++n));
            ((JSONObject) Json.at(root, e.getKey())).put("$ref", urn.toString());
            byUri.put(urn, e.getValue());
        }
        stripMetaSchema(root);
        try {
            SchemaLoader.SchemaLoaderBuilder b = SchemaLoader.builder().useDefaults(false)
                    .schemaClient(new Client(network)).regexpFactory(EcmaRegex.factory());
            if (draft == Draft.DRAFT_6) {
                b.draftV6Support();
            } else if (draft == Draft.DRAFT_7) {
                b.draftV7Support();
            }
            if (!formats.isEmpty()) {
                b.enableOverrideOfBuiltInFormatValidators();
                formats.forEach(b::addFormatValidator);
            }
            if (base != null) {
                b.resolutionScope(base);
            }
            for (Map.Entry<URI, Object> e : byUri.entrySet()) {
                stripMetaSchema(e.getValue());
                b.registerSchemaByURI(e.getKey(), e.getValue());
                URI other = otherFileForm(e.getKey());
                if (other != null) {
                    b.registerSchemaByURI(other, e.getValue());
                }
            }
            Schema schema = b.schemaJson(root).build().load().build();
            return new Result(new EveritCompiled(schema, draft), List.of());
        } catch (org.everit.json.schema.SchemaException e) {
            problems.add(e.getMessage()); // "#/properties/a: unknown type: [objekt]": pointer and reason
            return new Result(null, problems);
        } catch (RuntimeException | StackOverflowError e) {
            problems.add("everit failed loading it: " + describe(e));
            return new Result(null, problems);
        }
    }

    /**
     * 2019-09 and 2020-12: networknt's validator, reading documents only from what guard hands it (this
     * schema, the registered ones, the bundled meta-schemas) and from the network only when allowed, with
     * guard's timeouts; every reference is loaded now, at boot, not on the first payload.
     */
    private Result compileNetworknt(Object root, Draft draft, URI base, Map<URI, Object> byUri, List<String> problems) {
        try {
            Client client = new Client(network);
            com.networknt.schema.resource.ResourceLoader loader = iri -> {
                URI u;
                try {
                    u = URI.create(iri.toString());
                } catch (IllegalArgumentException e) {
                    return null;
                }
                URI known = registeredForm(byUri, u);
                if (byUri.containsKey(known)) { // serialized only when networknt asks for it
                    Object json = byUri.get(known);
                    byte[] text = String.valueOf(json).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    return () -> new ByteArrayInputStream(text);
                }
                if (network && isHttp(u)) {
                    return () -> client.get(u.toString());
                }
                return null;
            };
            com.networknt.schema.dialect.Dialect dialect = draft == Draft.DRAFT_2019_09
                    ? com.networknt.schema.dialect.Dialects.getDraft201909() : com.networknt.schema.dialect.Dialects.getDraft202012();
            if (formatAssertion) {
                // guard's exact checks for the formats it has, beside networknt's for the others
                dialect = com.networknt.schema.dialect.Dialect.builder(dialect)
                        .formats(Formats.networknt())
                        .build();
            }
            com.networknt.schema.SchemaRegistry registry = com.networknt.schema.SchemaRegistry.withDefaultDialect(dialect,
                    b -> b.schemaLoader(l -> l.resourceLoaders(r -> r.add(loader)))
                            .schemaRegistryConfig(com.networknt.schema.SchemaRegistryConfig.builder()
                                    .regularExpressionFactory(EcmaRegex.networknt())
                                    .formatAssertionsEnabled(formatAssertion)
                                    .build()));
            com.fasterxml.jackson.databind.JsonNode node = JsonNodes.of(root);
            if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode o && o.has("$schema")
                    && Draft.ofMetaSchema(o.get("$schema").asText()).isPresent()) {
                o.put("$schema", draft.metaSchema()); // "http://", a trailing "#": the spellings guard accepts, as networknt knows them
            }
            com.networknt.schema.Schema schema = base != null
                    ? registry.getSchema(com.networknt.schema.SchemaLocation.of(base.toString()), node)
                    : registry.getSchema(node);
            schema.initializeValidators();
            return new Result(new NetworkntCompiled(schema, draft, new DocumentShape(root, base, byUri)), List.of());
        } catch (RuntimeException | StackOverflowError e) {
            problems.add("networknt's validator failed loading it: " + describe(e));
            return new Result(null, problems);
        }
    }

    private static void addResources(SchemaTree tree, Map<URI, Object> byUri, Map<URI, Object> fragmentIds) {
        for (SchemaTree.Resource r : tree.resources()) {
            if (r.uri().getRawFragment() != null) {
                fragmentIds.put(r.uri(), r.schema());
            } else if (r.uri().isAbsolute()) {
                byUri.putIfAbsent(r.uri(), r.schema());
            }
        }
    }

    /** Every reference of the root and of every registered document it reaches must lead somewhere. */
    private void checkRefs(SchemaTree rootTree, URI base, Object root, Map<URI, Object> byUri,
                           Map<URI, Object> fragmentIds, Draft draft, Map<String, Object> emptyTokenRefs,
                           List<String> problems) {
        Deque<SchemaTree> todo = new ArrayDeque<>();
        Set<URI> walked = new HashSet<>();
        todo.add(rootTree);
        if (base != null) {
            walked.add(base);
        }
        String where = "";
        while (!todo.isEmpty()) {
            SchemaTree tree = todo.poll();
            for (SchemaTree.Ref ref : tree.refs()) {
                String at = "$ref \"" + ref.value() + "\" at " + ref.pointer() + where;
                if (ref.resolved() == null) {
                    problems.add(at + " cannot be resolved: " + ref.problem());
                    continue;
                }
                URI doc = registeredForm(byUri, SchemaTree.withoutFragment(ref.resolved()));
                String fragment = ref.resolved().getRawFragment();
                Object target;
                if (doc.toString().isEmpty()) {
                    target = root;
                } else if (byUri.containsKey(doc)) {
                    target = byUri.get(doc);
                    if (walked.add(doc) && trees.containsKey(doc)) {
                        todo.add(trees.get(doc));
                    }
                } else if (network && isHttp(doc)) {
                    continue; // fetched by everit through Client, with timeouts
                } else {
                    problems.add(at + " refers to " + doc + ", which is neither this schema nor a registered one"
                            + (isHttp(doc) ? " (network references are off)" : "") + ". Action: register a copy of it "
                            + "at boot (Schemas.builder().refFromFile/refFromClasspath/refFromJson, guard-init validate "
                            + "--ref FILE or --ref URI=FILE)" + (isHttp(doc) ? ", or allow network references "
                            + "(allowNetworkRefs(), --allow-network-refs)" : ""));
                    continue;
                }
                if (fragment == null || fragment.isEmpty()) {
                    continue;
                }
                if (!fragment.startsWith("/")) {
                    if (!fragmentIds.containsKey(ref.resolved())) {
                        problems.add(at + " names \"#" + fragment + "\", but no subschema has that $id");
                    }
                    continue;
                }
                if (fragment.endsWith("/") && draft.legacy()) {
                    Object pointed = SchemaTree.follow(target, fragment);
                    String holder = ref.pointer().substring(0, ref.pointer().length() - "/$ref".length());
                    if (where.isEmpty() && pointed instanceof JSONObject && selfContained(pointed, 0)
                            && Json.at(root, holder) instanceof JSONObject) {
                        emptyTokenRefs.put(holder, pointed); // RFC 6901: the property named "", registered whole for everit
                        continue;
                    }
                    problems.add(at + ": a JSON pointer ending in an empty token (a property named \"\") is supported "
                            + "in drafts 4 to 7 only when it is in the schema itself and leads to a subschema without "
                            + "references or ids of its own (everit drops the last token; guard registers such a target "
                            + "whole instead). Action: rename the empty property, or declare 2019-09 or 2020-12");
                    continue;
                }
                if (SchemaTree.follow(target, fragment) == null) {
                    problems.add(at + " points at nothing: " + doc + " has no value at \"#" + fragment + "\"");
                }
            }
            where = " (in a registered schema)";
        }
    }

    /** Whether a subschema holds no reference and no id anywhere (so it means the same wherever it is registered). */
    private static boolean selfContained(Object node, int depth) {
        if (depth > 64) {
            return false;
        }
        if (node instanceof JSONObject o) {
            for (String key : o.keySet()) {
                boolean reference = (key.equals("$ref") || key.equals("$id") || key.equals("id")) && o.opt(key) instanceof String;
                if (reference || !selfContained(o.opt(key), depth + 1)) {
                    return false;
                }
            }
        } else if (node instanceof org.json.JSONArray a) {
            for (int i = 0; i < a.length(); i++) {
                if (!selfContained(a.opt(i), depth + 1)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** everit compiles patterns with java.util.regex; one that does not compile is named here, with its pointer. */
    private static void checkRegexes(SchemaTree tree, List<String> problems) {
        for (SchemaTree.Regex r : tree.regexes()) {
            try {
                java.util.regex.Pattern.compile(EcmaRegex.toJava(r.regex()));
            } catch (java.util.regex.PatternSyntaxException | StackOverflowError e) {
                String why = e instanceof java.util.regex.PatternSyntaxException pse ? pse.getDescription() : "too deeply nested";
                problems.add("the regular expression \"" + shorten(r.regex()) + "\" at " + r.pointer() + " cannot be compiled by "
                        + "java.util.regex (" + why + "); guard runs ECMA 262 patterns on java.util.regex and translates $, \\s, \\S "
                        + "\\cx, \\u{...} and Unicode property names (\\p{Letter}, \\p{Script=Greek}), but java.util.regex has no "
                        + "Script_Extensions and fewer binary properties. Action: rewrite it in the common subset");
            }
        }
    }

    private static String shorten(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    /** {@code uri}, or its other file spelling when only that one is among the documents. */
    private static URI registeredForm(Map<URI, Object> byUri, URI uri) {
        URI other = otherFileForm(uri);
        return !byUri.containsKey(uri) && other != null && byUri.containsKey(other) ? other : uri;
    }

    /** {@code file:///p} for {@code file:/p} and back (the same file, two spellings); null for other URIs. */
    static URI otherFileForm(URI u) {
        if (!"file".equalsIgnoreCase(u.getScheme()) || u.isOpaque()) {
            return null;
        }
        String s = u.toString();
        if (s.startsWith("file:///")) {
            return URI.create("file:/" + s.substring("file:///".length()));
        }
        if (s.startsWith("file:/") && !s.startsWith("file://")) {
            return URI.create("file:///" + s.substring("file:/".length()));
        }
        return null;
    }

    private static boolean isHttp(URI u) {
        String s = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        return s.equals("http") || s.equals("https");
    }

    private static void stripMetaSchema(Object json) {
        if (json instanceof JSONObject o) {
            o.remove("$schema"); // the draft is decided already; everit would refuse https:// or unknown spellings
        }
    }

    static String describe(Throwable e) {
        String m = e.getMessage();
        Throwable c = e;
        while ((m == null || m.isBlank()) && c.getCause() != null) {
            c = c.getCause();
            m = c.getMessage();
        }
        String text = e.getClass().getSimpleName() + (m == null ? "" : ": " + m.replace('\n', ' '));
        return text.length() > 400 ? text.substring(0, 397) + "..." : text;
    }

    /**
     * The only way everit reaches outside the process: refused unless network references are allowed,
     * then http(s) only, with timeouts and a size limit.
     */
    static final class Client implements SchemaClient {
        private final boolean network;

        Client(boolean network) {
            this.network = network;
        }

        @Override
        public InputStream get(String url) {
            URI u = URI.create(url);
            if (!network || !isHttp(u)) {
                throw new UncheckedIOException(new IOException("$ref " + url + " is not registered and "
                        + (network ? "only http(s) references may be fetched" : "network references are off")));
            }
            LOG.info("schema: fetching $ref {} from the network (network references are allowed)", url);
            try {
                HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
                c.setConnectTimeout(5_000);
                c.setReadTimeout(10_000);
                c.setInstanceFollowRedirects(true);
                int status = c.getResponseCode();
                if (status != 200) {
                    throw new IOException("GET " + url + " answered HTTP " + status);
                }
                try (InputStream in = c.getInputStream()) {
                    byte[] body = in.readNBytes(MAX_REMOTE_BYTES + 1);
                    if (body.length > MAX_REMOTE_BYTES) {
                        throw new IOException("GET " + url + " returned more than " + MAX_REMOTE_BYTES + " bytes");
                    }
                    return new ByteArrayInputStream(body);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(new IOException("$ref " + url + " cannot be fetched: " + e.getMessage(), e));
            }
        }
    }
}
