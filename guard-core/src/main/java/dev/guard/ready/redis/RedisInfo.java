package dev.guard.ready.redis;

import java.util.HashMap;
import java.util.Map;

/** The replies of Redis's INFO and CLUSTER INFO, read as fields: one parser for the probes and the queues. */
public final class RedisInfo {

    private RedisInfo() {}

    /**
     * The {@code name:value} lines of an INFO (or CLUSTER INFO) reply as a map, section headers and
     * blank lines left out, values stripped; empty for null.
     */
    public static Map<String, String> fields(String info) {
        Map<String, String> fields = new HashMap<>();
        if (info == null) {
            return fields;
        }
        for (String line : info.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.charAt(0) != '#') {
                fields.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
            }
        }
        return fields;
    }
}
