package dev.guard.init;

import dev.guard.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.testing.MachineServices;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code guard-init healthcheck}: one attempt, exit 0 or 1 (the LOADING case is in {@link WaitCommandTest}). */
class HealthcheckCommandTest {

    /**
     * Bound of the one attempt against a service that answers: it ends with the reply, so the
     * bound costs nothing, but it must outlast a cold client's first connection on a loaded
     * 2-core machine (class loading alone takes seconds there; the default is 2 s).
     */
    static final String ANSWERED_ATTEMPT_TIMEOUT = "30s";

    @Test
    void readyServicesAreHealthy() {
        String redis = MachineServices.redisUri();
        String nats = MachineServices.natsUrl();
        Cli.Result r = Cli.run(Map.of(), "healthcheck", redis, nats, "--attempt-timeout", ANSWERED_ATTEMPT_TIMEOUT);
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().contains("healthy   redis " + WaitCommandTest.hostPort(redis) + ": ready (PONG)"), r.toString());
        assertTrue(r.out().contains("healthy   nats " + WaitCommandTest.hostPort(nats) + ": ready"), r.toString());
    }

    @Test
    void aClosedPortOrABadUrlIsUnhealthyWithExit1() {
        int port = WaitCommandTest.closedPort();
        Cli.Result r = Cli.run(Map.of(), "healthcheck", MachineServices.redisUri(), "redis://127.0.0.1:" + port,
                "--attempt-timeout", ANSWERED_ATTEMPT_TIMEOUT);
        assertEquals(ExitCodes.UNHEALTHY, r.code(), r.toString());
        assertTrue(r.err().contains("UNHEALTHY redis 127.0.0.1:" + port + ": refused"), r.toString());
        assertTrue(r.err().contains("do: start the service"), r.toString());
        Cli.Result bad = Cli.run(Map.of(), "healthcheck", "redis//nope");
        assertEquals(ExitCodes.UNHEALTHY, bad.code(), bad.toString());
        assertTrue(bad.err().contains("config"), bad.toString());
    }

    @Test
    void targetsFromGuardWaitAndJsonOutput() throws Exception {
        Cli.Result r = Cli.run(Map.of("GUARD_WAIT", MachineServices.redisUri(), "GUARD_ATTEMPT_TIMEOUT", ANSWERED_ATTEMPT_TIMEOUT),
                "healthcheck", "--json");
        assertEquals(0, r.code(), r.toString());
        assertEquals("ready", new ObjectMapper().readTree(r.out()).path("targets").path(0).path("state").asText());
        Cli.Result none = Cli.run(Map.of(), "healthcheck");
        assertEquals(ExitCodes.USAGE, none.code(), none.toString());
    }

    @Test
    void helpListsTheExitCodes() {
        Cli.Result r = Cli.run("healthcheck", "--help");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().contains("Exit codes:") && r.out().contains("not healthy"), r.toString());
    }
}
