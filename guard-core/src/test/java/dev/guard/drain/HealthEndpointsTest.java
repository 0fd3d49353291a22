package dev.guard.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The probe endpoints over real HTTP, following a real drain. */
class HealthEndpointsTest {

    private static HttpResponse<String> get(HealthEndpoints h, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + h.port() + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void readyWhileTakingJobsOutOfRotationFromSigtermOnAndStalledOnlyWithoutLoopTurns() throws Exception {
        Drain drain = Drain.create(DrainConfig.builder().gracePeriod(Duration.ofSeconds(2)).safetyMargin(Duration.ofSeconds(1))
                .workerId("h").build());
        try (HealthEndpoints h = HealthEndpoints.start(0, Duration.ofMillis(300))) {
            assertEquals(503, get(h, "/readyz").statusCode(), "starting: config and readiness first");
            h.watch(drain);
            HttpResponse<String> ready = get(h, "/readyz");
            assertEquals(200, ready.statusCode());
            assertEquals("consuming\n", ready.body());
            assertEquals(200, get(h, "/livez").statusCode());

            Thread.sleep(450);
            HttpResponse<String> stalled = get(h, "/livez");
            assertEquals(503, stalled.statusCode(), "no turn of the loop for longer than the bound");
            assertTrue(stalled.body().startsWith("stalled: no progress for "), stalled.body());
            drain.loopTurned();
            assertEquals(200, get(h, "/livez").statusCode(), "a turn of the drain loop is progress");

            drain.requestStop("SIGTERM");
            HttpResponse<String> draining = get(h, "/readyz");
            assertEquals(503, draining.statusCode());
            assertEquals("draining\n", draining.body());
        }
    }
}
