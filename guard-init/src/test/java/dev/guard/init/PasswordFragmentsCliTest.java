package dev.guard.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.guard.ExitCodes;
import dev.guard.testing.FreePorts;
import dev.guard.testing.HardPasswords;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No fragment of a password is ever printed by the CLI (issue 39): {@code check-env} (text and
 * JSON) over settings that carry generated passwords with every character that splits a URL
 * ({@link HardPasswords}), {@code wait} on URLs with them (a closed port, or a URL that does not
 * parse), and {@code diagnose} on a captured log whose client lines quote the URL. No
 * 4-character substring of the password may appear in stdout or stderr.
 */
class PasswordFragmentsCliTest {

    static final long SEED = 39L;
    static final List<String> PASSWORDS = HardPasswords.generate(SEED, 120);

    @TempDir
    Path tmp;

    static Map<String, String> env(String pw) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("REDIS_URL", "redis://:" + pw + "@localhost:6379/0");
        env.put("CACHE_URL", "redis://worker:" + pw + "@redis-b:6379");
        env.put("AMQP_URL", "amqp://worker:" + pw + "@rabbit:99999/jobs");
        env.put("DATABASE_URL", "postgres://app:" + pw + "@db:5432/app");
        env.put("NATS_URL", "nats://" + pw + "@your-nats-host:4222");
        env.put("SENTINEL_URL", "redis-sentinel://:" + pw + "@s1:26379,s2:26379#mymaster");
        env.put("SPRING_RABBITMQ_ADDRESSES", "worker:" + pw + "@rabbit:5672");
        env.put("BROKER_URL", "amqp://worker:" + pw + "@rabbit/jobs");
        return env;
    }

    @Test
    void checkEnvPrintsNoFragmentInTextOrJson() {
        String require = "REDIS_URL:url,CACHE_URL:url,AMQP_URL:url,DATABASE_URL:url,NATS_URL:url,SENTINEL_URL:url,"
                + "SPRING_RABBITMQ_ADDRESSES:host_list,RABBITMQ_URL:url";
        for (String pw : PASSWORDS) {
            Map<String, String> env = new LinkedHashMap<>(env(pw));
            env.put("KUBERNETES_SERVICE_HOST", "10.96.0.1"); // in a container: LOOPBACK applies
            Cli.Result text = Cli.run(env, "check-env", "--require", require);
            assertEquals(ExitCodes.CONFIG, text.code(), text.toString());
            assertNoFragment("check-env", pw, text.both());
            assertTrue(text.both().contains("REDIS_URL"), text.toString());
            Cli.Result json = Cli.run(env, "check-env", "--json", "--require", require);
            assertNoFragment("check-env --json", pw, json.both());
        }
    }

    @Test
    void waitPrintsNoFragment() {
        int closed = FreePorts.next();
        // the first passwords lead with each reserved character in turn: every one is tried at the start
        for (String pw : PASSWORDS.subList(0, HardPasswords.RESERVED.length() + 5)) {
            Cli.Result r = Cli.run(Map.of(), "wait", "redis://app:" + pw + "@127.0.0.1:" + closed,
                    "amqp://worker:" + pw + "@127.0.0.1:" + closed + "/jobs", "nats://" + pw + "@127.0.0.1:" + closed,
                    "--timeout", "400ms", "--attempt-timeout", "200ms");
            assertNotEquals(0, r.code(), r.toString());
            assertNoFragment("wait", pw, r.both());
        }
    }

    @Test
    void diagnosePrintsNoFragmentFromTheLinesItQuotes() throws IOException {
        for (String pw : PASSWORDS.subList(0, 40)) {
            Path log = tmp.resolve("worker.log");
            Files.writeString(log, String.join("\n",
                    "2026-12-05 02:00:00,100 INFO worker: connecting to redis://app:" + pw + "@redis:6379/0",
                    "2026-12-05 02:00:00,200 ERROR worker: Error 111 connecting to redis://app:" + pw + "@redis:6379. Connection refused.",
                    "2026-12-05 02:00:00,300 ERROR worker: io.lettuce.core.RedisConnectionException: Unable to connect to "
                            + "redis://:" + pw + "@cache:6379",
                    "2026-12-05 02:00:00,400 WARN worker: amqp broker amqp://worker:" + pw + "@rabbit:5672/jobs unreachable, retrying",
                    "2026-12-05 02:00:01,000 INFO worker: job 17 received",
                    ""), StandardCharsets.UTF_8);
            Cli.Result text = Cli.run(Map.of(), "diagnose", log.toString());
            assertEquals(0, text.code(), text.toString());
            assertTrue(text.out().startsWith("cause: "), text.toString());
            assertNoFragment("diagnose", pw, text.both());
            Cli.Result json = Cli.run(Map.of(), "diagnose", "--json", log.toString());
            assertNoFragment("diagnose --json", pw, json.both());
        }
    }

    private static void assertNoFragment(String where, String pw, String output) {
        if (HardPasswords.leak(output, pw) != null) {
            fail(HardPasswords.describe(where + " (seed " + SEED + ")", pw, output));
        }
    }
}
