package dev.guard.config;

import static dev.guard.config.SettingType.DURATION;
import static dev.guard.config.SettingType.HOST_LIST;
import static dev.guard.config.SettingType.INT;
import static dev.guard.config.SettingType.PORT;
import static dev.guard.config.SettingType.STRING;
import static dev.guard.config.SettingType.URL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The config guard's rules as a table: each row names a scenario, the environment, the declared
 * settings, and exactly the violations expected (rule, severity and message text). Pure logic over
 * an injected environment; host names are only parsed, never connected to.
 */
@ExtendWith(NoSecretOnConsole.class)
class ConfigGuardScenariosTest {

    /** A test password: must never appear in any output. */
    static final String PW = NoSecretOnConsole.TEST_PASSWORD;

    record Expect(String setting, String rule, Severity severity, String exactMessage, List<String> fragments) {}

    record Scenario(String name, Map<String, String> env, boolean inContainer, UnaryOperator<ConfigGuard.Builder> declare,
                    List<Expect> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Expect exact(String setting, String rule, Severity severity, String message) {
        return new Expect(setting, rule, severity, message, List.of());
    }

    static Expect has(String setting, String rule, Severity severity, String... fragments) {
        return new Expect(setting, rule, severity, null, List.of(fragments));
    }

    static Map<String, String> env(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    static Scenario bad(String name, Map<String, String> env, UnaryOperator<ConfigGuard.Builder> declare, Expect... expected) {
        return new Scenario(name, env, true, declare, List.of(expected));
    }

    static Scenario badOutsideContainer(String name, Map<String, String> env, UnaryOperator<ConfigGuard.Builder> declare,
                                        Expect... expected) {
        return new Scenario(name, env, false, declare, List.of(expected));
    }

    static Scenario good(String name, Map<String, String> env, UnaryOperator<ConfigGuard.Builder> declare) {
        return new Scenario(name, env, true, declare, List.of());
    }

    static UnaryOperator<ConfigGuard.Builder> redisUrl() {
        return b -> b.requireEnv("REDIS_URL", URL);
    }

    static UnaryOperator<ConfigGuard.Builder> untyped(String name) {
        return b -> b.requireEnv(name);
    }

    static UnaryOperator<ConfigGuard.Builder> brokers() {
        return b -> b.requireEnv("KAFKA_BROKERS", HOST_LIST);
    }

    static final Severity E = Severity.ERROR;
    static final Severity W = Severity.WARNING;

    static Stream<Scenario> scenarios() {
        String inPod = "inside a container (declared so in its settings), where loopback is this container itself";
        return Stream.of(
                // ---- missing, blank, placeholders ----
                bad("missing, no near name set", env("PATH", "/usr/bin"), redisUrl(),
                        exact("REDIS_URL", "MISSING", E, "REDIS_URL is not set (origin: env REDIS_URL (unset); found: unset). "
                                + "Action: set REDIS_URL in this worker's environment (Kubernetes env/valueFrom, Compose environment:)"
                                + " (e.g. redis://redis:6379)")),
                bad("empty string", env("REDIS_URL", ""), redisUrl(),
                        exact("REDIS_URL", "BLANK", E, "REDIS_URL is set but empty (origin: env REDIS_URL; found: an empty value). "
                                + "Action: give REDIS_URL a real value (e.g. redis://redis:6379), or remove it so nothing pretends it is set")),
                bad("only whitespace", env("REDIS_URL", "   "), redisUrl(),
                        has("REDIS_URL", "BLANK", E, "REDIS_URL is set but blank (only whitespace)")),
                bad("placeholder None (Python's str(None))", env("REDIS_URL", "None"), redisUrl(),
                        exact("REDIS_URL", "PLACEHOLDER", E, "REDIS_URL holds the placeholder 'None' (origin: env REDIS_URL; found: None). "
                                + "Action: replace it with the real value: whatever fills REDIS_URL (Helm values, .env file, Secret, CI variable)"
                                + " left the placeholder in")),
                bad("placeholder null", env("REDIS_URL", "null"), redisUrl(),
                        has("REDIS_URL", "PLACEHOLDER", E, "REDIS_URL holds the placeholder 'null'")),
                bad("placeholder NULL in capitals", env("REDIS_URL", "NULL"), redisUrl(),
                        has("REDIS_URL", "PLACEHOLDER", E, "REDIS_URL holds the placeholder 'NULL'")),
                bad("placeholder nil (Go)", env("REDIS_URL", "nil"), redisUrl(),
                        has("REDIS_URL", "PLACEHOLDER", E, "REDIS_URL holds the placeholder 'nil'")),
                bad("placeholder undefined (JavaScript)", env("REDIS_URL", "undefined"), redisUrl(),
                        has("REDIS_URL", "PLACEHOLDER", E, "REDIS_URL holds the placeholder 'undefined'")),
                bad("placeholder changeme", env("REDIS_URL", "changeme"), redisUrl(),
                        has("REDIS_URL", "PLACEHOLDER", E, "REDIS_URL holds the placeholder 'changeme'")),
                bad("unexpanded ${VAR} from a Compose file", env("REDIS_URL", "${REDIS_URL}"), redisUrl(),
                        has("REDIS_URL", "PLACEHOLDER", E,
                                "REDIS_URL holds an unresolved substitution ${REDIS_URL} (the variable it names was not expanded)")),
                bad("unexpanded Kubernetes $(VAR) inside a URL", env("REDIS_URL", "redis://$(REDIS_SERVICE_HOST):6379"), redisUrl(),
                        has("REDIS_URL", "PLACEHOLDER", E, "REDIS_URL holds an unresolved substitution $(REDIS_SERVICE_HOST)")),
                bad("template placeholder <...>", env("REDIS_URL", "<your-redis-url>"), redisUrl(),
                        has("REDIS_URL", "PLACEHOLDER", E, "REDIS_URL holds the template placeholder <your-redis-url>")),
                bad("secret-named placeholder is not quoted", env("REDIS_PASSWORD", "changeme"), b -> b.requireEnv("REDIS_PASSWORD"),
                        exact("REDIS_PASSWORD", "PLACEHOLDER", E, "REDIS_PASSWORD holds a placeholder, not a real value "
                                + "(origin: env REDIS_PASSWORD; found: ****). Action: replace it with the real value: whatever fills "
                                + "REDIS_PASSWORD (Helm values, .env file, Secret, CI variable) left the placeholder in")),

                // ---- loopback ----
                bad("localhost in a container", env("REDIS_URL", "redis://localhost:6379"), redisUrl(),
                        exact("REDIS_URL", "LOOPBACK", E, "REDIS_URL points at the loopback address localhost:6379 " + inPod
                                + ", and nothing answers there: localhost is not the Redis service there, so every connection would be"
                                + " refused (origin: env REDIS_URL; found: redis://localhost:6379). Action: set REDIS_URL to the DNS name"
                                + " or IP of the Redis service (the Kubernetes Service or Compose service name, e.g. redis://redis:6379);"
                                + " if a sidecar or a server on this pod will serve it (it is not up yet), allow loopback for it:"
                                + " ConfigGuard.builder().allowLoopback(\"REDIS_URL\")")),
                badOutsideContainer("LOCALHOST. with capitals and trailing dot, outside a container",
                        env("REDIS_URL", "redis://LOCALHOST.:6379"), redisUrl(),
                        exact("REDIS_URL", "LOOPBACK", E, "REDIS_URL points at the loopback address LOCALHOST.:6379 on this machine,"
                                + " and nothing answers there: the worker would only ever reach a server on this machine (origin: env"
                                + " REDIS_URL; found: redis://LOCALHOST.:6379). Action: set REDIS_URL to the host name or IP"
                                + " of the Redis service; if a sidecar or a server on this machine will serve it (it is not up yet), allow loopback for it:"
                                + " ConfigGuard.builder().allowLoopback(\"REDIS_URL\")")),
                bad("127.0.0.1", env("REDIS_URL", "redis://127.0.0.1:6379"), redisUrl(),
                        has("REDIS_URL", "LOOPBACK", E, "the loopback address 127.0.0.1:6379", inPod)),
                bad("127.1 short form", env("REDIS_URL", "redis://127.1:6379"), redisUrl(),
                        has("REDIS_URL", "LOOPBACK", E, "127.1:6379")),
                bad("127.0.0.2 elsewhere in 127/8", env("REDIS_URL", "redis://127.0.0.2"), redisUrl(),
                        has("REDIS_URL", "LOOPBACK", E, "127.0.0.2:6379")),
                bad("0x7f.0.0.1 hex", env("REDIS_URL", "redis://0x7f.0.0.1:6379"), redisUrl(),
                        has("REDIS_URL", "LOOPBACK", E, "0x7f.0.0.1:6379")),
                bad("2130706433 as one decimal number", env("REDIS_URL", "redis://2130706433:6379"), redisUrl(),
                        has("REDIS_URL", "LOOPBACK", E, "2130706433:6379")),
                bad("0177.0.0.1 octal", env("REDIS_URL", "redis://0177.0.0.1:6379"), redisUrl(),
                        has("REDIS_URL", "LOOPBACK", E, "0177.0.0.1:6379")),
                bad("[::1] IPv6 loopback", env("REDIS_URL", "redis://[::1]:6379"), redisUrl(),
                        has("REDIS_URL", "LOOPBACK", E, "[::1]:6379", inPod)),
                bad("0.0.0.0 wildcard", env("REDIS_URL", "redis://0.0.0.0:6379"), redisUrl(),
                        has("REDIS_URL", "LOOPBACK", E, "0.0.0.0:6379")),
                bad(":: wildcard in a host list", env("KAFKA_BROKERS", "[::]:9092"), brokers(),
                        has("KAFKA_BROKERS", "LOOPBACK", E, "[::]:9092", "not the Kafka brokers")),
                bad("*.localhost", env("REDIS_URL", "redis://redis.localhost:6379"), redisUrl(),
                        has("REDIS_URL", "LOOPBACK", E, "redis.localhost:6379")),
                bad("ip6-localhost", env("NATS_URL", "nats://ip6-localhost:4222"), b -> b.requireEnv("NATS_URL", URL),
                        has("NATS_URL", "LOOPBACK", E, "ip6-localhost:4222", "not the NATS service")),
                bad("one loopback broker hidden in a list", env("KAFKA_BROKERS", "b1:9092,localhost:9092,b3:9092"), brokers(),
                        has("KAFKA_BROKERS", "LOOPBACK", E, "points at the loopback address localhost:9092 " + inPod,
                                "e.g. kafka-0.kafka:9092,kafka-1.kafka:9092)")),
                bad("loopback in an AMQP URL with credentials", env("AMQP_URL", "amqp://worker:" + PW + "@127.0.0.1:5672/jobs"),
                        b -> b.requireEnv("AMQP_URL", URL),
                        has("AMQP_URL", "LOOPBACK", E, "found: amqp://worker:****@127.0.0.1:5672/jobs", "not the RabbitMQ service")),
                bad("loopback in a plain STRING that is a URL", env("CACHE", "redis://localhost"), b -> b.requireEnv("CACHE"),
                        has("CACHE", "LOOPBACK", E, "localhost:6379")),
                bad("allowLoopback(true) in a container with nothing answering yet: a warning, the wait decides",
                        env("REDIS_URL", "redis://localhost:6379"), b -> b.requireEnv("REDIS_URL", URL).allowLoopback(true),
                        has("REDIS_URL", "LOOPBACK", W, inPod, "nothing answers there yet; loopback is allowed for it",
                                "if no sidecar in this pod or container serves the Redis service")),
                bad("allowed for this one setting only", env("REDIS_URL", "redis://localhost:6379", "AMQP_URL", "amqp://127.0.0.1"),
                        b -> b.requireEnv("REDIS_URL", URL).requireEnv("AMQP_URL", URL).allowLoopback("REDIS_URL"),
                        has("REDIS_URL", "LOOPBACK", W, "loopback is allowed for it"),
                        has("AMQP_URL", "LOOPBACK", E, "allowLoopback(\"AMQP_URL\")")),
                new Scenario("allowed, in a container, and a sidecar answers: passes", env("REDIS_URL", "redis://localhost:6379"),
                        true, b -> b.requireEnv("REDIS_URL", URL).allowLoopback("REDIS_URL").loopbackAnswers((h, p) -> p == 6379),
                        List.of()),
                bad("not allowed, in a container, and a sidecar answers: a warning naming the allowance",
                        env("REDIS_URL", "redis://localhost:6379"),
                        b -> b.requireEnv("REDIS_URL", URL).loopbackAnswers((h, p) -> p == 6379)
                                .loopbackAllowance("GUARD_ALLOW_LOOPBACK={name}"),
                        exact("REDIS_URL", "LOOPBACK", W, "REDIS_URL points at the loopback address localhost:6379 " + inPod
                                + ", and something answers there: a sidecar in the same pod, host networking, a port published into a"
                                + " development container, or a server on this machine. guard starts, since that may be the Redis"
                                + " service you mean (origin: env REDIS_URL; found: redis://localhost:6379). Action: if it is, say so and"
                                + " this warning goes: GUARD_ALLOW_LOOPBACK=REDIS_URL; if REDIS_URL should reach another container or"
                                + " host, set it to the DNS name or IP of the Redis service (the Kubernetes Service or Compose service name,"
                                + " e.g. redis://redis:6379)")),
                badOutsideContainer("a list where one broker answers and one does not: an error",
                        env("KAFKA_BROKERS", "localhost:9092,127.0.0.1:9093"),
                        b -> b.requireEnv("KAFKA_BROKERS", HOST_LIST).loopbackAnswers((h, p) -> p == 9092),
                        has("KAFKA_BROKERS", "LOOPBACK", E, "nothing answers there")),
                new Scenario("allowLoopback(true) outside a container passes", env("REDIS_URL", "redis://localhost:6379"), false,
                        b -> b.requireEnv("REDIS_URL", URL).allowLoopback(true), List.of()),

                // ---- malformed ----
                bad("another service's scheme in a Redis-named URL", env("REDIS_URL", "mongodb://db:27017"), redisUrl(),
                        exact("REDIS_URL", "MALFORMED", E, "REDIS_URL is not a valid URL: REDIS_URL names Redis, but 'mongodb://' is not "
                                + "a scheme its clients read (redis://, rediss://, redis-sentinel://, rediss-sentinel://, redis-socket://) "
                                + "(origin: env REDIS_URL; found: mongodb://db:27017). Action: fix REDIS_URL (e.g. redis://redis:6379)")),
                bad("a Sentinel URL that names no master", env("REDIS_URL", "redis-sentinel://:" + PW + "@s1:26379,s2:26379/0"),
                        redisUrl(), has("REDIS_URL", "MALFORMED", E, "a Sentinel URL must name the master the sentinels monitor",
                                "found: redis-sentinel://:****@s1:26379,s2:26379/0")),
                new Scenario("a Sentinel URL with its master name passes", env("REDIS_URL",
                        "redis-sentinel://:" + PW + "@sentinel-0.sentinel:26379,sentinel-1.sentinel:26379/0#mymaster"), true,
                        redisUrl(), List.of()),
                new Scenario("lettuce's sentinelMasterId= names the master too", env("REDIS_URL",
                        "redis-sentinel://sentinel:26379?sentinelMasterId=mymaster"), true, redisUrl(), List.of()),
                bad("one loopback sentinel in the list", env("REDIS_URL", "redis-sentinel://s1:26379,localhost:26379#mymaster"),
                        redisUrl(), has("REDIS_URL", "LOOPBACK", E, "localhost:26379")),
                new Scenario("a Cluster's seeds with ?cluster=true pass", env("REDIS_URL",
                        "redis://redis-0.redis:6379,redis-1.redis:6379?cluster=true"), true, redisUrl(), List.of()),
                bad("port out of range", env("REDIS_URL", "redis://redis:70000"), redisUrl(),
                        has("REDIS_URL", "MALFORMED", E, "port 70000 in 'redis://redis:70000' is out of range 1-65535")),
                bad("port not a number", env("REDIS_URL", "redis://redis:63a9"), redisUrl(),
                        has("REDIS_URL", "MALFORMED", E, "port '63a9' in 'redis://redis:63a9' is not a number")),
                bad("URL without a scheme", env("REDIS_URL", "redis:6379"), redisUrl(),
                        has("REDIS_URL", "MALFORMED", E, "REDIS_URL is not a valid URL: 'redis:6379' has no scheme")),
                bad("URL without a host", env("REDIS_URL", "redis://:6379"), redisUrl(),
                        has("REDIS_URL", "MALFORMED", E, "no host in 'redis://:6379'")),
                bad("unclosed IPv6 bracket", env("REDIS_URL", "redis://[2001:db8::1:6379"), redisUrl(),
                        has("REDIS_URL", "MALFORMED", E, "unclosed '['")),
                bad("empty entry in a host list", env("KAFKA_BROKERS", "b1:9092,,b2:9092"), brokers(),
                        has("KAFKA_BROKERS", "MALFORMED", E, "KAFKA_BROKERS is not a valid host list: entry 2 of 'b1:9092,,b2:9092' is empty")),
                bad("malformed URL keeps its password masked", env("REDIS_URL", "redis://:" + PW + "@redis:99999"), redisUrl(),
                        has("REDIS_URL", "MALFORMED", E, "port 99999 in 'redis://:****@redis:99999' is out of range")),
                bad("raw '/' in a password: malformed, and still masked", env("REDIS_URL", "redis://:" + PW + "/x@redis:6379"), redisUrl(),
                        has("REDIS_URL", "MALFORMED", E, "found: redis://:****@redis:6379")),
                bad("int that is not a number", env("WORKER_THREADS", "four"), b -> b.requireEnv("WORKER_THREADS", INT),
                        exact("WORKER_THREADS", "MALFORMED", E, "WORKER_THREADS is not a valid integer: 'four' is not a whole number "
                                + "(origin: env WORKER_THREADS; found: four). Action: fix WORKER_THREADS (e.g. 4)")),
                bad("duration with an unknown unit", env("DRAIN_TIMEOUT", "10 parsecs"), b -> b.requireEnv("DRAIN_TIMEOUT", DURATION),
                        has("DRAIN_TIMEOUT", "MALFORMED", E, "DRAIN_TIMEOUT is not a valid duration: '10 parsecs' is not a duration",
                                "(e.g. 30s)")),
                bad("port 0", env("METRICS_PORT", "0"), b -> b.requireEnv("METRICS_PORT", PORT),
                        has("METRICS_PORT", "MALFORMED", E, "METRICS_PORT is not a valid port: port 0 is out of range 1-65535")),
                bad("port 65536", env("METRICS_PORT", "65536"), b -> b.requireEnv("METRICS_PORT", PORT),
                        has("METRICS_PORT", "MALFORMED", E, "port 65536 is out of range 1-65535")),

                // ---- name drift ----
                bad("CACHE_URL set, REDIS_URL required (the incident)", env("CACHE_URL", "redis://redis:6379"), redisUrl(),
                        exact("REDIS_URL", "NAME_DRIFT", E, "REDIS_URL is not set; CACHE_URL is set (redis://redis:6379): the backend and "
                                + "this worker disagree on the name (origin: env REDIS_URL (unset); found: unset). Action: set REDIS_URL where "
                                + "this worker's environment is defined, to the same value as CACHE_URL, or make both sides use one name")),
                bad("drifted name's password stays masked", env("SPRING_DATA_REDIS_URL", "redis://:" + PW + "@redis:6379"), redisUrl(),
                        has("REDIS_URL", "NAME_DRIFT", E, "SPRING_DATA_REDIS_URL is set (redis://:****@redis:6379)")),
                bad("typo REDIS_ULR", env("REDIS_ULR", "redis://redis:6379"), redisUrl(),
                        has("REDIS_URL", "NAME_DRIFT", E, "REDIS_URL is not set; REDIS_ULR is set (redis://redis:6379): a misspelling, "
                                + "or the backend and this worker disagree on the name")),
                bad("REDISURL without separator", env("REDISURL", "redis://redis:6379"), redisUrl(),
                        has("REDIS_URL", "NAME_DRIFT", E, "REDISURL is set (redis://redis:6379)")),
                bad("lower-case redis_url", env("redis_url", "redis://redis:6379"), redisUrl(),
                        has("REDIS_URL", "NAME_DRIFT", E, "redis_url is set (redis://redis:6379)")),
                bad("shared stem WORKER_REDIS_ADDR", env("WORKER_REDIS_ADDR", "redis:6379"), redisUrl(),
                        has("REDIS_URL", "NAME_DRIFT", E, "WORKER_REDIS_ADDR is set (redis:6379)")),
                bad("Kafka family: KAFKA_BOOTSTRAP_SERVERS", env("KAFKA_BOOTSTRAP_SERVERS", "b1:9092"), brokers(),
                        has("KAFKA_BROKERS", "NAME_DRIFT", E, "KAFKA_BROKERS is not set; KAFKA_BOOTSTRAP_SERVERS is set (b1:9092): "
                                + "the backend and this worker disagree on the name")),
                bad("RabbitMQ family: SPRING_RABBITMQ_ADDRESSES", env("SPRING_RABBITMQ_ADDRESSES", "rabbit:5672"),
                        b -> b.requireEnv("AMQP_URL", URL),
                        has("AMQP_URL", "NAME_DRIFT", E, "AMQP_URL is not set; SPRING_RABBITMQ_ADDRESSES is set (rabbit:5672)")),
                bad("NATS family: NATS_SERVERS", env("NATS_SERVERS", "nats://n1:4222,nats://n2:4222"), b -> b.requireEnv("NATS_URL", URL),
                        has("NATS_URL", "NAME_DRIFT", E, "NATS_SERVERS is set (nats://n1:4222,nats://n2:4222)")),
                bad("REDIS_PASSWORD is not a near name of REDIS_URL", env("REDIS_PASSWORD", PW), redisUrl(),
                        has("REDIS_URL", "MISSING", E, "REDIS_URL is not set")),
                bad("two family names at different hosts", env("REDIS_URL", "redis://redis-a:6379", "CACHE_URL", "redis://redis-b:6379"),
                        redisUrl(),
                        exact("REDIS_URL", "CONFLICT", W, "REDIS_URL and CACHE_URL are both set but point at different hosts "
                                + "(REDIS_URL -> redis-a; CACHE_URL -> redis-b): the backend and this worker may be talking to different servers "
                                + "(origin: env REDIS_URL, env CACHE_URL; found: REDIS_URL=redis://redis-a:6379, CACHE_URL=redis://redis-b:6379). "
                                + "Action: use one name for this endpoint on both sides, or point REDIS_URL and CACHE_URL at the same server")),

                // ---- every violation at once ----
                bad("three broken settings, three violations", env("KAFKA_BROKERS", "localhost:9092", "WORKER_THREADS", "many"),
                        b -> b.requireEnv("REDIS_URL", URL).requireEnv("KAFKA_BROKERS", HOST_LIST).requireEnv("WORKER_THREADS", INT),
                        has("REDIS_URL", "MISSING", E, "REDIS_URL is not set"),
                        has("KAFKA_BROKERS", "LOOPBACK", E, "localhost:9092"),
                        has("WORKER_THREADS", "MALFORMED", E, "'many' is not a whole number")),

                // ---- no declared type: checked as what the name or value says ----
                bad("untyped REDIS_URL=localhost:6379: no scheme, and loopback", env("REDIS_URL", "localhost:6379"), untyped("REDIS_URL"),
                        exact("REDIS_URL", "MALFORMED", E, "REDIS_URL is not a valid URL (inferred: the name ends in _URL): 'localhost:6379' "
                                + "has no scheme (origin: env REDIS_URL; found: localhost:6379). Action: fix REDIS_URL (e.g. redis://redis:6379)"),
                        has("REDIS_URL", "LOOPBACK", E, "the loopback address localhost:6379", inPod)),
                bad("untyped KAFKA_BROKERS with one loopback entry", env("KAFKA_BROKERS", "kafka-0:9092,localhost:9092"),
                        untyped("KAFKA_BROKERS"), has("KAFKA_BROKERS", "LOOPBACK", E, "localhost:9092", "not the Kafka brokers")),
                bad("untyped KAFKA_BROKERS=127.0.0.1:9092", env("KAFKA_BROKERS", "127.0.0.1:9092"), untyped("KAFKA_BROKERS"),
                        has("KAFKA_BROKERS", "LOOPBACK", E, "127.0.0.1:9092")),
                bad("untyped REDIS_URL with port 99999", env("REDIS_URL", "redis://redis:99999"), untyped("REDIS_URL"),
                        has("REDIS_URL", "MALFORMED", E, "REDIS_URL is not a valid URL (inferred: the name ends in _URL): port 99999 in "
                                + "'redis://redis:99999' is out of range 1-65535")),
                bad("untyped REDIS_URL with scheme typo htp", env("REDIS_URL", "htp://redis:6379"), untyped("REDIS_URL"),
                        has("REDIS_URL", "MALFORMED", E, "REDIS_URL names Redis, but 'htp://' is not a scheme its clients read "
                                + "(redis://, rediss://, redis-sentinel://, rediss-sentinel://, redis-socket://)")),
                bad("scheme typo in a URL no broker's name claims", env("BILLING_API_URL", "htp://billing:8080"), untyped("BILLING_API_URL"),
                        has("BILLING_API_URL", "MALFORMED", E, "'htp' is not a URL scheme guard knows; did you mean http or ftp?")),
                bad("Redis URL under a RabbitMQ name", env("AMQP_URL", "redis://rabbitmq:5672"), untyped("AMQP_URL"),
                        has("AMQP_URL", "MALFORMED", E, "AMQP_URL names RabbitMQ, but 'redis://' is not a scheme its clients read (amqp://, amqps://)")),
                bad("Kafka bootstrap entry without a port", env("KAFKA_BOOTSTRAP_SERVERS", "kafka-0.kafka:9092,kafka-1.kafka"),
                        untyped("KAFKA_BOOTSTRAP_SERVERS"),
                        has("KAFKA_BOOTSTRAP_SERVERS", "MALFORMED", E, "(inferred: the name ends in _SERVERS): Kafka clients need host:port "
                                + "for every bootstrap server, and kafka-1.kafka has no port")),
                bad("untyped *_HOST holding localhost", env("REDIS_HOST", "localhost"), untyped("REDIS_HOST"),
                        has("REDIS_HOST", "LOOPBACK", E, "the loopback address localhost", "e.g. redis)")),
                bad("untyped *_HOST holding a URL", env("REDIS_HOST", "redis://redis:6379"), untyped("REDIS_HOST"),
                        has("REDIS_HOST", "MALFORMED", E, "REDIS_HOST is not a valid host (inferred: the name ends in _HOST): it holds a URL")),
                bad("untyped *_HOST holding host:port warns", env("REDIS_HOST", "redis:6379"), untyped("REDIS_HOST"),
                        exact("REDIS_HOST", "MALFORMED", W, "REDIS_HOST holds host:port (redis:6379) (checked as a host: the name ends in "
                                + "_HOST); a client that adds its own port will connect to redis:6379:6379 (origin: env REDIS_HOST; found: "
                                + "redis:6379). Action: set REDIS_HOST to the host alone (redis) and the port in REDIS_PORT, unless this "
                                + "worker reads host:port from it")),
                bad("untyped *_PORT holding a Kubernetes service link", env("REDIS_PORT", "tcp://10.96.0.12:6379"), untyped("REDIS_PORT"),
                        has("REDIS_PORT", "MALFORMED", E, "is a Kubernetes service link", "enableServiceLinks: false")),
                bad("untyped *_PORT out of range", env("METRICS_PORT", "70000"), untyped("METRICS_PORT"),
                        has("METRICS_PORT", "MALFORMED", E, "METRICS_PORT is not a valid port (inferred: the name ends in _PORT): port 70000")),
                bad("a name that says nothing, a value with a scheme", env("JOBS_BACKEND", "redis://localhost:6379"), untyped("JOBS_BACKEND"),
                        has("JOBS_BACKEND", "LOOPBACK", E, "localhost:6379")),
                bad("a name that says nothing, a host:port value", env("UPSTREAM", "127.0.0.1:8080"), untyped("UPSTREAM"),
                        has("UPSTREAM", "LOOPBACK", E, "127.0.0.1:8080")),
                bad("any scheme counts: postgres on localhost", env("DATABASE_URL", "postgres://app:" + PW + "@localhost/app"),
                        untyped("DATABASE_URL"), has("DATABASE_URL", "LOOPBACK", E, "localhost:5432", "found: postgres://app:****@localhost/app")),

                // ---- placeholders in every spelling, also inside a URL ----
                bad("CHANGEME", env("REDIS_URL", "CHANGEME"), untyped("REDIS_URL"), has("REDIS_URL", "PLACEHOLDER", E, "'CHANGEME'")),
                bad("change_me", env("QUEUE", "change_me"), untyped("QUEUE"), has("QUEUE", "PLACEHOLDER", E, "'change_me'")),
                bad("change-me-in-cluster", env("QUEUE", "change-me-in-cluster"), untyped("QUEUE"), has("QUEUE", "PLACEHOLDER", E, "'change-me-in-cluster'")),
                bad("your-password in a secret", env("REDIS_PASSWORD", "your-password"), untyped("REDIS_PASSWORD"),
                        has("REDIS_PASSWORD", "PLACEHOLDER", E, "REDIS_PASSWORD holds a placeholder, not a real value", "found: ****")),
                bad("replace-me", env("API_BASE", "replace-me"), untyped("API_BASE"), has("API_BASE", "PLACEHOLDER", E, "'replace-me'")),
                bad("todo", env("QUEUE", "TODO"), untyped("QUEUE"), has("QUEUE", "PLACEHOLDER", E, "'TODO'")),
                bad("xxx", env("QUEUE", "xxxx"), untyped("QUEUE"), has("QUEUE", "PLACEHOLDER", E, "'xxxx'")),
                bad("Helm {{ }} left in", env("REDIS_URL", "{{ .Values.redis.url }}"), untyped("REDIS_URL"),
                        has("REDIS_URL", "PLACEHOLDER", E, "an unrendered template expression {{ .Values.redis.url }}")),
                bad("placeholder password inside a URL", env("REDIS_URL", "redis://:changeme@redis:6379"), untyped("REDIS_URL"),
                        exact("REDIS_URL", "PLACEHOLDER", E, "REDIS_URL's password is a placeholder (not shown: it would be a secret) "
                                + "(origin: env REDIS_URL; found: redis://:****@redis:6379). Action: replace it with the real value: whatever "
                                + "fills REDIS_URL (Helm values, .env file, Secret, CI variable) left the placeholder in")),
                bad("the shipped Secret's change-me-in-cluster password", env("AMQP_URL", "amqp://worker:change-me-in-cluster@rabbitmq:5672/jobs"),
                        untyped("AMQP_URL"), has("AMQP_URL", "PLACEHOLDER", E, "AMQP_URL's password is a placeholder", "found: amqp://worker:****@")),
                bad("a token placeholder as a NATS URL's user", env("NATS_URL", "nats://<token>@nats:4222"), untyped("NATS_URL"),
                        has("NATS_URL", "PLACEHOLDER", E, "NATS_URL's password is a placeholder")),
                bad("placeholder host in a URL", env("REDIS_URL", "redis://your-redis-host:6379"), untyped("REDIS_URL"),
                        has("REDIS_URL", "PLACEHOLDER", E, "REDIS_URL's host 'your-redis-host' is a placeholder")),

                // ---- placeholders as templates write them (issue 39) ----
                bad("a generic word as a URL's password", env("REDIS_URL", "redis://default:SECRET@redis:6379"), untyped("REDIS_URL"),
                        has("REDIS_URL", "PLACEHOLDER", E, "REDIS_URL's password is a placeholder (not shown: it would be a secret)")),
                bad("a bare $VAR in a Kubernetes env value", env("REDIS_PASSWORD", "$REDIS_PASSWORD"), untyped("REDIS_PASSWORD"),
                        exact("REDIS_PASSWORD", "PLACEHOLDER", E, "REDIS_PASSWORD holds an unexpanded reference $REDIS_PASSWORD"
                                + " (Kubernetes expands only $(REDIS_PASSWORD) in an env value, and no shell ran) (origin: env REDIS_PASSWORD;"
                                + " found: ****). Action: replace it with the real value: whatever fills REDIS_PASSWORD (Helm values,"
                                + " .env file, Secret, CI variable) left the placeholder in")),
                bad("a bare $VAR as a URL's password", env("REDIS_URL", "redis://:$REDIS_PASSWORD@redis:6379"), untyped("REDIS_URL"),
                        has("REDIS_URL", "PLACEHOLDER", E, "REDIS_URL's password is a placeholder", "found: redis://:****@redis:6379")),
                bad("angle-bracket tokens inside a longer value", env("ARCHIVE_PATH", "/srv/<BUCKET>/<REGION>"), untyped("ARCHIVE_PATH"),
                        has("ARCHIVE_PATH", "PLACEHOLDER", E, "ARCHIVE_PATH holds the template placeholder <BUCKET> inside it")),
                bad("a run of x after a vendor prefix", env("GITHUB_TOKEN", "ghp_xxxxxxxxxxxxxxxxxxxx"), untyped("GITHUB_TOKEN"),
                        has("GITHUB_TOKEN", "PLACEHOLDER", E, "GITHUB_TOKEN holds a placeholder, not a real value", "found: ****")),
                bad("an instruction in camel case", env("SESSION_SECRET", "ChangeThisSecret"), untyped("SESSION_SECRET"),
                        has("SESSION_SECRET", "PLACEHOLDER", E, "SESSION_SECRET holds a placeholder, not a real value")),
                bad("an instruction phrase", env("QUEUE_NAME", "put_your_queue_here"), untyped("QUEUE_NAME"),
                        has("QUEUE_NAME", "PLACEHOLDER", E, "QUEUE_NAME holds the placeholder 'put_your_queue_here'")),
                bad("a secret that is its own name", env("SMTP_PASSWORD", "smtp_password"), untyped("SMTP_PASSWORD"),
                        has("SMTP_PASSWORD", "PLACEHOLDER", E, "SMTP_PASSWORD holds a placeholder, not a real value")),
                bad("a host under a name reserved for examples", env("SMTP_HOST", "smtp.example.com"), untyped("SMTP_HOST"),
                        has("SMTP_HOST", "PLACEHOLDER", E, "SMTP_HOST's host 'smtp.example.com' (a name reserved for examples, RFC 2606)"
                                + " is a placeholder")),

                // ---- client URL dialects (issue 39) ----
                good("kombu's (Celery's) Sentinel list, ';' between URLs",
                        env("CELERY_BROKER_URL", "sentinel://:" + PW + "@sentinel-a:26379/0;sentinel://:" + PW + "@sentinel-b:26379/0"),
                        untyped("CELERY_BROKER_URL")),
                bad("kombu's Sentinel list with a loopback host", env("CELERY_BROKER_URL", "sentinel://localhost:26379;sentinel://s2:26379"),
                        untyped("CELERY_BROKER_URL"), has("CELERY_BROKER_URL", "LOOPBACK", E, "localhost:26379")),
                good("kombu's failover list of AMQP URLs", env("CELERY_BROKER_URL", "amqp://guest:" + PW + "@rabbit-a:5672//;amqp://guest:"
                        + PW + "@rabbit-b:5672//"), untyped("CELERY_BROKER_URL")),
                good("ZooKeeper's ensemble, ';' between host:peer:election entries",
                        env("ZOOKEEPER_SERVERS", "zoo1:2888:3888;zoo2:2888:3888;zoo3:2888:3888"), untyped("ZOOKEEPER_SERVERS")),
                bad("ZooKeeper's ensemble with a loopback member", env("ZOOKEEPER_SERVERS", "127.0.0.1:2888:3888;zoo2:2888:3888"),
                        untyped("ZOOKEEPER_SERVERS"), has("ZOOKEEPER_SERVERS", "LOOPBACK", E, "127.0.0.1:2888")),
                good("one ZooKeeper entry", env("ZOOKEEPER_SERVERS", "zoo1:2888:3888"), untyped("ZOOKEEPER_SERVERS")),
                good("Galera's gcomm:// that bootstraps a cluster", env("WSREP_CLUSTER_ADDRESS", "gcomm://"), untyped("WSREP_CLUSTER_ADDRESS")),
                good("a Sentinel URL naming its master with ?master=", env("REDIS_URL", "redis-sentinel://s1:26379,s2:26379/0?master=jobs"),
                        redisUrl()),
                bad("a Sentinel URL naming no master", env("REDIS_URL", "redis-sentinel://s1:26379,s2:26379/0"), redisUrl(),
                        has("REDIS_URL", "MALFORMED", E, "a Sentinel URL must name the master the sentinels monitor")),

                // ---- drift by value (issue 39) ----
                bad("the AMQP URL under a framework's name", env("CELERY_BROKER_URL", "amqp://worker:" + PW + "@rabbitmq:5672//"),
                        b -> b.requireEnv("AMQP_URL", URL),
                        exact("AMQP_URL", "NAME_DRIFT", E, "AMQP_URL is not set; CELERY_BROKER_URL holds an amqp:// URL"
                                + " (amqp://worker:****@rabbitmq:5672//): the same setting under another name? (origin: env AMQP_URL (unset);"
                                + " found: unset). Action: if it is, set AMQP_URL where this worker's environment is defined, to the same"
                                + " value as CELERY_BROKER_URL, or make both sides use one name; if not, set AMQP_URL (e.g. amqp://rabbitmq:5672)")),
                bad("a Kafka host list under another family's name", env("MESSAGE_BUS_HOSTS", "kafka-0:9092,kafka-1:9092"), brokers(),
                        has("KAFKA_BROKERS", "NAME_DRIFT", E, "MESSAGE_BUS_HOSTS holds a Kafka host list (port 9092)")),
                bad("another broker's URL is no drift", env("DATABASE_URL", "postgres://app@db:5432/app", "NATS_URL", "nats://nats:4222"),
                        redisUrl(), has("REDIS_URL", "MISSING", E, "REDIS_URL is not set")),

                // ---- untyped values that must pass ----
                good("untyped Redis URL with a db", env("REDIS_URL", "redis://redis:6379/0"), untyped("REDIS_URL")),
                good("untyped Kafka host list", env("KAFKA_BROKERS", "kafka-0.kafka:9092,kafka-1.kafka:9092"), untyped("KAFKA_BROKERS")),
                good("a host whose name starts with localhost", env("REDIS_URL", "redis://localhost-proxy:6379"), untyped("REDIS_URL")),
                good("a cluster-local service", env("REDIS_URL", "rediss://redis-master.cache.svc.cluster.local:6380"), untyped("REDIS_URL")),
                good("an IPv6 documentation address", env("REDIS_URL", "redis://[2001:db8::10]:6379"), untyped("REDIS_URL")),
                good("an IPv6 documentation address in a host list", env("KAFKA_BROKERS", "[2001:db8::10]:9092,[2001:db8::11]:9092"),
                        untyped("KAFKA_BROKERS")),
                good("any scheme counts: postgres", env("DATABASE_URL", "postgres://app:" + PW + "@db.prod.internal:5432/app"), untyped("DATABASE_URL")),
                good("an HTTP URL under a broker's other service", env("RABBITMQ_MANAGEMENT_URL", "http://rabbitmq:15672"),
                        untyped("RABBITMQ_MANAGEMENT_URL")),
                good("Heroku's kafka+ssl list", env("KAFKA_URL", "kafka+ssl://b1.kafka.prod.internal:9096,kafka+ssl://b2.kafka.prod.internal:9096"),
                        untyped("KAFKA_URL")),
                good("a *_HOST and *_PORT pair", env("REDIS_HOST", "redis", "REDIS_PORT", "6379"), b -> b.requireEnv("REDIS_HOST").requireEnv("REDIS_PORT")),
                good("a plain word", env("QUEUE_NAME", "jobs.high"), untyped("QUEUE_NAME")),
                good("a real password", env("REDIS_PASSWORD", PW), untyped("REDIS_PASSWORD")),

                // ---- good values that must pass ----
                good("service name", env("REDIS_URL", "redis://redis:6379"), redisUrl()),
                good("URL with credentials and db", env("REDIS_URL", "rediss://default:" + PW + "@cache.prod.svc.cluster.local:6380/0"),
                        redisUrl()),
                good("AMQP URL with user, password and vhost", env("AMQP_URL", "amqps://worker:" + PW + "@rabbitmq:5671/jobs"),
                        b -> b.requireEnv("AMQP_URL", URL)),
                good("IP of another host 10.0.0.5", env("KAFKA_BROKERS", "10.0.0.5:9092"), brokers()),
                good("IP of another host 192.168.1.20 in a URL", env("REDIS_URL", "redis://192.168.1.20:6379"), redisUrl()),
                good("128.0.0.1 is just outside 127/8", env("REDIS_URL", "redis://128.0.0.1:6379"), redisUrl()),
                good("IPv6 literal in a host list", env("KAFKA_BROKERS", "[2001:db8::1]:9092"), brokers()),
                good("IPv6 literal in a URL", env("REDIS_URL", "redis://[2001:db8::1]:6379"), redisUrl()),
                good("multi-host Kafka list with FQDNs", env("KAFKA_BROKERS",
                        "kafka-0.kafka-headless.jobs.svc.cluster.local:9092, kafka-1.kafka-headless.jobs.svc.cluster.local:9092"), brokers()),
                good("NATS cluster URLs with a token", env("NATS_URL", "nats://" + PW + "@n1:4222,tls://n2:4222"),
                        b -> b.requireEnv("NATS_URL", URL)),
                good("kafka:// and tcp:// schemes", env("KAFKA_BROKERS", "kafka://b1:9092,tcp://b2:9093"), brokers()),
                good("same host under two family names is no conflict", env("REDIS_URL", "redis://redis:6379", "REDIS_HOST", "redis"),
                        redisUrl()),
                good("int, port and durations", env("WORKER_THREADS", "4", "METRICS_PORT", "9464", "DRAIN_TIMEOUT", "30s",
                                "FETCH_TIMEOUT", "PT2S"),
                        b -> b.requireEnv("WORKER_THREADS", INT).requireEnv("METRICS_PORT", PORT).requireEnv("DRAIN_TIMEOUT", DURATION)
                                .requireEnv("FETCH_TIMEOUT", DURATION)),
                good("plain string", env("QUEUE_NAME", "jobs.high"), b -> b.requireEnv("QUEUE_NAME", STRING)),
                good("secret value that looks odd is not a placeholder", env("REDIS_PASSWORD", PW), b -> b.requireEnv("REDIS_PASSWORD")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void scenario(Scenario s) {
        // what listens on this machine is not what these scenarios are about: nothing answers, unless a scenario says so
        ConfigGuard guard = s.declare().apply(ConfigGuard.builder().environment(s.env()).inContainer(s.inContainer())
                .loopbackAnswers((host, port) -> false)).build();
        ConfigReport report = guard.check();

        List<String> actual = new ArrayList<>();
        for (Violation v : report.violations()) {
            actual.add(v.setting() + " " + v.rule() + " " + v.severity());
        }
        List<String> wanted = new ArrayList<>();
        for (Expect e : s.expected()) {
            wanted.add(e.setting() + " " + e.rule() + " " + e.severity());
        }
        assertEquals(wanted.stream().sorted().toList(), actual.stream().sorted().toList(),
                "violations of scenario '" + s.name() + "', report:\n" + report.render());

        for (Expect e : s.expected()) {
            Violation v = report.violations().stream()
                    .filter(x -> x.setting().equals(e.setting()) && x.rule().name().equals(e.rule())).findFirst().orElseThrow();
            if (e.exactMessage() != null) {
                assertEquals(e.exactMessage(), v.message(), "message of " + e.rule());
            }
            for (String fragment : e.fragments()) {
                assertTrue(v.message().contains(fragment), "message of " + e.rule() + " should contain [" + fragment + "] but was:\n"
                        + v.message());
            }
            // every message names the setting, its origin, what was found, and an action
            assertTrue(v.message().contains(v.setting()), v.message());
            assertTrue(v.message().contains("(origin: " + v.origin() + "; found: " + v.found() + ")"), v.message());
            assertTrue(v.message().contains(". Action: ") && !v.action().isBlank(), v.message());
        }
        boolean errors = s.expected().stream().anyMatch(e -> e.severity() == Severity.ERROR);
        assertEquals(!errors, report.ok(), report.render());
        assertFalse(report.render().contains(PW), "password in render()");
        assertFalse(report.toJson().contains(PW), "password in toJson()");
    }
}
