package dev.guard.ready.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a server is named in guard's messages: by what its INFO server section says. */
class RedisInfoTest {

    @Test
    void valkeyIsNamedByItsServerNameAndVersionNotByTheRedisVersionItReportsForCompatibility() {
        // the field lines of the example in Valkey's INFO documentation, https://valkey.io/commands/info/
        String info = "# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:255.255.255\r\n"
                + "redis_git_sha1:b0d5a0f5\r\nserver_mode:standalone\r\n";
        assertEquals("Valkey 255.255.255", RedisInfo.serverName(RedisInfo.fields(info)));
    }

    @Test
    void redisHasNoServerNameAndIsNamedByItsVersion() {
        assertEquals("Redis 7.0.15", RedisInfo.serverName(RedisInfo.fields("# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\n")));
        assertEquals("Redis 8.0.2", RedisInfo.serverName(Map.of("redis_version", "8.0.2", "server_name", "redis")));
        assertEquals("Redis", RedisInfo.serverName(Map.of()), "nothing readable (INFO refused by an ACL)");
        assertEquals("Keydb", RedisInfo.serverName(Map.of("server_name", "keydb")), "a name without its own version field");
    }
}
