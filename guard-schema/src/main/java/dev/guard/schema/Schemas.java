package dev.guard.schema;

import dev.guard.GuardLog;
import dev.guard.schema.internal.Compiled;
import dev.guard.schema.internal.Formats;
import dev.guard.schema.internal.Json;
import dev.guard.schema.internal.MetaSchemas;
import dev.guard.schema.internal.SchemaCompiler;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.json.JSONObject;
import org.slf4j.Logger;

/**
 * The JSON Schemas of a consumer, by job type. Built once at boot ({@link #builder()}): every schema
 * is loaded and parsed, every example payload validated, otherwise {@link SchemaSelfTestException}.
 * Immutable and thread-safe; each schema is compiled once, never re-parsed per payload.
 *
 * <pre>{@code
 * Schemas schemas = Schemas.builder()
 *     .fromClasspath("send-email", "schemas/send-email.json")
 *     .example("send-email", "{\"job_id\":\"j-1\",\"to\":\"a@example.com\"}")
 *     .build();                                   // throws SchemaSelfTestException on a bad schema
 * Verdict v = schemas.validate("send-email", bytes);
 * }</pre>
 */
public final class Schemas {

    /** Default payload limit: 1 MiB. */
    public static final int DEFAULT_MAX_BYTES = 1 << 20;
    /** Default nesting limit: 64 levels. */
    public static final int DEFAULT_MAX_DEPTH = 64;
    /** Largest schema document read (64 MiB). */
    static final int MAX_SCHEMA_BYTES = 64 << 20;
    /** Largest nesting limit accepted (validation recurses over the payload). */
    public static final int MAX_DEPTH_LIMIT = 512;

    private static final Logger LOG = GuardLog.logger(Schemas.class);

    private record Entry(String jobType, String schemaId, String source, Compiled schema) {}

    private final Map<String, Entry> byType;
    private final Json json;

    private Schemas(Map<String, Entry> byType, Json json) {
        this.byType = Collections.unmodifiableMap(new LinkedHashMap<>(byType));
        this.json = json;
    }

    /** A builder; nothing is loaded until {@link Builder#build()}. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * One schema file, for the CLI: the job type is {@link #jobTypeOf(Path)}. Runs the self-test (the
     * schema parses, its references resolve).
     */
    public static Schemas single(Path schemaFile) {
        return builder().fromFile(jobTypeOf(schemaFile), schemaFile).build();
    }

    /**
     * The job type a schema file stands for: its {@code $id} (or draft-04 {@code id}), else the file name
     * without {@code .json} / {@code .schema.json}.
     */
    public static String jobTypeOf(Path schemaFile) {
        String jobType = null;
        try {
            String text = Files.readString(schemaFile, StandardCharsets.UTF_8);
            Json.Read r = new Json(MAX_SCHEMA_BYTES, 256).read(text);
            if (r instanceof Json.Value v && v.value() instanceof JSONObject o) {
                jobType = o.opt("$id") instanceof String id ? id : o.opt("id") instanceof String id4 ? id4 : null;
            }
        } catch (IOException | RuntimeException e) {
            // reported by build() with the reason
        }
        if (jobType == null || jobType.isBlank()) {
            String name = String.valueOf(schemaFile.getFileName());
            jobType = name.replaceFirst("(\\.schema)?\\.json$", "");
        }
        return jobType;
    }

    /** The registered job types, in registration order. */
    public Set<String> jobTypes() {
        return byType.keySet();
    }

    /** The schema id used for a job type; null when the job type is not registered. */
    public String schemaId(String jobType) {
        Entry e = byType.get(jobType);
        return e == null ? null : e.schemaId();
    }

    /** The compiled schema of a job type (cached); null when not registered. Not API: the engines stay inside guard. */
    Compiled schema(String jobType) {
        Entry e = byType.get(jobType);
        return e == null ? null : e.schema();
    }

    /** The draft a job type's schema is validated with; null when the job type is not registered. */
    public Draft draft(String jobType) {
        Entry e = byType.get(jobType);
        return e == null ? null : e.schema().draft();
    }

    /** The payload size limit in bytes. */
    public int maxBytes() {
        return json.maxBytes();
    }

    /** The nesting depth limit. */
    public int maxDepth() {
        return json.maxDepth();
    }

    /** Validates UTF-8 bytes against the job type's schema. Never throws for any input. */
    public Verdict validate(String jobType, byte[] payload) {
        Entry e = byType.get(jobType);
        if (e == null) {
            return unknown(jobType);
        }
        return check(e, json.read(payload));
    }

    /** Validates text against the job type's schema. Never throws for any input. */
    public Verdict validate(String jobType, String payload) {
        Entry e = byType.get(jobType);
        if (e == null) {
            return unknown(jobType);
        }
        return check(e, json.read(payload));
    }

    /**
     * Parses a payload once without validating it, for boundaries that pick the job type from the
     * payload: the {@link Payload}, or a {@link Malformed} verdict (schema id null). Never throws.
     */
    public Parsed parse(byte[] payload) {
        Json.Read r = json.read(payload);
        if (r instanceof Json.Value v) {
            return new Payload(v.value());
        }
        Json.Failure f = (Json.Failure) r;
        return new Malformed(null, f.kind(), f.reason());
    }

    /** Validates an already parsed value (from {@link #parse(byte[])}). Never throws for any input. */
    public Verdict validateParsed(String jobType, Payload parsed) {
        Entry e = byType.get(jobType);
        if (e == null) {
            return unknown(jobType);
        }
        return check(e, new Json.Value(parsed.tree()));
    }

    private Verdict unknown(String jobType) {
        return new Malformed(null, Malformed.Kind.UNKNOWN_JOB_TYPE, "no schema registered for job type '"
                + jobType + "' (registered: " + String.join(", ", byType.keySet()) + ")");
    }

    private static Verdict check(Entry e, Json.Read read) {
        if (read instanceof Json.Failure f) {
            return new Malformed(e.schemaId(), f.kind(), f.reason());
        }
        Object value = ((Json.Value) read).value();
        try {
            Compiled.Rejection r = e.schema().check(value);
            if (r == null) {
                return new Accepted(e.schemaId(), new Payload(value));
            }
            return new Invalid(e.schemaId(), r.violations(), r.hints());
        } catch (RuntimeException | StackOverflowError other) {
            // the engine itself failed on this value (e.g. a pathological regex); the payload is still rejected, loudly
            return new Malformed(e.schemaId(), Malformed.Kind.VALIDATOR_FAILED, "validator failed on this payload: "
                    + other.getClass().getSimpleName() + (other.getMessage() == null ? "" : ": " + other.getMessage())
                    + (other instanceof StackOverflowError ? " (a schema pattern recursing on a very long string?)" : ""));
        }
    }

    /** Collects schema sources and examples; {@link #build()} loads, parses and self-tests them. */
    public static final class Builder {

        private record Source(String jobType, String description, URI retrieval, Loader loader) {}

        /** A schema that $refs may point at: under {@code uri} when given, else under its $id (and where it was read from). */
        private record RefSource(String description, URI uri, URI retrieval, Loader loader) {}

        @FunctionalInterface
        private interface Loader {
            String load() throws IOException;
        }

        private final List<Source> sources = new ArrayList<>();
        private final List<RefSource> refSources = new ArrayList<>();
        private final List<Map.Entry<String, String>> examples = new ArrayList<>();
        private int maxBytes = DEFAULT_MAX_BYTES;
        private int maxDepth = DEFAULT_MAX_DEPTH;
        private Draft defaultDraft = Draft.DRAFT_7;
        private boolean networkRefs;
        private boolean everitFormats;
        private boolean formatAssertion;

        Builder() {}

        /** A schema from a classpath resource (leading '/' optional). */
        public Builder fromClasspath(String jobType, String resourcePath) {
            String path = strip(resourcePath);
            sources.add(new Source(requireType(jobType), "classpath:" + path, classpathUri(path), classpath(path)));
            return this;
        }

        /** A schema from a file. */
        public Builder fromFile(String jobType, Path file) {
            sources.add(new Source(requireType(jobType), "file:" + file, fileUri(file), file(file)));
            return this;
        }

        /** A schema given as JSON text (tests, generated schemas). */
        public Builder fromJson(String jobType, String schemaJson) {
            sources.add(new Source(requireType(jobType), "inline schema", null, () -> schemaJson));
            return this;
        }

        /**
         * A schema that {@code $ref}s may point at, from a file: found under its {@code $id} and under the
         * file's own URI (so a relative {@code "$ref": "common.json"} from a schema file beside it resolves).
         */
        public Builder refFromFile(Path file) {
            refSources.add(new RefSource("file:" + file, null, fileUri(file), file(file)));
            return this;
        }

        /** A schema that {@code $ref}s may point at, from the classpath: under its {@code $id} and {@code classpath:/path}. */
        public Builder refFromClasspath(String resourcePath) {
            String path = strip(resourcePath);
            refSources.add(new RefSource("classpath:" + path, null, classpathUri(path), classpath(path)));
            return this;
        }

        /**
         * A schema that {@code $ref}s to {@code uri} resolve to, whatever its own {@code $id} says: a local
         * copy of a schema published at that URI.
         */
        public Builder refFromJson(String uri, String schemaJson) {
            refSources.add(new RefSource("schema registered for " + uri, absolute(uri), null, () -> schemaJson));
            return this;
        }

        /** {@link #refFromJson} with the text read from a file. */
        public Builder refFromFile(String uri, Path file) {
            refSources.add(new RefSource("file:" + file + " (registered for " + uri + ")", absolute(uri), null, file(file)));
            return this;
        }

        /**
         * Lets {@code $ref}s to http(s) URIs that are not registered be fetched at boot (5 s connect, 10 s
         * read, 1 MiB). Off by default: a worker in a locked-down cluster must not make requests it was not
         * told about, and a schema should not change because a web server did.
         */
        public Builder allowNetworkRefs(boolean allow) {
            this.networkRefs = allow;
            return this;
        }

        /** The draft of schemas without {@code $schema} (default draft-07). */
        public Builder defaultDraft(Draft draft) {
            this.defaultDraft = java.util.Objects.requireNonNull(draft, "draft");
            return this;
        }

        /**
         * Uses everit's own {@code email}, {@code date-time}, ... validators instead of guard's (which are
         * exact to their RFCs and several times faster); for comparison only.
         */
        public Builder everitFormats(boolean useEverit) {
            this.everitFormats = useEverit;
            return this;
        }

        /**
         * Checks {@code format} in 2019-09 and 2020-12 schemas, where the standard makes it an annotation by
         * default (off: an invalid {@code email} passes, as those drafts' own tests require). On: the
         * format-assertion vocabulary's behaviour, with guard's exact {@code date-time}, {@code date},
         * {@code time} and {@code email} checks (the ones drafts 4-7 use) and networknt's for the others.
         * Drafts 4 to 7 always check formats.
         */
        public Builder formatAssertion(boolean assertFormats) {
            this.formatAssertion = assertFormats;
            return this;
        }

        /** An example payload the job type's schema must accept at boot; may be given several times. */
        public Builder example(String jobType, String json) {
            examples.add(Map.entry(requireType(jobType), json));
            return this;
        }

        /** Payloads larger than this many bytes are rejected before parsing (default 1 MiB). */
        public Builder maxBytes(int maxBytes) {
            if (maxBytes < 2) {
                throw new IllegalArgumentException("maxBytes must be at least 2, was " + maxBytes);
            }
            this.maxBytes = maxBytes;
            return this;
        }

        /** Payloads nested deeper than this are rejected while streaming (default 64, at most 512). */
        public Builder maxDepth(int maxDepth) {
            if (maxDepth < 1 || maxDepth > MAX_DEPTH_LIMIT) {
                throw new IllegalArgumentException("maxDepth must be between 1 and " + MAX_DEPTH_LIMIT + ", was " + maxDepth);
            }
            this.maxDepth = maxDepth;
            return this;
        }

        private static String requireType(String jobType) {
            if (jobType == null || jobType.isBlank()) {
                throw new IllegalArgumentException("job type must be a non-blank name, was " + (jobType == null ? "null" : "'" + jobType + "'"));
            }
            return jobType;
        }

        private static String strip(String resourcePath) {
            return resourcePath.startsWith("/") ? resourcePath.substring(1) : resourcePath;
        }

        /** {@code file:/abs/path} (the form java.net.URI resolves relative references into). */
        private static URI fileUri(Path file) {
            return file.toAbsolutePath().normalize().toFile().toURI();
        }

        private static URI classpathUri(String path) {
            try {
                return new URI("classpath", null, "/" + path, null);
            } catch (URISyntaxException e) {
                return null;
            }
        }

        private static URI absolute(String uri) {
            URI u;
            try {
                u = new URI(uri);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("'" + uri + "' is not a URI: " + e.getReason());
            }
            if (!u.isAbsolute() || u.getRawFragment() != null) {
                throw new IllegalArgumentException("'" + uri + "' must be an absolute URI without a fragment, "
                        + "such as https://example.com/schemas/common.json");
            }
            return u;
        }

        private static Loader classpath(String path) {
            return () -> {
                ClassLoader cl = Thread.currentThread().getContextClassLoader();
                URL url = cl == null ? null : cl.getResource(path);
                if (url == null) {
                    url = Schemas.class.getClassLoader().getResource(path);
                }
                if (url == null) {
                    throw new IOException("classpath resource '" + path + "' not found; put it under src/main/resources/"
                            + path + " or pass the right path");
                }
                try (InputStream in = url.openStream()) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            };
        }

        private static Loader file(Path file) {
            return () -> {
                if (!Files.isRegularFile(file)) {
                    throw new IOException("file " + file.toAbsolutePath() + " does not exist or is not a regular file");
                }
                if (Files.size(file) > MAX_SCHEMA_BYTES) {
                    throw new IOException("file " + file.toAbsolutePath() + " is " + Files.size(file) + " bytes, more than a schema may be ("
                            + MAX_SCHEMA_BYTES + ")");
                }
                return Files.readString(file, StandardCharsets.UTF_8);
            };
        }

        /** Reads a document: a JSON object or boolean, or a problem (added to {@code problems}) and null. */
        private static Object document(String what, String description, Loader loader, Json reader, List<String> problems) {
            String text;
            try {
                text = loader.load();
            } catch (IOException | RuntimeException e) {
                problems.add(what + ": cannot read " + description + ": " + e.getMessage());
                return null;
            }
            Json.Read r = reader.read(text);
            if (r instanceof Json.Failure f) {
                problems.add(what + ": " + description + " is not valid JSON: " + f.reason());
                return null;
            }
            Object value = ((Json.Value) r).value();
            if (!(value instanceof JSONObject) && !(value instanceof Boolean)) {
                problems.add(what + ": " + description + " is a JSON " + Json.typeName(value)
                        + ", a schema must be a JSON object (or true / false)");
                return null;
            }
            return value;
        }

        private Optional<Draft> draft(String what, String description, Object json, Map<URI, SchemaCompiler.Document> registered,
                                      List<String> problems) {
            Optional<Draft> d = SchemaCompiler.draftOf(json, defaultDraft, registered);
            if (d.isEmpty()) {
                problems.add(what + ": " + description + " declares \"$schema\": \"" + ((JSONObject) json).opt("$schema")
                        + "\"; guard validates draft-04, draft-06, draft-07, 2019-09 and 2020-12 (" + Draft.DRAFT_2020_12.metaSchema()
                        + ", " + Draft.DRAFT_7.metaSchema() + ", ...). Action: declare one of those, or remove $schema to use the "
                        + "default draft (" + defaultDraft.label() + "); a meta-schema of your own (a 2019-09 or 2020-12 "
                        + "dialect) is used when registered for that URI (refFromFile/refFromJson, --ref URI=FILE)");
            }
            return d;
        }

        /** The registered ref documents by URI; problems for those that cannot be read. */
        private Map<URI, SchemaCompiler.Document> refDocuments(Json reader, List<String> problems) {
            Map<URI, SchemaCompiler.Document> out = new LinkedHashMap<>();
            Map<URI, SchemaCompiler.Document> metaSchemas = MetaSchemas.documents(reader);
            for (RefSource r : refSources) {
                String what = "referenced schema " + r.description();
                Object json = document(what, r.description(), r.loader(), reader, problems);
                if (json == null) {
                    continue;
                }
                Map<URI, SchemaCompiler.Document> known = new LinkedHashMap<>(metaSchemas);
                known.putAll(out);
                Optional<Draft> d = draft(what, r.description(), json, known, problems);
                if (d.isEmpty()) {
                    continue;
                }
                List<URI> keys = new ArrayList<>();
                if (r.uri() != null) {
                    keys.add(r.uri());
                } else {
                    URI base = SchemaCompiler.baseOf(json, d.get(), r.retrieval());
                    if (base != null && base.isAbsolute()) {
                        keys.add(base);
                    }
                    if (r.retrieval() != null && !keys.contains(r.retrieval())) {
                        keys.add(r.retrieval());
                    }
                }
                for (URI k : keys) {
                    SchemaCompiler.Document prev = out.put(k, new SchemaCompiler.Document(r.description(), d.get(), json));
                    if (prev != null && !prev.description().equals(r.description())) {
                        problems.add(what + ": registered for " + k + ", which " + prev.description() + " is registered for already");
                    }
                }
            }
            // the drafts' meta-schemas, for $refs to them, unless a copy was registered for that URI
            metaSchemas.forEach(out::putIfAbsent);
            return out;
        }

        /**
         * Loads and parses every schema, validates every example (those registered with
         * {@link #example} and those in a schema's own {@code "examples"} array), and returns the
         * immutable registry.
         *
         * @throws SchemaSelfTestException listing every problem found
         */
        public Schemas build() {
            List<String> problems = new ArrayList<>();
            Map<String, Entry> byType = new LinkedHashMap<>();
            List<Map.Entry<String, String>> selfTest = new ArrayList<>(examples);
            Json schemaReader = new Json(MAX_SCHEMA_BYTES, 256);
            if (sources.isEmpty()) {
                problems.add("no schema registered; register one per job type with fromClasspath(jobType, path) or fromFile(jobType, path)");
            }
            Map<URI, SchemaCompiler.Document> registered = refDocuments(schemaReader, problems);
            SchemaCompiler compiler = new SchemaCompiler(registered, networkRefs, everitFormats ? List.of() : Formats.validators(),
                    formatAssertion);
            for (Source s : sources) {
                String what = "job type '" + s.jobType() + "'";
                if (byType.containsKey(s.jobType())) {
                    problems.add(what + ": registered twice (" + byType.get(s.jobType()).source()
                            + " and " + s.description() + ")");
                    continue;
                }
                Object json = document(what, s.description(), s.loader(), schemaReader, problems);
                if (json == null) {
                    continue;
                }
                Optional<Draft> draft = draft(what, s.description(), json, registered, problems);
                if (draft.isEmpty()) {
                    continue;
                }
                String id = json instanceof JSONObject o ? o.optString(draft.get().idKeyword(), "") : "";
                SchemaCompiler.Result compiled = compiler.compile(json, draft.get(), s.retrieval());
                if (compiled.schema() == null) {
                    compiled.problems().forEach(p -> problems.add(what + ": " + s.description()
                            + " is not a valid JSON Schema (" + draft.get().label() + "): " + p));
                    continue;
                }
                byType.put(s.jobType(), new Entry(s.jobType(), id.isBlank() ? s.jobType() : id, s.description(), compiled.schema()));
                // the schema's own "examples" (an annotation since draft-06: instances the schema is meant to accept)
                if (json instanceof JSONObject o && o.opt("examples") instanceof org.json.JSONArray own) {
                    for (int i = 0; i < own.length(); i++) {
                        selfTest.add(Map.entry(s.jobType(), String.valueOf(own.get(i) instanceof String str
                                ? org.json.JSONObject.quote(str) : own.get(i))));
                    }
                }
            }
            Schemas built = new Schemas(byType, new Json(maxBytes, maxDepth));
            int n = 0;
            for (Map.Entry<String, String> ex : selfTest) {
                n++;
                String type = ex.getKey();
                if (!byType.containsKey(type)) {
                    if (sources.stream().noneMatch(s -> s.jobType().equals(type))) {
                        problems.add("example " + n + " is for job type '" + type + "', which has no schema");
                    }
                    continue;
                }
                Verdict v = built.validate(type, ex.getValue());
                if (!v.accepted()) {
                    problems.add("example " + n + " for job type '" + type + "' is rejected by its own schema: " + v.describe());
                }
            }
            if (!problems.isEmpty()) {
                throw new SchemaSelfTestException(problems);
            }
            for (Entry e : byType.values()) {
                long count = selfTest.stream().filter(x -> x.getKey().equals(e.jobType())).count();
                if (count == 0) {
                    LOG.warn("schema self-test: job type '{}' ({}) has no example payload, so boot cannot prove the schema accepts"
                            + " a real job; add one to the schema's own \"examples\": [ ... ] array, or register one with"
                            + " Schemas.Builder.example(jobType, json) (in a worker's main: GuardSpec.builder(...).schemas(\"{}\","
                            + " b -> b.fromClasspath(...).example(\"{}\", json)))", e.jobType(), e.source(), e.jobType(), e.jobType());
                } else {
                    LOG.info("schema self-test: job type '{}' schema {} from {} parsed, {} example(s) accepted",
                            e.jobType(), e.schemaId(), e.source(), count);
                }
            }
            return built;
        }
    }
}
