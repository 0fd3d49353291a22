package dev.guard.ready;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Formatting of the report (pure logic). */
class ReadinessReportTest {

    private static final ProbeResult READY = new ProbeResult("nats", "nats:4222", ProbeState.READY, "PING/PONG ok", "",
            2, Duration.ofMillis(120));
    private static final ProbeResult LOADING = new ProbeResult("redis", "redis:6379", ProbeState.LOADING,
            "dataset 40% loaded", "io.lettuce.core.RedisLoadingException: LOADING Redis is loading the dataset in memory",
            37, Duration.ofMillis(59_900));
    private static final ProbeResult AUTH = new ProbeResult("amqp", "rabbit:5672", ProbeState.AUTH,
            "login refused (ACCESS_REFUSED)", "AuthenticationFailureException: ACCESS_REFUSED amqp://guest:s3cret@rabbit", 1,
            Duration.ofMillis(40));

    @Test
    void deadlineReportListsEveryTargetWithWhatWasFoundAndWhatToDo() {
        ReadinessReport r = new ReadinessReport(ReadinessReport.Outcome.DEADLINE, List.of(LOADING, READY),
                Duration.ofMillis(60_000), Duration.ofSeconds(60));
        assertEquals("""
                readiness: NOT READY: deadline of 60s reached after 60s; 1 of 2 target(s) not ready (last state of each below)
                  FAIL redis redis:6379: loading (dataset 40% loaded), attempt 37, 59.9s
                       found: io.lettuce.core.RedisLoadingException: LOADING Redis is loading the dataset in memory
                       do: wait: it is starting up; raise the deadline if it needs longer
                  ok   nats nats:4222: ready (PING/PONG ok), attempt 2, 0.1s
                """, r.render());
    }

    @Test
    void nonRetryableReportSaysItDidNotRetryAndWhy() {
        ReadinessReport r = new ReadinessReport(ReadinessReport.Outcome.NOT_RETRYABLE, List.of(AUTH, LOADING),
                Duration.ofMillis(45), Duration.ofSeconds(60));
        String text = r.render();
        assertEquals("""
                readiness: NOT READY: stopped after 0.0s without retrying: amqp rabbit:5672 is auth, which waiting cannot fix
                  FAIL amqp rabbit:5672: auth (login refused (ACCESS_REFUSED)), attempt 1, 0.0s
                       found: AuthenticationFailureException: ACCESS_REFUSED amqp://guest:****@rabbit
                       not retried: auth does not change by waiting
                       do: fix the user/password (or token) in the URL; the service rejected them
                  FAIL redis redis:6379: loading (dataset 40% loaded), attempt 37, 59.9s
                       found: io.lettuce.core.RedisLoadingException: LOADING Redis is loading the dataset in memory
                       do: wait: it is starting up; raise the deadline if it needs longer
                """, text);
    }

    @Test
    void jsonCarriesTheSameFacts() throws Exception {
        ReadinessReport r = new ReadinessReport(ReadinessReport.Outcome.NOT_RETRYABLE, List.of(AUTH, READY),
                Duration.ofMillis(45), Duration.ofSeconds(60));
        JsonNode json = new ObjectMapper().readTree(r.toJson());
        assertFalse(json.get("ready").asBoolean());
        assertEquals("not_retryable", json.get("outcome").asText());
        assertEquals(60_000, json.get("deadlineMs").asLong());
        JsonNode t = json.get("targets").get(0);
        assertEquals("amqp", t.get("kind").asText());
        assertEquals("rabbit:5672", t.get("target").asText());
        assertEquals("auth", t.get("state").asText());
        assertFalse(t.get("retryable").asBoolean());
        assertEquals(1, t.get("attempt").asInt());
        assertEquals("fix the user/password (or token) in the URL; the service rejected them", t.get("action").asText());
        assertFalse(r.toJson().contains("s3cret"));
        assertFalse(json.get("targets").get(1).has("action"));
    }

    @Test
    void readyReportIsOneLinePlusTargets() {
        ReadinessReport r = new ReadinessReport(ReadinessReport.Outcome.READY, List.of(READY), Duration.ofMillis(1500),
                Duration.ofSeconds(60));
        assertEquals("readiness: all 1 target(s) ready after 1.5s\n  ok   nats nats:4222: ready (PING/PONG ok), attempt 2, 0.1s\n",
                r.render());
    }

    @Test
    void aCauseNamesItsRootOnlyWhenTheRootSaysSomethingElse() {
        // lettuce wraps a LOADING reply in an exception of the same kind and message
        IllegalStateException same = new IllegalStateException("LOADING Redis is loading", new IllegalStateException("LOADING Redis is loading"));
        assertEquals("java.lang.IllegalStateException: LOADING Redis is loading", ProbeResult.describe(same));
        IllegalStateException other = new IllegalStateException("connect failed",
                new RuntimeException("wrapped", new java.net.ConnectException("Connection refused")));
        assertEquals("java.lang.IllegalStateException: connect failed (caused by java.net.ConnectException: Connection refused)",
                ProbeResult.describe(other));
    }
}
