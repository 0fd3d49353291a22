import tools.jackson.databind.ObjectMapper;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.serialization.JsonMapperFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * networknt json-schema-validator 3.0.9 (Jackson 3). One SchemaRegistry per draft, with that draft's dialect as the
 * default (a schema's own "$schema" still wins, as the standard says); formatAssertionsEnabled left unset (the
 * library's per-draft default: asserted up to draft 7, annotation in 2019-09 and 2020-12) or set to true for the
 * optional tests; remote fetching switched on (off by default since 2.0) for the suite's localhost:1234 server.
 * Instances are read with the library's own JsonMapperFactory mapper. Errors are collected as a user who wants the
 * messages would (the default List of errors).
 */
public final class Networknt3Engine implements Harness.Engine {

    private final Map<String, SchemaRegistry> registries = new ConcurrentHashMap<>();
    private final ObjectMapper mapper = JsonMapperFactory.getInstance();

    @Override
    public String name() {
        return "networknt 3.0.9";
    }

    @Override
    public List<String> drafts() {
        return List.of("draft4", "draft6", "draft7", "draft2019-09", "draft2020-12");
    }

    static SpecificationVersion version(String draft) {
        switch (draft) {
            case "draft4": return SpecificationVersion.DRAFT_4;
            case "draft6": return SpecificationVersion.DRAFT_6;
            case "draft7": return SpecificationVersion.DRAFT_7;
            case "draft2019-09": return SpecificationVersion.DRAFT_2019_09;
            case "draft2020-12": return SpecificationVersion.DRAFT_2020_12;
            default: throw new IllegalArgumentException(draft);
        }
    }

    private SchemaRegistry registry(String draft, boolean formatAssertion) {
        return registries.computeIfAbsent(draft + formatAssertion, k -> SchemaRegistry.withDefaultDialect(version(draft),
                b -> b.schemaLoader(l -> l.fetchRemoteResources())
                        .schemaRegistryConfig(SchemaRegistryConfig.builder()
                                .formatAssertionsEnabled(formatAssertion ? Boolean.TRUE : null).build())));
    }

    @Override
    public Harness.Compiled compile(String draft, String schemaJson, boolean formatAssertion) {
        Schema schema = registry(draft, formatAssertion).getSchema(schemaJson, InputFormat.JSON);
        schema.initializeValidators(); // load-time errors surface at load, not at the first validation
        return new Harness.Compiled() {
            @Override
            public Object parse(String json) throws Exception {
                return mapper.readTree(json);
            }

            @Override
            public boolean validate(Object instance) {
                return schema.validate((tools.jackson.databind.JsonNode) instance).isEmpty();
            }
        };
    }
}
