import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.SchemaRepository;
import io.vertx.json.schema.Validator;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * vertx-json-schema 5.0.7 (2019-09, 2020-12). It never fetches: a SchemaRepository per draft is given the
 * meta-schemas it ships (as its own TCK test does) and, for the suite, every file of the suite's remotes/ under
 * http://localhost:1234/ (the URL prefix mapped to the directory). The draft is set in JsonSchemaOptions;
 * version 5.0.7 has no format switch (its formats are always checked), so both parts run alike. Instances are
 * decoded with Vert.x's Json (Jackson 2 underneath) into its JsonObject / JsonArray / scalars.
 */
public final class VertxEngine implements Harness.Engine {

    static final String[] META = {
        "http://json-schema.org/draft-04/schema",
        "http://json-schema.org/draft-07/schema",
        "https://json-schema.org/draft/2019-09/schema",
        "https://json-schema.org/draft/2019-09/meta/core",
        "https://json-schema.org/draft/2019-09/meta/applicator",
        "https://json-schema.org/draft/2019-09/meta/validation",
        "https://json-schema.org/draft/2019-09/meta/meta-data",
        "https://json-schema.org/draft/2019-09/meta/format",
        "https://json-schema.org/draft/2019-09/meta/content",
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2020-12/meta/core",
        "https://json-schema.org/draft/2020-12/meta/applicator",
        "https://json-schema.org/draft/2020-12/meta/validation",
        "https://json-schema.org/draft/2020-12/meta/meta-data",
        "https://json-schema.org/draft/2020-12/meta/format-annotation",
        "https://json-schema.org/draft/2020-12/meta/content",
        "https://json-schema.org/draft/2020-12/meta/unevaluated"
    };

    private final Map<String, SchemaRepository> repositories = new HashMap<>();
    private final Map<String, String> remotes = new HashMap<>();

    @Override
    public String name() {
        return "vertx-json-schema 5.0.7";
    }

    @Override
    public List<String> drafts() {
        return List.of("draft2019-09", "draft2020-12");
    }

    @Override
    public String formats(String draft, boolean formatAssertion) {
        return "no switch";
    }

    @Override
    public void init(Path suiteDir) throws Exception {
        Path dir = suiteDir.resolve("remotes");
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".json"))::iterator) {
                remotes.put("http://localhost:1234/" + dir.relativize(f).toString().replace('\\', '/'), Files.readString(f));
            }
        }
    }

    static Draft draft(String draft) {
        return "draft2019-09".equals(draft) ? Draft.DRAFT201909 : Draft.DRAFT202012;
    }

    static JsonSchemaOptions options(String draft) {
        return new JsonSchemaOptions().setDraft(draft(draft)).setBaseUri("https://guard.dev/engines/")
                .setOutputFormat(OutputFormat.Basic);
    }

    static JsonSchema schema(Object decoded) {
        return decoded instanceof Boolean ? JsonSchema.of((Boolean) decoded) : JsonSchema.of((JsonObject) decoded);
    }

    /**
     * One repository per draft, as an application would keep one (a new repository for every schema was tried:
     * the same counts).
     */
    private SchemaRepository repository(String draft) throws Exception {
        SchemaRepository repo = repositories.get(draft);
        if (repo == null) {
            repo = SchemaRepository.create(options(draft));
            for (String id : META) {
                String resource = id.substring(id.indexOf("://") + 3);
                try (InputStream in = VertxEngine.class.getClassLoader().getResourceAsStream(resource)) {
                    repo.dereference(id, JsonSchema.of(new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8))));
                }
            }
            for (Map.Entry<String, String> r : remotes.entrySet()) {
                repo.dereference(r.getKey(), schema(Json.decodeValue(r.getValue())));
            }
            repositories.put(draft, repo);
        }
        return repo;
    }

    @Override
    public Harness.Compiled compile(String draft, String schemaJson, boolean formatAssertion) throws Exception {
        Validator validator = repository(draft).validator(schema(Json.decodeValue(schemaJson)), options(draft), true);
        return new Harness.Compiled() {
            @Override
            public Object parse(String json) {
                return Json.decodeValue(json);
            }

            @Override
            public boolean validate(Object instance) {
                return validator.validate(instance).getValid();
            }
        };
    }
}
