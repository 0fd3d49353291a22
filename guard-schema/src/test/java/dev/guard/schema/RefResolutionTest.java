package dev.guard.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code $ref}: resolved from the schema itself, from schemas registered at boot, and from the network
 * only when allowed; anything else is a boot error that names the reference and its pointer. The
 * network cases use real sockets on 127.0.0.1: a listener that counts connections (none may arrive) and
 * the JDK's HTTP server (for the allowed fetch).
 */
class RefResolutionTest {

    static boolean accepts(Schemas s, String payload) {
        Verdict v = s.validate("t", payload);
        assertTrue(!(v instanceof Malformed), v.describe());
        return v.accepted();
    }

    static SchemaSelfTestException refused(Schemas.Builder b) {
        return assertThrows(SchemaSelfTestException.class, b::build);
    }

    @Test
    void localPointersResolveAndAPointerToNothingIsABootError() {
        Schemas s = Schemas.builder().fromJson("t", "{\"definitions\": {\"id\": {\"type\": \"string\", \"minLength\": 1}, "
                + "\"a~b/c\": {\"type\": \"integer\"}}, \"properties\": {\"job_id\": {\"$ref\": \"#/definitions/id\"}, "
                + "\"n\": {\"$ref\": \"#/definitions/a~0b~1c\"}, \"self\": {\"$ref\": \"#\"}}}").build();
        assertTrue(accepts(s, "{\"job_id\": \"j\", \"n\": 1, \"self\": {\"job_id\": \"k\"}}"));
        assertTrue(!accepts(s, "{\"job_id\": \"\"}") && !accepts(s, "{\"n\": \"x\"}") && !accepts(s, "{\"self\": {\"n\": 1.5}}"));

        SchemaSelfTestException e = refused(Schemas.builder().fromJson("t",
                "{\"properties\": {\"job_id\": {\"$ref\": \"#/definitions/jobId\"}}, \"definitions\": {\"job_id\": {}}}"));
        assertEquals(1, e.problems().size(), e.problems().toString());
        String p = e.problems().get(0);
        assertTrue(p.contains("$ref \"#/definitions/jobId\" at #/properties/job_id/$ref points at nothing"), p);
    }

    @Test
    void anUnregisteredHttpRefIsABootErrorAndNoConnectionIsMade() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            AtomicInteger connections = new AtomicInteger();
            Thread t = new Thread(() -> {
                while (!listener.isClosed()) {
                    try {
                        Socket s = listener.accept();
                        connections.incrementAndGet();
                        s.close();
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            t.setDaemon(true);
            t.start();
            String url = "http://127.0.0.1:" + listener.getLocalPort() + "/schemas/common.json";
            SchemaSelfTestException e = refused(Schemas.builder().fromJson("t",
                    "{\"properties\": {\"to\": {\"$ref\": \"" + url + "#/definitions/email\"}}}"));
            String p = e.problems().get(0);
            assertTrue(p.contains("at #/properties/to/$ref refers to " + url + ", which is neither this schema nor a registered one "
                    + "(network references are off)"), p);
            assertTrue(p.contains("allowNetworkRefs()") && p.contains("refFromFile"), "the message says what to do: " + p);
            Thread.sleep(200);
            assertEquals(0, connections.get(), "boot must not connect anywhere when network references are off");
        }
    }

    @Test
    void whenAllowedAnHttpRefIsFetchedOnceAtBoot() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        AtomicInteger gets = new AtomicInteger();
        server.createContext("/schemas/common.json", ex -> {
            gets.incrementAndGet();
            byte[] body = "{\"definitions\": {\"email\": {\"type\": \"string\", \"format\": \"email\"}}}".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/schemas/common.json";
            Schemas s = Schemas.builder().allowNetworkRefs(true)
                    .fromJson("t", "{\"properties\": {\"to\": {\"$ref\": \"" + url + "#/definitions/email\"}}}").build();
            assertTrue(accepts(s, "{\"to\": \"a@example.com\"}") && !accepts(s, "{\"to\": \"not an address\"}"));
            assertTrue(accepts(s, "{\"to\": \"b@example.com\"}"));
            assertEquals(1, gets.get(), "fetched at boot, never per payload");

            String missing = "http://127.0.0.1:" + server.getAddress().getPort() + "/schemas/gone.json";
            SchemaSelfTestException e = refused(Schemas.builder().allowNetworkRefs(true)
                    .fromJson("t", "{\"properties\": {\"to\": {\"$ref\": \"" + missing + "\"}}}"));
            assertTrue(e.getMessage().contains("gone.json") && e.getMessage().contains("404"), e.getMessage());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void registeredSchemasResolveByIdByFileAndByGivenUri(@TempDir Path dir) throws Exception {
        Path common = Files.writeString(dir.resolve("common.json"), "{\"$id\": \"https://schemas.example/common.json\", "
                + "\"definitions\": {\"id\": {\"type\": \"string\", \"pattern\": \"^j-\"}}}");
        Path sibling = Files.writeString(dir.resolve("attempt.json"), "{\"type\": \"integer\", \"minimum\": 0}");
        Path job = Files.writeString(dir.resolve("job.json"), "{\"properties\": {"
                + "\"job_id\": {\"$ref\": \"https://schemas.example/common.json#/definitions/id\"}, "
                + "\"attempt\": {\"$ref\": \"attempt.json\"}, "
                + "\"user\": {\"$ref\": \"https://users.example/v2/user.json\"}}}");
        Schemas s = Schemas.builder().fromFile("t", job).refFromFile(common).refFromFile(sibling)
                .refFromJson("https://users.example/v2/user.json", "{\"required\": [\"name\"]}").build();
        assertTrue(accepts(s, "{\"job_id\": \"j-1\", \"attempt\": 2, \"user\": {\"name\": \"n\"}}"));
        assertTrue(!accepts(s, "{\"job_id\": \"x-1\"}") && !accepts(s, "{\"attempt\": -1}") && !accepts(s, "{\"user\": {}}"));

        SchemaSelfTestException e = refused(Schemas.builder().fromFile("t", job).refFromFile(common));
        assertTrue(e.getMessage().contains("\"attempt.json\" at #/properties/attempt/$ref refers to " + sibling.toFile().toURI()), e.getMessage());
        assertTrue(e.getMessage().contains("\"https://users.example/v2/user.json\" at #/properties/user/$ref"), e.getMessage());
    }

    @Test
    void aRegisteredSchemaOnTheClasspath() {
        Schemas s = Schemas.builder().refFromClasspath("schemas/send-email.json")
                .fromJson("t", "{\"$ref\": \"https://guard.dev/schemas/send-email.v1.json#/properties/attempt\"}").build();
        assertTrue(accepts(s, "3") && !accepts(s, "101"));
    }

    @Test
    void urnBasesEmbeddedIdsAndPlainNameFragments() {
        String urn = "urn:uuid:5b3c1f0e-2f4e-4d0a-9c61-3d2b7e0f9a10";
        Schemas s = Schemas.builder().fromJson("t", "{\"$id\": \"" + urn + "\", "
                + "\"definitions\": {\"s\": {\"type\": \"string\"}, "
                + "\"n\": {\"$id\": \"https://embedded.example/n.json\", \"type\": \"integer\", \"definitions\": {\"pos\": {\"minimum\": 1}}, "
                + "\"allOf\": [{\"$ref\": \"#/definitions/pos\"}]}, "
                + "\"named\": {\"$id\": \"#flag\", \"type\": \"boolean\"}}, "
                + "\"properties\": {\"a\": {\"$ref\": \"#/definitions/s\"}, \"b\": {\"$ref\": \"" + urn + "#/definitions/s\"}, "
                + "\"c\": {\"$ref\": \"https://embedded.example/n.json\"}, \"d\": {\"$ref\": \"#flag\"}}}").build();
        assertTrue(accepts(s, "{\"a\": \"x\", \"b\": \"y\", \"c\": 2, \"d\": true}"));
        assertTrue(!accepts(s, "{\"a\": 1}") && !accepts(s, "{\"b\": 1}") && !accepts(s, "{\"c\": \"2\"}") && !accepts(s, "{\"d\": 1}"));
        assertTrue(!accepts(s, "{\"c\": 0}"), "#/definitions/pos inside the embedded resource is that resource's definition");

        SchemaSelfTestException e = refused(Schemas.builder().fromJson("t", "{\"properties\": {\"d\": {\"$ref\": \"#nosuch\"}}}"));
        assertTrue(e.getMessage().contains("names \"#nosuch\", but no subschema has that $id"), e.getMessage());
        SchemaSelfTestException rel = refused(Schemas.builder().fromJson("t", "{\"$id\": \"" + urn + "\", \"$ref\": \"other.json\"}"));
        assertTrue(rel.getMessage().contains("is not hierarchical (a URN)"), rel.getMessage());
        SchemaSelfTestException noBase = refused(Schemas.builder().fromJson("t", "{\"$ref\": \"other.json\"}"));
        assertTrue(noBase.getMessage().contains("is relative and the schema has no base URI"), noBase.getMessage());
    }

    @Test
    void anIdBesideARefDoesNotChangeWhatTheRefMeans() {
        // drafts 4 to 7 ignore every sibling of $ref; everit alone would resolve "b.json" against the sibling $id
        Schemas s = Schemas.builder().fromJson("t", "{\"$id\": \"https://x.example/root/\", "
                + "\"definitions\": {\"right\": {\"$id\": \"b.json\", \"type\": \"string\"}, "
                + "\"wrong\": {\"$id\": \"https://x.example/b.json\", \"type\": \"integer\"}}, "
                + "\"allOf\": [{\"$id\": \"https://x.example/\", \"$ref\": \"b.json\"}]}").build();
        assertTrue(accepts(s, "\"text\"") && !accepts(s, "7"));
    }

    @Test
    void aPointerEndingInAnEmptyTokenIsResolvedAsRfc6901SaysOrRefusedNotMisread() {
        // everit alone would drop the last token and validate against definitions/"" (an object without "type")
        Schemas s = Schemas.builder().fromJson("t",
                "{\"definitions\": {\"\": {\"definitions\": {\"\": {\"type\": \"number\"}}}}, \"allOf\": [{\"$ref\": \"#/definitions//definitions/\"}]}")
                .build();
        assertTrue(s.validate("t", "1").accepted());
        assertFalse(s.validate("t", "\"a\"").accepted(), "the number schema two empty tokens down");
        SchemaSelfTestException e = refused(Schemas.builder().fromJson("t",
                "{\"definitions\": {\"\": {\"$ref\": \"#/definitions/a\"}, \"a\": {}}, \"allOf\": [{\"$ref\": \"#/definitions/\"}]}"));
        assertTrue(e.getMessage().contains("at #/allOf/0/$ref: a JSON pointer ending in an empty token"), e.getMessage());
    }

    @Test
    void aBrokenRegisteredSchemaIsABootErrorEvenWhenUnused(@TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"type\": ");
        SchemaSelfTestException e = refused(Schemas.builder().fromJson("t", "{}").refFromFile(bad));
        assertTrue(e.getMessage().contains("referenced schema file:" + bad) && e.getMessage().contains("is not valid JSON"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Schemas.builder().refFromJson("relative.json", "{}"));
    }
}
