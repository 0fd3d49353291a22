package dev.guard.examples.scaledown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.NoLeakedProcesses;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fault matrix, small: real worker JVMs of the guarded fleet on a private broker that keeps
 * what it holds, a real fault (the broker SIGKILLed and started again on its data; worker w1 in a
 * network namespace of its own, its TCP to the broker black-holed by iptables for longer than the
 * lease while it holds a job), and every job id reconciled on its own against the sink. The
 * default run has one broker restart and one partition, on Redis; {@code -Pproof} runs every fault
 * on every broker (the slow, lossy link too). Needs root and iptables for the partition (.ci/run installs iptables): without
 * them the test fails saying so, it is not skipped.
 */
@ExtendWith(NoLeakedProcesses.class)
class FaultMatrixTest {

    private static final String FLEET = "--jobs 400 --workers 3 --slow-one-in 10 --work-dir "
            + System.getProperty("guard.build.dir", "target") + "/faults";

    @Test
    void aRedisRestartAPartitionedWorkerAndASentinelFailoverLoseNoJob() throws Exception {
        List<FaultMatrix.Cell> cells = run("--brokers redis --faults broker-restart,partition,failover " + FLEET);
        assertEquals(3, cells.size());
        FaultMatrix.Cell restart = cells.get(0);
        FaultMatrix.Cell partition = cells.get(1);
        FaultMatrix.Cell failover = cells.get(2);
        // the master died and the replica was promoted while the fleet worked, and the fleet went on there
        assertTrue(failover.outage().toMillis() > 0 && failover.row().resumeMillis() >= 0,
                "no job was written after the failover: " + failover.line());
        // the partition outlasted the lease while w1 held a job: the reaper gave that job to another worker
        assertTrue(partition.row().reaped() >= 1 && partition.row().redelivered() >= 1,
                "the partitioned worker's job was not reaped and fetched again: the cut did not outlast the lease. "
                        + partition.line());
        // after the restart the fleet went on from what the AOF kept
        assertTrue(restart.row().resumeMillis() >= 0, "no job was written after the broker's restart: " + restart.line());
    }

    /** Every fault on every broker: the table examples/README.md quotes is the command's, this is its check. */
    @Test
    @Tag("proof")
    @Timeout(value = 40, unit = TimeUnit.MINUTES)
    void everyFaultOnEveryBrokerLosesNoJob() throws Exception {
        List<FaultMatrix.Cell> cells = run(FLEET);
        assertEquals(Transport.Kind.values().length * Fault.values().length, cells.size());
    }

    /** Runs the matrix and checks what every cell must show: each id has its outcome, none lost. */
    private static List<FaultMatrix.Cell> run(String args) throws Exception {
        FaultMatrix.Config config = FaultMatrix.Config.parse(args.split(" "));
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        List<FaultMatrix.Cell> cells = FaultMatrix.run(config, new PrintStream(progress, true, StandardCharsets.UTF_8));
        String table = FaultMatrix.table(config, cells);
        System.out.println(progress.toString(StandardCharsets.UTF_8));
        System.out.println(table);
        for (FaultMatrix.Cell cell : cells) {
            Row row = cell.row();
            String where = cell.broker().arg() + " " + cell.fault().label() + ": ";
            assertEquals(List.of(), row.lostIds(), where + "ids with no outcome in the sink or the dead letters\n" + table);
            assertEquals(config.fleet().jobs(), row.distinctResults() + row.deadLettered(),
                    where + "results + dead letters != jobs\n" + table);
            assertTrue(row.settleMillis() >= 0, where + "a job held when the fault began never had its outcome\n" + table);
            if (config.fleet().completions()) {
                // the results and the completion record go in one script, fenced by the claim's token
                assertEquals(0, row.processedTwice(), where + "ids whose results were written twice\n" + table);
            }
            assertTrue(progress.toString(StandardCharsets.UTF_8).contains(cell.broker().arg() + " " + cell.fault().label()
                    + ": " + switch (cell.fault()) {
                        case WORKER_KILL -> "SIGKILLed w";
                        case WORKER_TERM -> "SIGTERM to w";
                        case BROKER_RESTART -> "broker serving again";
                        case PARTITION, LOSSY_LINK -> "w1's link healed";
                        case FAILOVER -> "failed over: ";
                    }), where + "the fault was not done\n" + progress);
        }
        return cells;
    }
}
