package dev.guard.schema.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.spring.SpringApps;
import dev.guard.testing.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What Kubernetes and an operator see over HTTP: a Spring Boot application with Actuator, a web
 * server and Spring Data Redis (whose own Redis health indicator asks INFO and says UP while Redis
 * loads), plus guard-core. guard's contributor takes the name {@code redis}, Boot's backs off, and
 * {@code /actuator/health} is DOWN (503) with the load's progress while Redis loads, UP after;
 * guard-schema's ledger answers at {@code /actuator/ledger}. Runs on Spring Boot 3.5 here and on
 * 4.0 in {@code guard-core/spring-boot-4}.
 */
class HealthOverHttpTest {

    /** An application with nothing of its own (no component scan: this package holds other tests' beans). */
    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {}

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void healthIsDownWithProgressWhileRedisLoadsThenUp() throws Exception {
        try (RedisServer redis = RedisServer.builder().preloadKeys(40_000).heldLoading().build().startLoading()) {
            SpringApplication app = new SpringApplication(App.class);
            try (ConfigurableApplicationContext ctx = app.run("--server.port=0", "--spring.main.banner-mode=off",
                    "--spring.data.redis.url=redis://127.0.0.1:" + redis.port(), "--guard.brokers=redis", "--guard.config.in-container=false",
                    "--guard.wait.enabled=false", "--management.endpoint.health.show-details=always",
                    "--management.endpoints.web.exposure.include=health,ledger")) {
                SpringApps.assertBootUnderTest();
                int port = Integer.parseInt(ctx.getEnvironment().getRequiredProperty("local.server.port"));
                HttpClient http = HttpClient.newHttpClient();
                HttpResponse<String> loading = get(http, port, "/actuator/health");
                for (int i = 0; i < 10 && !loading.body().contains("%"); i++) { // a first check may time out on a busy machine
                    loading = get(http, port, "/actuator/health");
                }
                System.out.println("GET /actuator/health while Redis loads: " + loading.statusCode() + "\n" + loading.body());
                assertEquals(503, loading.statusCode(), loading.body());
                JsonNode r = JSON.readTree(loading.body()).path("components").path("redis");
                assertEquals("DOWN", r.path("status").asText(), loading.body());
                assertEquals("loading", r.path("details").path("state").asText(), loading.body());
                assertTrue(r.path("details").path("detail").asText().contains("% loaded"), loading.body());
                assertFalse(r.path("details").has("version"), "Spring Boot's own indicator answered: " + loading.body());

                redis.finishLoading();
                redis.awaitLoaded(Duration.ofSeconds(60));
                HttpResponse<String> up = get(http, port, "/actuator/health");
                System.out.println("GET /actuator/health after the load: " + up.statusCode() + "\n" + up.body());
                assertEquals(200, up.statusCode(), up.body());
                assertEquals("UP", JSON.readTree(up.body()).path("components").path("redis").path("status").asText(), up.body());

                // guard-schema is on this class path: its ledger is an endpoint (no worker here, so nothing received)
                HttpResponse<String> ledger = get(http, port, "/actuator/ledger");
                System.out.println("GET /actuator/ledger: " + ledger.statusCode() + "\n" + ledger.body());
                assertEquals(200, ledger.statusCode(), ledger.body());
                assertEquals(0, JSON.readTree(ledger.body()).path("received").asInt(-1), ledger.body());
                assertEquals(0, JSON.readTree(ledger.body()).path("missing").asInt(-1), ledger.body());
            }
        }
    }

    private static HttpResponse<String> get(HttpClient http, int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
