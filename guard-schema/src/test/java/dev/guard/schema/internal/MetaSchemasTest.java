package dev.guard.schema.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.schema.Draft;
import java.util.EnumSet;
import java.util.Set;
import org.json.JSONObject;
import org.junit.jupiter.api.Test;

/** Every bundled meta-schema is on the class path and names itself by the URI guard registers it under. */
class MetaSchemasTest {

    @Test
    void everyMetaSchemaIsThereAndIsTheOneItIsRegisteredFor() {
        Json reader = new Json(1 << 20, 64);
        Set<Draft> drafts = EnumSet.noneOf(Draft.class);
        for (MetaSchemas.Known k : MetaSchemas.all()) {
            Json.Value v = assertInstanceOf(Json.Value.class, reader.read(MetaSchemas.text(k)), k.resource());
            JSONObject o = assertInstanceOf(JSONObject.class, v.value(), k.resource());
            String id = o.optString(k.draft().idKeyword(), "");
            assertEquals(k.uri().toString(), id.replaceFirst("#$", ""), k.resource() + " names itself " + id);
            drafts.add(k.draft());
        }
        assertEquals(EnumSet.allOf(Draft.class), drafts, "a meta-schema for every draft guard validates with");
        assertEquals(MetaSchemas.all().size(), MetaSchemas.documents(reader).size(), "every one read");
        for (Draft d : Draft.values()) {
            assertTrue(MetaSchemas.all().stream().anyMatch(k -> k.uri().toString().equals(d.metaSchema().replaceFirst("#$", ""))),
                    d + "'s $schema value is bundled");
        }
    }
}
