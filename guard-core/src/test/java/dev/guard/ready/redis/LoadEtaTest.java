package dev.guard.ready.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The end of a load estimated from INFO persistence samples. The field names and their meaning are
 * Redis 7.0's ({@code genRedisInfoString} in server.c, shown while {@code loading:1}); the values
 * here are made up, at clock times chosen by the test.
 */
class LoadEtaTest {

    private static final long MS = 1_000_000L;

    static String info(long startTime, long loaded, long total, long etaSeconds) {
        return "# Persistence\r\nloading:1\r\nasync_loading:0\r\nloading_start_time:" + startTime
                + "\r\nloading_total_bytes:" + total + "\r\nloading_rdb_used_mem:1000\r\nloading_loaded_bytes:" + loaded
                + "\r\nloading_loaded_perc:" + String.format(java.util.Locale.ROOT, "%.2f", 100.0 * loaded / total)
                + "\r\nloading_eta_seconds:" + etaSeconds + "\r\nrdb_changes_since_last_save:0\r\n";
    }

    @Test
    void theRateBetweenSamplesGivesTheRestOfTheFileInTime() {
        LoadEta eta = new LoadEta();
        // 1,000,000 bytes a second: 4 MB read, 6 MB left after 4 s
        assertEquals(Duration.ofSeconds(6), eta.update(info(1000, 4_000_000, 10_000_000, 6), 0));
        assertEquals(Duration.ofMillis(5_900), eta.update(info(1000, 4_100_000, 10_000_000, 5), 100 * MS));
        assertEquals(Duration.ofMillis(1_000), eta.update(info(1000, 9_000_000, 10_000_000, 1), 5_000 * MS));
    }

    @Test
    void oneSampleUsesRedisWholeSecondsOnlyWhenTheyAreAtLeastTwo() {
        assertEquals(Duration.ofSeconds(7), new LoadEta().update(info(1000, 1_000_000, 10_000_000, 7), 0));
        assertNull(new LoadEta().update(info(1000, 1_000_000, 10_000_000, 1), 0), "1 s is too coarse to pace by");
    }

    @Test
    void aSpeedChangeIsFollowedWithinTheWindow() {
        LoadEta eta = new LoadEta();
        eta.update(info(1000, 0, 100_000_000, 99), 0);
        eta.update(info(1000, 1_000_000, 100_000_000, 99), 1_000 * MS); // 1 MB/s
        // from 3 s on, 10 MB/s: samples older than the window no longer count
        eta.update(info(1000, 3_000_000, 100_000_000, 49), 3_000 * MS);
        eta.update(info(1000, 23_000_000, 100_000_000, 4), 5_000 * MS);
        Duration d = eta.update(info(1000, 33_000_000, 100_000_000, 3), 6_000 * MS);
        assertEquals(Duration.ofMillis(6_700), d, "67 MB left at the rate of the last 2 s, 10 MB/s");
    }

    @Test
    void aFullyReadFileIsDueNowAndVoidOnceOverdue() {
        LoadEta eta = new LoadEta();
        eta.update(info(1000, 9_000_000, 10_000_000, 1), 0);
        assertEquals(Duration.ofMillis(100), eta.update(info(1000, 9_900_000, 10_000_000, 0), 900 * MS));
        assertEquals(Duration.ZERO, eta.update(info(1000, 10_000_000, 10_000_000, 0), 1_000 * MS));
        assertEquals(Duration.ZERO, eta.update(info(1000, 10_000_000, 10_000_000, 0), 1_000 * MS + LoadEta.OVERDUE.toNanos()));
        assertNull(eta.update(info(1000, 10_000_000, 10_000_000, 0), 1_001 * MS + LoadEta.OVERDUE.toNanos()),
                "still loading long after the predicted end: no estimate, the gate's backoff applies");
    }

    @Test
    void anotherLoadStartsOverAndTextWithoutProgressGivesNothing() {
        LoadEta eta = new LoadEta();
        eta.update(info(1000, 0, 10_000_000, 9), 0);
        eta.update(info(1000, 5_000_000, 10_000_000, 1), 1_000 * MS);
        // a restart: another start time, the new load is slower; one sample, Redis's own 4 s
        assertEquals(Duration.ofSeconds(4), eta.update(info(1010, 1_000_000, 10_000_000, 4), 2_000 * MS));
        assertNull(eta.update("# Persistence\r\nloading:1\r\n", 3_000 * MS));
        assertNull(eta.update((String) null, 3_000 * MS));
    }
}
