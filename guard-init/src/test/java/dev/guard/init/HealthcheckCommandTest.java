package dev.guard.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.testing.MachineServices;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code guard-init healthcheck}: one attempt, exit 0 or 1 (the LOADING case is in {@link WaitCommandTest}). */
class HealthcheckCommandTest {

    @Test
    void readyServicesAreHealthy() {
        Cli.Result r = Cli.run(Map.of(), "healthcheck", MachineServices.redisUri(), MachineServices.natsUrl());
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().contains("healthy   redis 127.0.0.1:6379: ready (PONG)"), r.toString());
        assertTrue(r.out().contains("healthy   nats 127.0.0.1:4222: ready"), r.toString());
    }

    @Test
    void aClosedPortOrABadUrlIsUnhealthyWithExit1() throws Exception {
        int port = WaitCommandTest.closedPort();
        Cli.Result r = Cli.run(Map.of(), "healthcheck", MachineServices.redisUri(), "redis://127.0.0.1:" + port);
        assertEquals(ExitCodes.UNHEALTHY, r.code(), r.toString());
        assertTrue(r.err().contains("UNHEALTHY redis 127.0.0.1:" + port + ": refused"), r.toString());
        assertTrue(r.err().contains("do: start the service"), r.toString());
        Cli.Result bad = Cli.run(Map.of(), "healthcheck", "redis//nope");
        assertEquals(ExitCodes.UNHEALTHY, bad.code(), bad.toString());
        assertTrue(bad.err().contains("config"), bad.toString());
    }

    @Test
    void targetsFromGuardWaitAndJsonOutput() throws Exception {
        Cli.Result r = Cli.run(Map.of("GUARD_WAIT", MachineServices.redisUri()), "healthcheck", "--json");
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
