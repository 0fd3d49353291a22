package dev.guard.examples.scaledown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.RedisServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Idle pods first, small: a fleet at a third of its capacity (real worker JVMs on a private
 * redis-server, every job 1.0-2.5 s, grace period 2 s), scaled down twice. Each worker keeps its
 * pod's {@code controller.kubernetes.io/pod-deletion-cost} through a stand-in API server and the
 * scaler removes the lowest cost first, as the ReplicaSet controller does: the workers it stops
 * are idle ones, and no job is lost. The comparison with a scaler that picks at random (the plain
 * row: about one busy worker in three here) is the experiment's full-size run,
 * {@code --modes fallback,deletion-cost --load 0.5} (examples/README.md).
 */
class DeletionCostScaleDownTest {

    @Test
    void theDeletionCostScalerStopsIdleWorkersAndNoJobIsLost() throws Exception {
        try (RedisServer server = RedisServer.builder().build().start()) {
            ExperimentConfig config = ExperimentConfig.builder().jobs(16).workers(6).events(2).perEvent(2).slowOneIn(1)
                    .load(0.34).costAfter(Duration.ofMillis(20)).grace(Duration.ofSeconds(2))
                    .modes(List.of(Mode.DELETION_COST))
                    .redisUri(server.uri()).keepKeys(true)
                    .workDir(System.getProperty("guard.build.dir", "target") + "/scaledown-cost-test").build();
            assertEquals(2, config.inFlight());
            ByteArrayOutputStream progress = new ByteArrayOutputStream();
            List<Row> rows = Experiment.run(config, new PrintStream(progress, true, StandardCharsets.UTF_8));
            String table = Experiment.table(config, rows);
            System.out.println(progress.toString(StandardCharsets.UTF_8));
            System.out.println(table);

            assertEquals(List.of(Mode.DELETION_COST), rows.stream().map(Row::mode).toList(), table);
            Row cost = rows.get(0);
            assertEquals(4, cost.terminated(), table);
            assertEquals(List.of(), cost.lostIds(), "hand-back loses nothing, whoever is chosen: " + table);
            assertEquals(16, cost.distinctResults(), table);
            // 2 of 6 workers hold a job at any time; a worker shows busy 20 ms (plus the patch's trip)
            // into a job, so a pick can still meet one just started: at most one of four, here
            assertTrue(cost.busyStopped() <= 1, "the deletion-cost scaler stops idle workers: " + table);
            assertTrue(progress.toString(StandardCharsets.UTF_8).contains("deletion cost"), table);
        }
    }
}
