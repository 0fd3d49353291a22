import com.github.erosb.jsonsKema.FormatValidationPolicy;
import com.github.erosb.jsonsKema.JsonParser;
import com.github.erosb.jsonsKema.Schema;
import com.github.erosb.jsonsKema.SchemaLoader;
import com.github.erosb.jsonsKema.SchemaLoaderConfig;
import com.github.erosb.jsonsKema.Validator;
import com.github.erosb.jsonsKema.ValidatorConfig;
import java.util.List;
import java.util.Map;

/**
 * json-sKema 0.32.0 (2020-12 only; it has no draft switch), as its README shows: its own JsonParser, SchemaLoader
 * with the default config (its default schema client reads remote refs through java.net.URL, here the suite's
 * localhost:1234 server), Validator with FormatValidationPolicy.DEPENDS_ON_VOCABULARY (format is an annotation under
 * the 2020-12 meta-schema) or ALWAYS for the optional tests.
 */
public final class JsonSkemaEngine implements Harness.Engine {

    @Override
    public String name() {
        return "json-sKema 0.32.0";
    }

    @Override
    public List<String> drafts() {
        return List.of("draft2020-12");
    }

    @Override
    public Harness.Compiled compile(String draft, String schemaJson, boolean formatAssertion) {
        Schema schema = new SchemaLoader(new JsonParser(schemaJson).parse(), SchemaLoaderConfig.createDefaultConfig(Map.of()))
                .load();
        Validator validator = Validator.create(schema, new ValidatorConfig(
                formatAssertion ? FormatValidationPolicy.ALWAYS : FormatValidationPolicy.DEPENDS_ON_VOCABULARY));
        return new Harness.Compiled() {
            @Override
            public Object parse(String json) {
                return new JsonParser(json).parse();
            }

            @Override
            public boolean validate(Object instance) {
                return validator.validate((com.github.erosb.jsonsKema.IJsonValue) instance) == null;
            }
        };
    }
}
