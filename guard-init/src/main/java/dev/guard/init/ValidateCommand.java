package dev.guard.init;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.guard.config.Redaction;
import dev.guard.schema.Accepted;
import dev.guard.schema.Invalid;
import dev.guard.schema.Malformed;
import dev.guard.schema.SchemaSelfTestException;
import dev.guard.schema.SchemaViolation;
import dev.guard.schema.Schemas;
import dev.guard.schema.Verdict;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
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
                    + "valid ones get one line on stdout. --json prints one JSON report instead."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every payload valid",
            "64:usage error (no schema, no payload)",
            "65:at least one payload invalid or not JSON",
            "66:a payload file does not exist or cannot be read",
            "78:the schema cannot be loaded or is not a valid JSON Schema"
        })
final class ValidateCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ParentCommand
    GuardInit root;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--schema", paramLabel = "FILE", description = "the JSON Schema file (default: $GUARD_SCHEMA, guard.schema)")
    Path schema;

    @Option(names = "--json", description = "print one JSON report on stdout")
    boolean json;

    @Parameters(paramLabel = "PAYLOAD", arity = "0..*", description = "'-', inline JSON, or a file (see above)")
    List<String> payloads = new ArrayList<>();

    @Mixin
    ConfigFileOption config;

    /** One payload and where it came from ({@code stdin line 3}, {@code file a.json}, {@code argument 2}). */
    record Payload(String source, byte[] bytes) {}

    /** A payload source that could not be read. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String message) {
            super(message);
        }
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<Settings.Sourced<String>> schemaFile;
        try {
            Settings settings = Settings.load(root.env, config.file);
            schemaFile = settings.string(schema == null ? null : schema.toString(), "--schema", Settings.ENV_SCHEMA, "schema");
        } catch (Settings.BadSetting e) {
            err.println("guard-init validate: " + e.getMessage());
            return e.exitCode;
        }
        if (schemaFile.isEmpty()) {
            err.println("guard-init validate: no schema. Action: give --schema FILE, or set " + Settings.ENV_SCHEMA);
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
        Schemas schemas;
        try {
            schemas = Schemas.single(file);
        } catch (SchemaSelfTestException e) {
            err.println("guard-init validate: schema " + file + " (from " + schemaFile.get().origin() + ") cannot be used: "
                    + Redaction.maskText(e.getMessage()));
            return ExitCodes.CONFIG;
        }
        String jobType = schemas.jobTypes().iterator().next();

        List<Payload> all = new ArrayList<>();
        try {
            for (int i = 0; i < payloads.size(); i++) {
                all.addAll(read(payloads.get(i), i + 1));
            }
        } catch (Unreadable e) {
            err.println("guard-init validate: " + e.getMessage());
            return ExitCodes.NO_INPUT;
        }

        int invalid = 0;
        int malformed = 0;
        ObjectNode report = JSON.createObjectNode();
        report.put("schema", schemas.schemaId(jobType));
        ArrayNode results = report.putArray("payloads");
        for (Payload p : all) {
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
        boolean ok = invalid == 0 && malformed == 0;
        report.put("ok", ok);
        report.put("total", all.size());
        report.put("invalid", invalid);
        report.put("malformed", malformed);
        if (json) {
            try {
                out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
            } catch (IOException e) {
                throw new IllegalStateException("cannot write the validate report as JSON", e);
            }
        } else {
            String summary = "guard-init validate: " + all.size() + (all.size() == 1 ? " payload" : " payloads")
                    + " against schema " + schemas.schemaId(jobType) + " (" + file + "): " + (all.size() - invalid - malformed)
                    + " valid, " + invalid + " invalid, " + malformed + " malformed";
            (ok ? out : err).println(summary + (ok ? "" : ". Action: fix the producer, or the schema if the change was "
                    + "intended (then deploy consumers first)"));
        }
        return ok ? ExitCodes.OK : ExitCodes.DATA_ERROR;
    }

    private List<Payload> read(String arg, int position) throws Unreadable {
        if (arg.equals("-")) {
            // not closed: stdin belongs to the process
            return lines("stdin", new BufferedReader(new InputStreamReader(root.stdin, StandardCharsets.UTF_8)), false);
        }
        String trimmed = arg.stripLeading();
        if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
            return List.of(new Payload("argument " + position, arg.getBytes(StandardCharsets.UTF_8)));
        }
        Path p = Path.of(arg);
        if (!Files.isRegularFile(p)) {
            throw new Unreadable("payload file " + p + " (argument " + position + ") does not exist. Action: give an "
                    + "existing file, '-' for JSON Lines on stdin, or inline JSON starting with '{'");
        }
        String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
        try {
            if (name.endsWith(".jsonl") || name.endsWith(".ndjson")) {
                return lines("file " + p, Files.newBufferedReader(p, StandardCharsets.UTF_8), true);
            }
            return List.of(new Payload("file " + p, Files.readAllBytes(p)));
        } catch (IOException e) {
            throw new Unreadable("payload file " + p + " cannot be read: " + e.getMessage());
        }
    }

    private static List<Payload> lines(String source, BufferedReader reader, boolean close) throws Unreadable {
        List<Payload> out = new ArrayList<>();
        try {
            int n = 0;
            for (String line; (line = reader.readLine()) != null; ) {
                n++;
                if (!line.isBlank()) {
                    out.add(new Payload(source + " line " + n, line.getBytes(StandardCharsets.UTF_8)));
                }
            }
        } catch (IOException e) {
            throw new Unreadable(source + " cannot be read: " + e.getMessage());
        } finally {
            if (close) {
                try {
                    reader.close();
                } catch (IOException ignored) {
                    // read already; nothing to report
                }
            }
        }
        return out;
    }
}
