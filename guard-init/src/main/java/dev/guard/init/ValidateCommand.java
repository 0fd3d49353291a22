package dev.guard.init;

import dev.guard.config.GuardSettings;
import dev.guard.ExitCodes;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.guard.config.Redaction;
import dev.guard.schema.Accepted;
import dev.guard.schema.Draft;
import dev.guard.schema.Invalid;
import dev.guard.schema.Malformed;
import dev.guard.schema.SchemaSelfTestException;
import dev.guard.schema.SchemaViolation;
import dev.guard.schema.Schemas;
import dev.guard.schema.Verdict;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code guard-init validate --schema FILE PAYLOAD...}: the consumer's schema boundary, from the command line. */
@Command(name = "validate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Validates job payloads against a JSON Schema (the same boundary a guard consumer applies).",
            "PAYLOAD is one of: '-' (JSON Lines from stdin: one payload per non-blank line); inline JSON (an argument "
                    + "that starts with '{' or '['); or a file: *.jsonl / *.ndjson are JSON Lines, any other file is one "
                    + "JSON document.",
            "Each invalid payload is reported on stderr with every violation (JSON pointer, rule, message) and hints; "
                    + "valid ones get one line on stdout. --json prints one JSON report instead.",
            "$refs resolve inside the schema and to schemas given with --ref; nothing is fetched from the network "
                    + "unless --allow-network-refs is given."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            ExitCodes.OK + ":every payload valid",
            ExitCodes.USAGE + ":usage error (no schema, no payload, an inline scalar, an empty input)",
            ExitCodes.DATA_ERROR + ":at least one payload invalid or not JSON",
            ExitCodes.NO_INPUT + ":a payload file does not exist or cannot be read",
            ExitCodes.CONFIG + ":the schema cannot be loaded, is not a valid JSON Schema, or a $ref in it cannot be resolved"
        })
final class ValidateCommand implements Callable<Integer> {

    /** Created on first use: building picocli's model of this command (for --help) needs no JSON stack. */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    @ParentCommand
    GuardInit root;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--schema", paramLabel = "FILE", description = "the JSON Schema file (default: $GUARD_SCHEMA, guard.schema)")
    Path schema;

    @Option(names = "--json", description = "print one JSON report on stdout")
    boolean json;

    @Option(names = "--ref", paramLabel = "FILE|DIR|URI=FILE",
            description = "a schema $refs may point at (repeatable): a file (found under its $id and its own path), "
                    + "every *.json in a directory, or URI=FILE for a local copy of the schema published at URI "
                    + "(default: $GUARD_SCHEMA_REFS, comma-separated; guard.schema-refs)")
    List<String> refs = new ArrayList<>();

    @Option(names = "--allow-network-refs", description = "let $refs to http(s) URIs that are not given with --ref be fetched "
            + "(default: off, nothing is fetched; $GUARD_SCHEMA_NETWORK_REFS, guard.schema-network-refs)")
    boolean networkRefs;

    @Option(names = "--format-assertion", description = "check format in 2019-09 and 2020-12 schemas too, where it is an "
            + "annotation by default (drafts 4-7 always check it; default: off; $GUARD_SCHEMA_FORMAT_ASSERTION, "
            + "guard.schema-format-assertion)")
    boolean formatAssertion;

    @Option(names = "--draft", paramLabel = "4|6|7|2019-09|2020-12",
            description = "the draft of a schema without $schema (default: 7); a schema's own $schema decides otherwise")
    String draft;

    @Parameters(paramLabel = "PAYLOAD", arity = "0..*", description = "'-', inline JSON, or a file (see above)")
    List<String> payloads = new ArrayList<>();

    @Mixin
    ConfigFileOption config;

    /** One payload and where it came from ({@code stdin line 3}, {@code file a.json}, {@code argument 2}). */
    record Payload(String source, byte[] bytes) {}

    /** A payload source that could not be read. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;
        final int exitCode;

        Unreadable(String message) {
            this(ExitCodes.NO_INPUT, message);
        }

        Unreadable(int exitCode, String message) {
            super(message);
            this.exitCode = exitCode;
        }
    }

    /** Registers one --ref value; a problem sentence when it cannot be used. */
    private static String addRef(Schemas.Builder builder, String value) {
        int eq = value.indexOf('=');
        if (eq > 0 && value.substring(0, eq).contains(":")) {
            Path f = Path.of(value.substring(eq + 1));
            if (!Files.isRegularFile(f)) {
                return "names file " + f + ", which does not exist. Action: give URI=FILE with an existing file";
            }
            try {
                builder.refFromFile(value.substring(0, eq), f);
            } catch (IllegalArgumentException e) {
                return "is not URI=FILE: " + e.getMessage();
            }
            return null;
        }
        Path p = Path.of(value);
        if (Files.isDirectory(p)) {
            try (java.util.stream.Stream<Path> files = Files.list(p)) {
                files.filter(x -> x.getFileName().toString().endsWith(".json") && Files.isRegularFile(x)).sorted()
                        .forEach(builder::refFromFile);
            } catch (IOException e) {
                return "is a directory that cannot be listed: " + e.getMessage();
            }
            return null;
        }
        if (!Files.isRegularFile(p)) {
            return "does not exist. Action: give a schema file, a directory of them, or URI=FILE";
        }
        builder.refFromFile(p);
        return null;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // a bad setting ends the command through GuardInit's one path for them
        GuardSettings settings = GuardSettings.load(root.env, config.file);
        Optional<GuardSettings.Sourced<String>> schemaFile =
                settings.string(schema == null ? null : schema.toString(), "--schema", GuardSettings.ENV_SCHEMA, "schema");
        List<GuardSettings.Sourced<String>> refList =
                settings.list(refs, "--ref", GuardSettings.ENV_SCHEMA_REFS, "schema-refs", GuardSettings::splitNames);
        boolean network = settings.flag(networkRefs, "--allow-network-refs", GuardSettings.ENV_SCHEMA_NETWORK_REFS,
                "schema-network-refs").value();
        boolean assertFormats = settings.flag(formatAssertion, "--format-assertion", GuardSettings.ENV_SCHEMA_FORMAT_ASSERTION,
                "schema-format-assertion").value();
        Draft fallback = Draft.DRAFT_7;
        if (draft != null) {
            Optional<Draft> d = Draft.parse(draft);
            if (d.isEmpty()) {
                err.println("guard-init validate: --draft " + draft + " is not a draft guard validates with. Action: give "
                        + Draft.spellings());
                return ExitCodes.USAGE;
            }
            fallback = d.get();
        }
        if (schemaFile.isEmpty()) {
            err.println("guard-init validate: no schema. Action: give --schema FILE, or set " + GuardSettings.ENV_SCHEMA);
            return ExitCodes.USAGE;
        }
        if (payloads.isEmpty()) {
            err.println("guard-init validate: no payload. Action: give '-' (JSON Lines on stdin), inline JSON, or files");
            return ExitCodes.USAGE;
        }
        Path file = Path.of(schemaFile.get().value());
        if (!Files.isRegularFile(file)) {
            err.println("guard-init validate: schema file " + file + " (from " + schemaFile.get().origin()
                    + ") does not exist. Action: mount it there or fix the path");
            return ExitCodes.CONFIG;
        }
        Schemas.Builder builder = Schemas.builder().defaultDraft(fallback).allowNetworkRefs(network).formatAssertion(assertFormats)
                .fromFile(Schemas.jobTypeOf(file), file);
        for (GuardSettings.Sourced<String> ref : refList) {
            String problem = addRef(builder, ref.value());
            if (problem != null) {
                err.println("guard-init validate: --ref " + ref.value() + " (from " + ref.origin() + ") " + problem);
                return ExitCodes.CONFIG;
            }
        }
        Schemas schemas;
        try {
            schemas = builder.build();
        } catch (SchemaSelfTestException e) {
            err.println("guard-init validate: schema " + file + " (from " + schemaFile.get().origin() + ") cannot be used: "
                    + Redaction.maskText(e.getMessage()));
            return ExitCodes.CONFIG;
        }
        String jobType = schemas.jobTypes().iterator().next();

        Check check = new Check(schemas, jobType, json, out, err);
        try {
            List<Path> files = new ArrayList<>();
            for (int i = 0; i < payloads.size(); i++) {
                files.add(fileOf(payloads.get(i), i + 1)); // every named file exists before any payload is judged
            }
            for (int i = 0; i < payloads.size(); i++) {
                read(payloads.get(i), i + 1, files.get(i), schemas.maxBytes(), check);
            }
        } catch (Unreadable e) {
            err.println("guard-init validate: " + e.getMessage());
            return e.exitCode;
        }
        if (check.total == 0) {
            err.println("guard-init validate: no payload found in " + String.join(", ", payloads)
                    + " (empty, or only blank lines). Action: give at least one JSON payload; an empty input is "
                    + "not taken for success");
            return ExitCodes.USAGE;
        }
        int invalid = check.invalid;
        int malformed = check.malformed;
        int total = check.total;
        ObjectNode report = check.report;
        boolean ok = invalid == 0 && malformed == 0;
        report.put("ok", ok);
        report.put("total", total);
        report.put("invalid", invalid);
        report.put("malformed", malformed);
        if (json) {
            try {
                out.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report));
            } catch (IOException e) {
                throw new IllegalStateException("cannot write the validate report as JSON", e);
            }
        } else {
            String summary = "guard-init validate: " + total + (total == 1 ? " payload" : " payloads")
                    + " against schema " + schemas.schemaId(jobType) + " (" + file + "): " + (total - invalid - malformed)
                    + " valid, " + invalid + " invalid, " + malformed + " malformed";
            (ok ? out : err).println(summary + (ok ? "" : ". Action: fix the producer, or the schema if the change was "
                    + "intended (then deploy consumers first)"));
        }
        return ok ? ExitCodes.OK : ExitCodes.DATA_ERROR;
    }

    /** Judges each payload as it is read, so that a large JSON Lines input is never held in memory whole. */
    private static final class Check {
        private final Schemas schemas;
        private final String jobType;
        private final boolean json;
        private final PrintWriter out;
        private final PrintWriter err;
        final ObjectNode report = Json.MAPPER.createObjectNode();
        private final ArrayNode results;
        int total;
        int invalid;
        int malformed;

        Check(Schemas schemas, String jobType, boolean json, PrintWriter out, PrintWriter err) {
            this.schemas = schemas;
            this.jobType = jobType;
            this.json = json;
            this.out = out;
            this.err = err;
            report.put("schema", schemas.schemaId(jobType));
            results = report.putArray("payloads");
        }

        void accept(Payload p) {
            total++;
            Verdict v = schemas.validate(jobType, p.bytes());
            ObjectNode r = results.addObject();
            r.put("source", p.source());
            if (v instanceof Accepted) {
                r.put("verdict", "valid");
                if (!json) {
                    out.println("valid     " + p.source());
                }
            } else if (v instanceof Invalid inv) {
                invalid++;
                r.put("verdict", "invalid");
                ArrayNode vs = r.putArray("violations");
                for (SchemaViolation sv : inv.violations()) {
                    vs.addObject().put("pointer", sv.pointer()).put("keyword", sv.keyword())
                            .put("message", Redaction.maskText(sv.message()));
                }
                ArrayNode hs = r.putArray("hints");
                inv.hints().forEach(h -> hs.add(Redaction.maskText(h)));
                if (!json) {
                    err.println("INVALID   " + p.source() + ": " + inv.violations().size()
                            + (inv.violations().size() == 1 ? " violation" : " violations") + " of schema " + inv.schemaId());
                    for (SchemaViolation sv : inv.violations()) {
                        err.println("    " + Redaction.maskText(sv.describe()));
                    }
                    for (String h : inv.hints()) {
                        err.println("    hint: " + Redaction.maskText(h));
                    }
                }
            } else if (v instanceof Malformed m) {
                malformed++;
                r.put("verdict", "malformed");
                r.put("kind", m.kind().name().toLowerCase(Locale.ROOT));
                r.put("reason", Redaction.maskText(m.reason()));
                if (!json) {
                    err.println("MALFORMED " + p.source() + ": " + Redaction.maskText(m.describe()));
                }
            }
        }
    }

    /**
     * The file an argument names; null for '-' and inline JSON. An argument that is none of these is a
     * usage error (an inline scalar) or a missing file.
     */
    private static Path fileOf(String arg, int position) throws Unreadable {
        String trimmed = arg.strip();
        if (arg.equals("-") || trimmed.startsWith("{") || trimmed.startsWith("[")) {
            return null;
        }
        Path p;
        try {
            p = Path.of(arg);
        } catch (java.nio.file.InvalidPathException e) {
            p = null;
        }
        if ((p == null || !Files.exists(p)) && SCALAR.matcher(trimmed).matches()) {
            throw new Unreadable(ExitCodes.USAGE, "argument " + position + " (" + Redaction.maskText(shorten(trimmed))
                    + ") looks like an inline JSON scalar, and there is no such file. Inline payloads must be objects or "
                    + "arrays ('{...}', '[...]'). Action: for a scalar payload, pipe it in: echo '" + shorten(trimmed)
                    + "' | guard-init validate --schema FILE -");
        }
        if (p == null || !Files.isRegularFile(p)) {
            throw new Unreadable("payload file " + arg + " (argument " + position + ") does not exist. Action: give an "
                    + "existing file, '-' for JSON Lines on stdin, or inline JSON starting with '{'");
        }
        return p;
    }

    /** Judges the payloads of one argument: stdin ('-'), inline JSON, or the file {@link #fileOf} found. */
    private void read(String arg, int position, Path p, int maxBytes, Check check) throws Unreadable {
        if (p == null) {
            if (arg.equals("-")) {
                lines("stdin", root.stdin, maxBytes, check); // not closed: stdin belongs to the process
            } else {
                check.accept(new Payload("argument " + position, arg.getBytes(StandardCharsets.UTF_8)));
            }
            return;
        }
        String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
        try (InputStream in = Files.newInputStream(p)) {
            if (name.endsWith(".jsonl") || name.endsWith(".ndjson")) {
                lines("file " + p, in, maxBytes, check);
            } else {
                // one byte more than the limit is enough for the verdict "too large"; a huge file is never read whole
                check.accept(new Payload("file " + p, in.readNBytes(maxBytes + 1)));
            }
        } catch (IOException e) {
            throw new Unreadable("payload file " + p + " cannot be read: " + e.getMessage());
        }
    }

    /**
     * JSON Lines as bytes (so that invalid UTF-8 reaches the parser and is reported as such, not
     * replaced): lines end at LF, a CR before it is dropped, blank lines are skipped, and a line longer
     * than the payload limit keeps only limit + 1 bytes (enough for "too large") while the rest is skipped.
     */
    static void lines(String source, InputStream raw, int maxBytes, Check check) throws Unreadable {
        try {
            InputStream in = raw instanceof BufferedInputStream ? raw : new BufferedInputStream(raw, 1 << 16);
            java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
            int n = 0;
            boolean more = true;
            while (more) {
                int b = in.read();
                if (b == -1) {
                    more = false;
                } else if (b != '\n') {
                    if (line.size() <= maxBytes) {
                        line.write(b);
                    }
                    continue;
                }
                if (b == -1 && line.size() == 0) {
                    break;
                }
                n++;
                byte[] bytes = line.toByteArray();
                line.reset();
                int len = bytes.length;
                if (len > 0 && bytes[len - 1] == '\r' && len <= maxBytes) {
                    bytes = java.util.Arrays.copyOf(bytes, len - 1);
                }
                if (!blank(bytes)) {
                    check.accept(new Payload(source + " line " + n, bytes));
                }
            }
        } catch (IOException e) {
            throw new Unreadable(source + " cannot be read: " + e.getMessage());
        }
    }

    private static boolean blank(byte[] bytes) {
        for (byte x : bytes) {
            if (x != ' ' && x != '\t' && x != '\r') {
                return false;
            }
        }
        return true;
    }

    /** A JSON number, string, true, false or null (what an inline argument that is not a file may be). */
    private static final java.util.regex.Pattern SCALAR = java.util.regex.Pattern.compile(
            "-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?|\"(?:[^\"\\\\]|\\\\.)*\"|true|false|null");

    private static String shorten(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

}
