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

    /**
     * The server as its {@code INFO server} names itself: {@code Valkey 8.0.1} where it says
     * {@code server_name:valkey} and {@code valkey_version}, else {@code Redis 7.0.15} from
     * {@code redis_version} (Valkey also reports a {@code redis_version}, the Redis version it is
     * compatible with); {@code Redis} when neither is readable. Valkey's INFO documentation
     * (https://valkey.io/commands/info/) shows its server section opening with
     * {@code redis_version:7.2.4}, {@code server_name:valkey}, {@code valkey_version:...}; Redis
     * 7.0.15 (this machine's) has no {@code server_name}.
     */
    public static String serverName(Map<String, String> server) {
        String name = server.get("server_name");
        if (name != null && !name.isBlank() && !name.equalsIgnoreCase("redis")) {
            String version = server.get(name.toLowerCase(java.util.Locale.ROOT) + "_version");
            String shown = Character.toUpperCase(name.charAt(0)) + name.substring(1);
            return version == null || version.isBlank() ? shown : shown + " " + version;
        }
        String version = server.get("redis_version");
        return version == null || version.isBlank() ? "Redis" : "Redis " + version;
    }
}
