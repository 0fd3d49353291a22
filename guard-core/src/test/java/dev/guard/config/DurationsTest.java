package dev.guard.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** guard's one duration rule, as one table: every duration setting reads its text through {@link Durations#parse}. */
class DurationsTest {

    @ParameterizedTest(name = "''{0}'' = {1} ms")
    @CsvSource(delimiter = '|', value = {
        "5        | 5000",     // a bare number is seconds (wait-for-it -t 15, terminationGracePeriodSeconds)
        "0        | 0",
        "30       | 30000",
        "1.5      | 1500",
        " 60      | 60000",
        "500ms    | 500",
        "500 ms   | 500",
        "30s      | 30000",
        "30 seconds | 30000",
        "2m       | 120000",
        "1h       | 3600000",
        "1d       | 86400000",
        "250000us | 250",
        "PT10S    | 10000",
        "pt1m30s  | 90000",
        "P1D      | 86400000",
    })
    void accepted(String text, long millis) {
        assertEquals(Duration.ofMillis(millis), Durations.parse(text));
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
        "soon      | 'soon' is not a duration: write seconds (30), a number with a unit (500ms, 30s, 2m, 1h) or ISO-8601 (PT30S)",
        "10 parsecs | '10 parsecs' is not a duration: write seconds (30), a number with a unit (500ms, 30s, 2m, 1h) or ISO-8601 (PT30S)",
        "-5       | '-5' is negative: a duration must be zero or more",
        "-5s      | '-5s' is negative: a duration must be zero or more",
        "-PT5S    | '-PT5S' is negative: a duration must be zero or more",
        "5 5      | '5 5' is not a duration: write seconds (30), a number with a unit (500ms, 30s, 2m, 1h) or ISO-8601 (PT30S)",
        "PT       | 'PT' is not a duration: write seconds (30), a number with a unit (500ms, 30s, 2m, 1h) or ISO-8601 (PT30S)",
        "1e3      | '1e3' is not a duration: write seconds (30), a number with a unit (500ms, 30s, 2m, 1h) or ISO-8601 (PT30S)",
    })
    void refused(String text, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> Durations.parse(text)).getMessage());
    }

    @Test
    void emptyIsRefused() {
        assertEquals("an empty value is not a duration: write seconds (30), a number with a unit (500ms, 30s, 2m, 1h) or ISO-8601 (PT30S)",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse("  ")).getMessage());
    }

    /** In HOCON a bare number is a NUMBER value: still seconds, where typesafe-config's getDuration reads milliseconds. */
    @Test
    void hoconNumbersAreSecondsToo() {
        var c = ConfigFactory.parseString("a = 5\nb = 1.5\nc = 500ms\nd = \"2m\"\ne = [1]\nf { x = 1 }\n");
        assertEquals(Duration.ofMillis(5), c.getDuration("a"), "typesafe-config's own rule, which guard does not follow");
        assertEquals(Duration.ofSeconds(5), Durations.fromConfig(c, "a"));
        assertEquals(Duration.ofMillis(1500), Durations.fromConfig(c, "b"));
        assertEquals(Duration.ofMillis(500), Durations.fromConfig(c, "c"));
        assertEquals(Duration.ofMinutes(2), Durations.fromConfig(c, "d"));
        assertEquals("a list is not a duration: write seconds (30), a number with a unit (500ms, 30s, 2m, 1h) or ISO-8601 (PT30S)",
                assertThrows(IllegalArgumentException.class, () -> Durations.fromConfig(c, "e")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Durations.fromConfig(c, "f"));
    }
}
