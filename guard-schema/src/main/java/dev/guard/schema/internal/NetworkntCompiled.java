package dev.guard.schema.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import dev.guard.schema.Draft;
import dev.guard.schema.SchemaViolation;
import java.util.ArrayList;
import java.util.List;

/** A 2019-09 or 2020-12 schema compiled by networknt's json-schema-validator. */
final class NetworkntCompiled implements Compiled {

    private final Schema schema;
    private final Draft draft;
    private final RenameHints.Shape shape;

    NetworkntCompiled(Schema schema, Draft draft, RenameHints.Shape shape) {
        this.schema = schema;
        this.draft = draft;
        this.shape = shape;
    }

    @Override
    public Rejection check(Object value) {
        List<Error> errors = schema.validate(JsonNodes.of(value));
        if (errors.isEmpty()) {
            return null;
        }
        List<SchemaViolation> violations = new ArrayList<>(errors.size());
        List<RenameHints.Fact> facts = new ArrayList<>();
        for (Error e : errors) {
            String pointer = "#" + e.getInstanceLocation();
            String keyword = e.getKeyword() == null ? "schema" : e.getKeyword();
            violations.add(new SchemaViolation(pointer, keyword, e.getMessage()));
            if ("required".equals(keyword) && e.getProperty() != null) {
                facts.add(new RenameHints.Missing(pointer, e.getProperty()));
            } else if ("type".equals(keyword)) {
                facts.add(new RenameHints.WrongType(pointer, expected(e.getSchemaNode())));
            }
        }
        return new Rejection(violations, RenameHints.hintsOrNone(shape, value, facts));
    }

    @Override
    public Draft draft() {
        return draft;
    }

    /** The {@code type} keyword's value: one name, or several joined by " or ". */
    private static String expected(JsonNode type) {
        if (type == null) {
            return "another type";
        }
        if (type.isObject() && type.has("type")) {
            type = type.get("type");
        }
        if (type.isTextual()) {
            return type.asText();
        }
        if (type.isArray()) {
            List<String> names = new ArrayList<>();
            type.forEach(t -> names.add(t.asText()));
            return String.join(" or ", names);
        }
        return type.toString();
    }
}
