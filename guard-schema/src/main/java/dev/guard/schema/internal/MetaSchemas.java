package dev.guard.schema.internal;

import dev.guard.schema.Draft;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The meta-schemas of every draft guard validates with, so that a {@code $ref} to one (a schema that
 * checks schemas, or borrows {@code "$ref": "http://json-schema.org/draft-07/schema#/definitions/..."})
 * resolves offline. The documents are the ones json-schema.org publishes, as networknt's validator ships
 * them in its jar (its own resolution of meta-schemas reads them there too); guard reads them from that
 * jar, never from the network. {@code MetaSchemasTest} checks that each one is there and names itself by
 * the URI it is registered under.
 */
public final class MetaSchemas {

    /** A meta-schema: the URI it is published at (no fragment), its draft, and the classpath resource. */
    public record Known(URI uri, Draft draft, String resource) {}

    private static final List<Known> KNOWN = List.of(
            known("http://json-schema.org/draft-04/schema", Draft.DRAFT_4, "draft-04/schema"),
            known("http://json-schema.org/draft-06/schema", Draft.DRAFT_6, "draft-06/schema"),
            known("http://json-schema.org/draft-07/schema", Draft.DRAFT_7, "draft-07/schema"),
            known("https://json-schema.org/draft/2019-09/schema", Draft.DRAFT_2019_09, "draft/2019-09/schema"),
            known("https://json-schema.org/draft/2019-09/meta/core", Draft.DRAFT_2019_09, "draft/2019-09/meta/core"),
            known("https://json-schema.org/draft/2019-09/meta/applicator", Draft.DRAFT_2019_09, "draft/2019-09/meta/applicator"),
            known("https://json-schema.org/draft/2019-09/meta/validation", Draft.DRAFT_2019_09, "draft/2019-09/meta/validation"),
            known("https://json-schema.org/draft/2019-09/meta/meta-data", Draft.DRAFT_2019_09, "draft/2019-09/meta/meta-data"),
            known("https://json-schema.org/draft/2019-09/meta/format", Draft.DRAFT_2019_09, "draft/2019-09/meta/format"),
            known("https://json-schema.org/draft/2019-09/meta/content", Draft.DRAFT_2019_09, "draft/2019-09/meta/content"),
            known("https://json-schema.org/draft/2020-12/schema", Draft.DRAFT_2020_12, "draft/2020-12/schema"),
            known("https://json-schema.org/draft/2020-12/meta/core", Draft.DRAFT_2020_12, "draft/2020-12/meta/core"),
            known("https://json-schema.org/draft/2020-12/meta/applicator", Draft.DRAFT_2020_12, "draft/2020-12/meta/applicator"),
            known("https://json-schema.org/draft/2020-12/meta/unevaluated", Draft.DRAFT_2020_12, "draft/2020-12/meta/unevaluated"),
            known("https://json-schema.org/draft/2020-12/meta/validation", Draft.DRAFT_2020_12, "draft/2020-12/meta/validation"),
            known("https://json-schema.org/draft/2020-12/meta/meta-data", Draft.DRAFT_2020_12, "draft/2020-12/meta/meta-data"),
            known("https://json-schema.org/draft/2020-12/meta/format-annotation", Draft.DRAFT_2020_12, "draft/2020-12/meta/format-annotation"),
            known("https://json-schema.org/draft/2020-12/meta/format-assertion", Draft.DRAFT_2020_12, "draft/2020-12/meta/format-assertion"),
            known("https://json-schema.org/draft/2020-12/meta/content", Draft.DRAFT_2020_12, "draft/2020-12/meta/content"));

    private MetaSchemas() {}

    private static Known known(String uri, Draft draft, String resource) {
        return new Known(URI.create(uri), draft, resource);
    }

    /** Every bundled meta-schema, the drafts' own first. */
    public static List<Known> all() {
        return KNOWN;
    }

    /** The text of a bundled meta-schema, read from the classpath. */
    public static String text(Known k) {
        try (InputStream in = MetaSchemas.class.getClassLoader().getResourceAsStream(k.resource())) {
            if (in == null) {
                throw new IOException("classpath resource " + k.resource() + " (the meta-schema " + k.uri()
                        + ") is missing: is com.networknt:json-schema-validator on the class path?");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Every meta-schema parsed afresh (the compiler changes the documents it is given), by URI; a
     * meta-schema that cannot be read is left out (its references are then reported as unresolved).
     */
    public static Map<URI, SchemaCompiler.Document> documents(Json reader) {
        Map<URI, SchemaCompiler.Document> out = new LinkedHashMap<>();
        for (Known k : KNOWN) {
            try {
                if (reader.read(text(k)) instanceof Json.Value v) {
                    out.put(k.uri(), new SchemaCompiler.Document("the " + k.draft().label() + " meta-schema " + k.uri()
                            + " (bundled)", k.draft(), v.value()));
                }
            } catch (UncheckedIOException e) {
                // not on the class path: left out
            }
        }
        return out;
    }
}
