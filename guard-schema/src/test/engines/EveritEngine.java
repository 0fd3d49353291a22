import java.nio.file.Path;
import java.util.List;
import org.everit.json.schema.Schema;
import org.everit.json.schema.ValidationException;
import org.everit.json.schema.loader.SchemaLoader;
import org.json.JSONTokener;

/**
 * everit-json-schema 1.14.6 (drafts 4, 6, 7), as its README shows: org.json's tokener for the schema and the
 * instance, the draft set on the loader, formats asserted (everit's default, no switch), remote refs fetched through
 * java.net.URL (the suite's remotes from the local server on localhost:1234).
 */
public final class EveritEngine implements Harness.Engine {

    @Override
    public String name() {
        return "everit 1.14.6";
    }

    @Override
    public List<String> drafts() {
        return List.of("draft4", "draft6", "draft7");
    }

    @Override
    public String formats(String draft, boolean formatAssertion) {
        return "asserted";
    }

    @Override
    public Harness.Compiled compile(String draft, String schemaJson, boolean formatAssertion) {
        SchemaLoader.SchemaLoaderBuilder b = SchemaLoader.builder().schemaJson(new JSONTokener(schemaJson).nextValue());
        if ("draft6".equals(draft)) {
            b.draftV6Support();
        } else if ("draft7".equals(draft)) {
            b.draftV7Support();
        } // draft4 is the loader's default
        Schema schema = b.build().load().build();
        return new Harness.Compiled() {
            @Override
            public Object parse(String json) {
                return new JSONTokener(json).nextValue();
            }

            @Override
            public boolean validate(Object instance) {
                try {
                    schema.validate(instance);
                    return true;
                } catch (ValidationException e) {
                    return false;
                }
            }
        };
    }
}
