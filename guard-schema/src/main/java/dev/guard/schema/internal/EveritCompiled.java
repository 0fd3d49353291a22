package dev.guard.schema.internal;

import dev.guard.schema.Draft;
import dev.guard.schema.SchemaViolation;
import java.util.ArrayList;
import java.util.List;
import org.everit.json.schema.Schema;
import org.everit.json.schema.ValidationException;
import org.everit.json.schema.Validator;

/** A draft-04, -06 or -07 schema compiled by everit. */
final class EveritCompiled implements Compiled {

    /** Stateless and thread-safe; Schema.validate would build a new one per call. */
    private static final Validator VALIDATOR = Validator.builder().build();

    private final Schema schema;
    private final Draft draft;
    /** Accepts most valid payloads without running everit (null when the schema's root is not covered). */
    private final ValidFastPath fast;

    EveritCompiled(Schema schema, Draft draft) {
        this.schema = schema;
        this.draft = draft;
        this.fast = ValidFastPath.compile(schema);
    }

    /** everit's schema (tests compare the fast path with it). */
    Schema schema() {
        return schema;
    }

    @Override
    public Rejection check(Object value) {
        if (fast != null && fast.certainlyValid(value)) {
            return null; // what everit would say (ValidFastPath)
        }
        try {
            VALIDATOR.performValidation(schema, value);
            return null;
        } catch (ValidationException ve) {
            List<SchemaViolation> violations = new ArrayList<>();
            collect(ve, violations);
            return new Rejection(violations, RenameHints.hintsOrNone(schema, value, violations));
        }
    }

    @Override
    public Draft draft() {
        return draft;
    }

    private static void collect(ValidationException ve, List<SchemaViolation> out) {
        if (ve.getCausingExceptions().isEmpty()) {
            String keyword = ve.getKeyword() == null ? "schema" : ve.getKeyword();
            out.add(new SchemaViolation(ve.getPointerToViolation(), keyword, ve.getErrorMessage()));
            return;
        }
        for (ValidationException cause : ve.getCausingExceptions()) {
            collect(cause, out);
        }
    }
}
