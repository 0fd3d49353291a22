package dev.guard.schema.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * org.json values (what {@link Json} reads, what everit validates and {@code Payload} exposes) as
 * Jackson trees (what networknt validates), numbers kept exact: an integer stays an integer of its
 * width, a decimal its {@code BigDecimal}.
 */
final class JsonNodes {

    private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

    private JsonNodes() {}

    static JsonNode of(Object v) {
        if (v instanceof JSONObject o) {
            ObjectNode n = NODES.objectNode();
            for (String key : o.keySet()) {
                n.set(key, of(o.opt(key)));
            }
            return n;
        }
        if (v instanceof JSONArray a) {
            ArrayNode n = NODES.arrayNode(a.length());
            for (int i = 0; i < a.length(); i++) {
                n.add(of(a.opt(i)));
            }
            return n;
        }
        if (v instanceof String s) {
            return NODES.textNode(s);
        }
        if (v instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (v instanceof Integer i) {
            return NODES.numberNode(i);
        }
        if (v instanceof Long l) {
            return NODES.numberNode(l);
        }
        if (v instanceof BigInteger bi) {
            return NODES.numberNode(bi);
        }
        if (v instanceof BigDecimal d) {
            return NODES.numberNode(d);
        }
        if (v instanceof Double d) {
            return NODES.numberNode(d);
        }
        if (v instanceof Number n) {
            return NODES.numberNode(new BigDecimal(n.toString()));
        }
        return NODES.nullNode(); // JSONObject.NULL (and null)
    }
}
