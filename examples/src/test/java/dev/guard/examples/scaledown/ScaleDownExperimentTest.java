package dev.guard.examples.scaledown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scale-down experiment, small: real worker JVMs, real SIGTERM/SIGKILL, a private
 * redis-server. Loss must show without SIGTERM handling and vanish with hand-back and with
 * crash-safe fetch; the sink counts every id once however often it ran.
 */
class ScaleDownExperimentTest {

    @Test
    void lossShowsWithoutHandlingAndVanishesWithFallbackAndCrashSafeFetch() throws Exception {
        ExperimentConfig config = ExperimentConfig.builder().jobs(1500).workers(6).events(2).perEvent(2)
                .workDir(System.getProperty("guard.build.dir", "target") + "/scaledown-test").build();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        List<Row> rows = Experiment.run(config, new PrintStream(progress, true, StandardCharsets.UTF_8));
        String table = Experiment.table(config, rows);
        System.out.println(progress.toString(StandardCharsets.UTF_8));
        System.out.println(table);

        assertEquals(4, rows.size(), table);
        for (Row r : rows) {
            assertEquals(4, r.terminated(), r.mode() + " terminated\n" + table);
            // reconciled by id: every id is in the sink once, dead-lettered, or lost; never counted twice
            assertEquals(config.jobs(), r.distinctResults() + r.deadLettered() + r.lost(), r.mode() + "\n" + table);
        }
        Row none = rows.get(0);
        Row fallback = rows.get(2);
        Row crashSafe = rows.get(3);
        assertEquals(Mode.NONE, none.mode());
        assertTrue(none.lost() > 0, "a worker without SIGTERM handling killed mid-job must lose it; table:\n" + table);
        assertEquals(List.of(), fallback.lostIds(), "graceful + fallback must lose nothing; table:\n" + table);
        assertEquals(List.of(), crashSafe.lostIds(), "crash-safe fetch must lose nothing to SIGKILL; table:\n" + table);
        assertTrue(crashSafe.reaped() > 0, "SIGKILLed crash-safe workers held jobs that the reaper must return; table:\n"
                + table);
        assertEquals(0, crashSafe.deadLettered(), table);
    }
}
