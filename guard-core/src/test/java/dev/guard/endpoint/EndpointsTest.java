package dev.guard.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import dev.guard.config.NoSecretOnConsole;
import dev.guard.testing.JavaMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@ExtendWith(NoSecretOnConsole.class)
class EndpointsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "redis://redis:6379                          | redis redis:6379",
        "redis://redis                               | redis redis:6379",
        "rediss://:s3cr3t-test-pw@cache:6380/0       | rediss cache:6380",
        "amqp://u:s3cr3t-test-pw@rabbit/vhost        | amqp rabbit:5672",
        "amqps://rabbit                              | amqps rabbit:5671",
        "nats://n1:4222,nats://n2:4223               | nats n1:4222 nats n2:4223",
        "tls://nats                                  | tls nats:4222",
        "kafka://b1                                  | kafka b1:9092",
        "tcp://db:5432                               | tcp db:5432",
        "http://api                                  | http api:80",
        "HTTPS://Api.Example.com/health?x=1          | https Api.Example.com:443",
        "b1:9092,b2:9092 , b3:9093                   | - b1:9092 - b2:9092 - b3:9093",
        "redis                                       | - redis",
        "10.0.0.5:6379                               | - 10.0.0.5:6379",
        "[2001:db8::1]:6379                          | - [2001:db8::1]:6379",
        "redis://[2001:db8::1]:6379                  | redis [2001:db8::1]:6379",
        "[::1]:6379                                  | - [::1]:6379",
        "2001:db8::1                                 | - [2001:db8::1]",
        "kafka_broker_1:9092                         | - kafka_broker_1:9092",
        "PLAINTEXT://b1:9092,SASL_SSL://b2           | plaintext b1:9092 sasl_ssl b2:9093",
        "worker:s3cr3t-test-pw@rabbit:5672,rabbit2   | - rabbit:5672 - rabbit2",
        "kafka://b1:9092,b2:9093                     | kafka b1:9092 kafka b2:9093",
        "kafka://b1,b2?topics=jobs,mail              | kafka b1:9092 kafka b2:9092",
        "nats://n1:4222, nats://n2                   | nats n1:4222 nats n2:4222",
        "redis-sentinel://:s3cr3t-test-pw@s1,s2:26380/0#primary | redis-sentinel s1:26379 redis-sentinel s2:26380",
        "mongodb://db                                | mongodb db:27017",
        "mongodb+srv://u:s3cr3t-test-pw@c0.example.net/app | mongodb+srv c0.example.net",
        "postgres://app:s3cr3t-test-pw@db/app        | postgres db:5432",
        "jdbc:postgresql://db:5433/app               | jdbc:postgresql db:5433",
        "JDBC:MySQL://db/app                         | jdbc:mysql db:3306",
        "custom+x://h:1                              | custom+x h:1",
        "sqlite:///var/lib/app.db                    | sqlite (hostless)",
        "redis.jobs.svc.cluster.local:6379           | - redis.jobs.svc.cluster.local:6379",
    })
    void parsesGoodEndpoints(String value, String expected) {
        List<Endpoint> parsed = Endpoints.parse(value);
        StringBuilder sb = new StringBuilder();
        for (Endpoint hp : parsed) {
            sb.append(sb.length() == 0 ? "" : " ").append(hp.scheme() == null ? "-" : hp.scheme()).append(' ').append(hp.host().isEmpty() ? "(hostless)" : hp);
        }
        assertEquals(expected, sb.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "redis://redis:0                 | port 0 in 'redis://redis:0' is out of range 1-65535",
        "redis://redis:65536             | port 65536 in 'redis://redis:65536' is out of range 1-65535",
        "b1:99999999999                  | port 99999999999 in 'b1:99999999999' is out of range 1-65535",
        "redis://redis:                  | port '' in 'redis://redis:' is not a number",
        "b1:port                         | port 'port' in 'b1:port' is not a number",
        "redis://                        | no host in 'redis://'",
        ":6379                           | no host in ':6379'",
        "redis://:s3cr3t-test-pw@:6379   | no host in 'redis://:****@:6379'",
        "b1:9092,                        | entry 2 of 'b1:9092,' is empty (stray comma?)",
        "redis//redis:6379               | 'redis//redis:6379' is neither a URL (scheme://host:port) nor host:port",
        "redis://[2001:db8::1:6379       | unclosed '[' in 'redis://[2001:db8::1:6379': write IPv6 as [2001:db8::1]:6379",
        "[not-v6]:1                      | 'not-v6' in '[not-v6]:1' is not an IPv6 address",
        "redis://2001:db8::1:6379        | 'redis://2001:db8::1:6379' has more than one ':'; write IPv6 as [2001:db8::1]:6379",
        "redis://re$dis:6379             | 're$dis' in 'redis://re$dis:6379' is not a valid host name",
        "1http://x                       | '1http://x' does not start with a valid URL scheme",
        "worker:s3cr3t-test-pw@rabbit:99999 | port 99999 in 'worker:****@rabbit:99999' is out of range 1-65535",
        "worker:s3cr3t-test-pw@rabbit/vh | 'worker:****@rabbit/vh' is neither a URL (scheme://host:port) nor host:port",
        "nats://n1:4222,                 | entry 2 of 'nats://n1:4222,' is empty (stray comma?)",
        "kafka://b1,,b2                  | no host in 'kafka://b1,,b2'",
        "redis://redis:99999             | port 99999 in 'redis://redis:99999' is out of range 1-65535",
        "redis://:s3cr3t/test-pw@redis:6379/0 | the user info of 'redis://:****@redis:6379/0' holds a raw '/', '?' or '#' (in the password?): percent-encode them as %2F, %3F and %23, or every client will read a wrong host",
        "amqp://u:s3cr3t?test-pw@rabbit  | the user info of 'amqp://u:****@rabbit' holds a raw '/', '?' or '#' (in the password?): percent-encode them as %2F, %3F and %23, or every client will read a wrong host",
        "jdbc:://db                      | 'jdbc:://db' does not start with a valid URL scheme",
    })
    void rejectsMalformedWithAClearMessage(String value, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Endpoints.parse(value));
        assertEquals(message, e.getMessage());
        assertFalse(e.getMessage().contains("s3cr3t"), e.getMessage());
    }

    @Test
    void rejectsEmptyAndWhitespace() {
        assertEquals("no endpoint: the value is empty",
                assertThrows(IllegalArgumentException.class, () -> Endpoints.parse("  ")).getMessage());
        assertEquals("'u:****@re dis' contains whitespace",
                assertThrows(IllegalArgumentException.class, () -> Endpoints.parse("u:s3cr3t-test-pw@re dis")).getMessage());
        assertEquals("'redis://re dis' contains whitespace",
                assertThrows(IllegalArgumentException.class, () -> Endpoints.parse("redis://re dis")).getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "LOCALHOST", "LocalHost.", "localhost.localdomain", "redis.localhost", "a.b.LOCALHOST.",
        "ip6-localhost", "ip6-loopback", "127.0.0.1", "127.0.0.53", "127.255.255.254", "127.1", "127.0.1", "0x7f.0.0.1",
        "0x7F000001", "2130706433", "0177.0.0.1", "017700000001", "127.0.0.1.", "::1", "[::1]", "0:0:0:0:0:0:0:1",
        "::ffff:127.0.0.1", "0.0.0.0", "0", "::", "[::]"})
    void loopbackInAnySpelling(String host) {
        assertTrue(Loopback.isLoopback(host), host);
        assertTrue(Loopback.bySpelling(host), host);
        assertEquals(Boolean.TRUE, Loopback.withoutLookup(host), host + " must be known without a lookup");
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.5", "192.168.1.20", "128.0.0.1", "126.255.255.255", "8.8.8.8", "2001:db8::1", "[2001:db8::1]",
        "::2", "fe80::1", "1.2.3.4.5", "256.0.0.1", "localhostx", "notlocalhost", "localhost.example.invalid",
        "redis", "guard-does-not-exist.invalid"})
    void notLoopback(String host) {
        assertFalse(Loopback.isLoopback(host), host);
        assertFalse(Loopback.bySpelling(host), host);
    }

    @Test
    void namesNeedALookupUnlessTheyAreLiteral() {
        assertNull(Loopback.withoutLookup("redis"));
        assertNull(Loopback.withoutLookup("kafka-0.kafka-headless.jobs.svc.cluster.local"));
        assertEquals(Boolean.FALSE, Loopback.withoutLookup("10.0.0.5"));
    }

    /**
     * A real JDK name lookup, made deterministic with {@code -Djdk.net.hosts.file}: a child JVM whose
     * resolver reads a hosts file where one alias maps only to loopback addresses, one maps to
     * loopback and another host, and one is absent.
     */
    @Test
    void aNameResolvingOnlyToLoopbackIsLoopback(@TempDir Path dir) throws Exception {
        Path hosts = dir.resolve("hosts");
        Files.writeString(hosts, String.join("\n",
                "127.0.0.1 worker-alias",
                "::1 worker-alias",
                "127.0.1.1 debian-hostname",
                "127.0.0.1 mixed-alias",
                "10.0.0.5 mixed-alias",
                "10.0.0.6 other-host", ""));
        String out = JavaMain.run(List.of("-Djdk.net.hosts.file=" + hosts), LoopbackLookupMain.class.getName(),
                "worker-alias", "debian-hostname", "mixed-alias", "other-host", "absent-alias");
        assertEquals(String.join("\n",
                "all lookup=[debian-hostname, worker-alias]",
                "worker-alias lookup=true",
                "debian-hostname lookup=true",
                "mixed-alias lookup=false",
                "other-host lookup=false",
                "absent-alias lookup=false"), out.strip());
    }

    @Test
    void userInfoIsKeptButNeverPrinted() {
        Endpoint e = Endpoints.parse("redis://default:s3cr3t-test-pw@cache:6380/0?key=jobs").get(0);
        assertEquals("default", e.user());
        assertEquals("s3cr3t-test-pw", e.password());
        assertEquals("/0?key=jobs", e.rest());
        assertTrue(e.portGiven());
        assertEquals("redis://cache:6380", e.display());
        assertFalse(e.toString().contains("s3cr3t"), e.toString());
        Endpoint token = Endpoints.parse("nats://s3cr3t-test-pw@nats").get(0);
        assertEquals("s3cr3t-test-pw", token.user());
        assertNull(token.password());
        assertFalse(token.portGiven());
        assertEquals(4222, token.port());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "redis:6379       | -1   | redis:6379",
        "redis            | 6379 | redis:6379",
        "[::1]:4222       | -1   | [::1]:4222",
        "[2001:db8::1]    | 9092 | [2001:db8::1]:9092",
    })
    void hostPortWithADefault(String text, int defaultPort, String expected) {
        assertEquals(expected, Endpoints.parseHostPort(text, defaultPort).hostPort());
    }

    @Test
    void hostPortWithoutADefaultNeedsAPort() {
        assertEquals("'redis' has no port (expected host:port)",
                assertThrows(IllegalArgumentException.class, () -> Endpoints.parseHostPort("redis", -1)).getMessage());
        assertEquals("entry 2 of 'a:1,' is empty (stray comma?)",
                assertThrows(IllegalArgumentException.class, () -> Endpoints.parseHostPorts("a:1,", -1)).getMessage());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "htp      | http ftp", "htps | https", "reddis | redis", "rediss2 | rediss", "amqpp | amqp amqps", "nast | nats",
        "kafak    | kafka", "postgress | postgres", "mysq | mysql", "HTP | http ftp",
    })
    void nearMissesOfAKnownSchemeAreTypos(String scheme, String meant) {
        assertEquals(List.of(meant.split(" ")), Scheme.nearMisses(scheme));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "redis", "rediss", "ssh", "ssl", "custom", "myapp", "s3", "x"})
    void knownOrUnrelatedSchemesAreNoTypos(String scheme) {
        assertEquals(List.of(), Scheme.nearMisses(scheme));
    }

    @Test
    void everyBrokerSchemeIsKnownAndLeadsBack() {
        for (Broker b : Broker.values()) {
            for (String s : b.schemes()) {
                assertEquals(java.util.Optional.of(b), Broker.ofScheme(s), s);
            }
            assertTrue(b.defaultPort() > 0, b.name());
            assertEquals(b, Endpoints.parse(b.exampleUrl()).get(0).broker().orElseThrow(), b.exampleUrl());
            Endpoints.parse(b.exampleHostList()).forEach(e -> assertTrue(e.portGiven(), b.exampleHostList()));
        }
        assertEquals(java.util.Optional.of(Broker.REDIS), Broker.ofName("SPRING_DATA_REDIS_URL"));
        assertEquals(java.util.Optional.of(Broker.KAFKA), Broker.ofName("KAFKA_BOOTSTRAP_SERVERS"));
        assertEquals(java.util.Optional.of(Broker.RABBITMQ), Broker.ofName("spring.rabbitmq.addresses"));
        assertEquals(java.util.Optional.empty(), Broker.ofName("DATABASE_URL"));
        assertTrue(Broker.REDIS.namedSurelyBy("REDIS_URL"));
        assertFalse(Broker.REDIS.namedSurelyBy("CACHE_URL"));
    }
}
