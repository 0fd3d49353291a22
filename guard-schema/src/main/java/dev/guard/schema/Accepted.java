package dev.guard.schema;

import org.json.JSONObject;

/**
 * The payload is JSON and satisfies its schema.
 *
 * @param schemaId the schema's id
 * @param payload  the parsed payload: a {@link JSONObject}, {@code org.json.JSONArray}, String,
 *                 Number, Boolean or {@link JSONObject#NULL}. Numbers are canonical as JSON Schema
 *                 compares them: integers (also {@code 1.0}, {@code 1e2}) as Integer, Long or
 *                 BigInteger, other decimals as an exact BigDecimal without trailing zeros
 */
public record Accepted(String schemaId, Object payload) implements Verdict {

    /** The payload as a JSON object; throws IllegalStateException when the root is not an object. */
    public JSONObject object() {
        if (payload instanceof JSONObject o) {
            return o;
        }
        throw new IllegalStateException("payload accepted by schema " + schemaId
                + " is not a JSON object but " + dev.guard.schema.internal.Json.typeName(payload));
    }

    @Override
    public String describe() {
        return "accepted by schema " + schemaId;
    }
}
