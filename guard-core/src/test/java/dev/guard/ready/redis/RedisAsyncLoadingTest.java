package dev.guard.ready.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import dev.guard.ready.Recorder;
import dev.guard.ready.Warm;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.Patience;
import dev.guard.testing.RedisServer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A real replica with {@code repl-diskless-load swapdb} made to do a full sync again (its master's
 * backlog overrun while it cannot read): for the whole load it answers PING with PONG, from its old
 * dataset, and says {@code loading:0} and {@code async_loading:1}. The -LOADING rule never sees it;
 * the probe does, unless the target accepts stale reads.
 */
@ExtendWith(NoLeakedProcesses.class)
class RedisAsyncLoadingTest {

    private static final int KEYS = 20_000;

    @BeforeAll
    static void warm() {
        Warm.clients();
    }

    @Test
    void aReplicaLoadingInTheBackgroundAnswersPongButIsNotReadyUnlessStaleReadsAreAccepted() throws Exception {
        try (RedisServer master = RedisServer.builder().local()
                .args("--repl-diskless-sync-delay", "0", "--repl-backlog-size", "16384").build().start()) {
            master.command("EVAL", "for i=1," + KEYS + " do redis.call('set','k'..i,'v'..i) end", "0");
            try (RedisServer replica = RedisServer.builder().local().args("--replicaof", "127.0.0.1",
                    Integer.toString(master.port()), "--repl-diskless-load", "swapdb", "--enable-debug-command", "yes",
                    "--loading-process-events-interval-bytes", "1024").build().start()) {
                awaitTrue(() -> replica.command("DBSIZE").equals(":" + KEYS), "the replica's first sync");
                // the next full sync loads slowly: 20,000 keys at 2 ms each (ended below by setting it to 0)
                replica.command("CONFIG", "SET", "key-load-delay", "2000");
                // the replica cannot read for 3 s; meanwhile the master drops it and writes past its 16 KB
                // backlog, so the replica's PSYNC fails and it does a full sync with the same replication id:
                // with swapdb, a background load from the old dataset (Redis 7.0 replication.c)
                CompletableFuture<String> asleep = CompletableFuture.supplyAsync(() -> replica.command("DEBUG", "SLEEP", "3"));
                Thread.sleep(300);
                master.command("CLIENT", "KILL", "TYPE", "replica");
                String big = "x".repeat(50_000);
                for (int i = 0; i < 4; i++) {
                    master.command("SET", "big" + i, big);
                }
                asleep.get(Patience.WAIT.toSeconds(), TimeUnit.SECONDS);
                awaitTrue(() -> replica.command("INFO", "persistence").contains("async_loading:1"),
                        "the replica's background load");

                Probe strict = Probes.forUrl(replica.uri());
                Probe stale = Probes.forUrl(replica.uri() + "?async-loading=ok");
                try {
                    assertEquals("+PONG", replica.command("PING"), "the replica answers PING while it loads");
                    ProbeResult r = strict.check(Patience.REPLY);
                    assertEquals(ProbeState.LOADING, r.state(), r.toString());
                    assertTrue(r.detail().startsWith("Redis 7") || r.detail().startsWith("Valkey "), r.detail());
                    assertTrue(r.detail().contains(" answers from its old dataset while it loads a new one in the background"
                            + " (async_loading:1, a replica's full sync with repl-diskless-load swapdb)"), r.detail());
                    assertTrue(r.detail().matches(".*; dataset \\d+% loaded(, eta \\d+s)?\\. A worker that accepts stale"
                            + " reads: async-loading=ok in the target"), r.detail());
                    ProbeResult accepted = stale.check(Patience.REPLY);
                    assertEquals(ProbeState.READY, accepted.state(), accepted.toString());

                    // a gate waits while it loads and opens when the load is done
                    Recorder rec = new Recorder();
                    CountDownLatch waits = rec.when(x -> x.state() == ProbeState.LOADING);
                    try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.forUrl(replica.uri()))
                            .deadline(Patience.PROCESS).attemptTimeout(Patience.REPLY).listener(rec).build()) {
                        CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
                        rec.await(waits, Patience.WAIT, "the gate reports the background load");
                        assertTrue(!waiting.isDone(), rec.changes().toString());
                        replica.command("CONFIG", "SET", "key-load-delay", "0");
                        ReadinessReport report = waiting.get(Patience.PROCESS.toSeconds(), TimeUnit.SECONDS);
                        assertTrue(report.ready(), report.render());
                    }
                    assertTrue(replica.command("INFO", "persistence").contains("async_loading:0"));
                } finally {
                    strict.close();
                    stale.close();
                }
            }
        }
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long until = System.nanoTime() + Patience.PROCESS.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError(what + ": not within " + Patience.PROCESS.toSeconds() + " s");
            }
            Thread.sleep(50);
        }
    }
}
