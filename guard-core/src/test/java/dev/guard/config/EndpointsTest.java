package dev.guard.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
    })
    void parsesGoodEndpoints(String value, String expected) {
        List<HostPort> parsed = Endpoints.parse(value);
        StringBuilder sb = new StringBuilder();
        for (HostPort hp : parsed) {
            sb.append(sb.length() == 0 ? "" : " ").append(hp.scheme() == null ? "-" : hp.scheme()).append(' ').append(hp);
        }
        assertEquals(expected, sb.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "mongodb://db:27017              | unknown scheme 'mongodb' in 'mongodb://db:27017' (guard knows redis, rediss, amqp, amqps, nats, tls, kafka, tcp, http, https, plaintext, ssl, sasl_plaintext, sasl_ssl)",
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
    })
    void rejectsMalformedWithAClearMessage(String value, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Endpoints.parse(value));
        assertEquals(message, e.getMessage());
        assertFalse(e.getMessage().contains(NoSecretOnConsole.TEST_PASSWORD));
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
        assertTrue(Endpoints.isLoopback(host), host);
        assertEquals(Boolean.TRUE, Endpoints.loopbackWithoutLookup(host), host + " must be known without a lookup");
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.5", "192.168.1.20", "128.0.0.1", "126.255.255.255", "8.8.8.8", "2001:db8::1", "[2001:db8::1]",
        "::2", "fe80::1", "1.2.3.4.5", "256.0.0.1", "localhostx", "notlocalhost", "localhost.example.invalid",
        "redis", "guard-does-not-exist.invalid"})
    void notLoopback(String host) {
        assertFalse(Endpoints.isLoopback(host), host);
    }

    @Test
    void namesNeedALookupUnlessTheyAreLiteral() {
        assertNull(Endpoints.loopbackWithoutLookup("redis"));
        assertNull(Endpoints.loopbackWithoutLookup("kafka-0.kafka-headless.jobs.svc.cluster.local"));
        assertEquals(Boolean.FALSE, Endpoints.loopbackWithoutLookup("10.0.0.5"));
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
        String out = runJava(List.of("-Djdk.net.hosts.file=" + hosts), LoopbackLookupMain.class.getName(),
                "worker-alias", "debian-hostname", "mixed-alias", "other-host", "absent-alias");
        assertEquals(String.join("\n",
                "all lookup=[debian-hostname, worker-alias]",
                "worker-alias lookup=true",
                "debian-hostname lookup=true",
                "mixed-alias lookup=false",
                "other-host lookup=false",
                "absent-alias lookup=false"), out.strip());
    }

    /** Runs a main class of this test classpath in a child JVM; returns its stdout, fails on a non-zero exit. */
    static String runJava(List<String> jvmArgs, String mainClass, String... args) throws IOException, InterruptedException {
        return runJava(jvmArgs, System.getProperty("java.class.path"), java.util.Map.of(), mainClass, args);
    }

    static String runJava(List<String> jvmArgs, String classPath, java.util.Map<String, String> env, String mainClass,
                          String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        for (var e : env.entrySet()) {
            if (e.getValue() == null) {
                pb.environment().remove(e.getKey());
            } else {
                pb.environment().put(e.getKey(), e.getValue());
            }
        }
        Process p = pb.start();
        try {
            byte[] stdout = p.getInputStream().readAllBytes();
            byte[] stderr = p.getErrorStream().readAllBytes();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM did not exit");
            assertEquals(0, p.exitValue(), "child JVM " + mainClass + " failed: " + new String(stderr, StandardCharsets.UTF_8));
            return new String(stdout, StandardCharsets.UTF_8);
        } finally {
            p.destroyForcibly();
        }
    }
}
