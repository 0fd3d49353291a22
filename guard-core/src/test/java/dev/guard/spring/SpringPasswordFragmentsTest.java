package dev.guard.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.guard.testing.HardPasswords;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * The Spring Boot path prints no fragment of a password (issue 39): generated passwords with every
 * character that splits a URL ({@link HardPasswords}) in {@code SPRING_DATA_REDIS_URL} (loopback
 * in a container) and {@code SPRING_RABBITMQ_ADDRESSES} stop the start; neither guard's exception
 * nor its FailureAnalyzer's description and action quote any 4-character substring.
 */
class SpringPasswordFragmentsTest {

    static final long SEED = 39L;

    private static final String YAML = """
            guard:
              brokers: redis, rabbitmq
              wait:
                enabled: false
            """;

    private static int closedPort() {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theFailureAnalysisQuotesNoFragment() {
        int closed = closedPort();   // nothing answers there: the loopback refusal is an error, whatever this machine runs
        for (String pw : HardPasswords.generate(SEED, 12)) {
            Map<String, String> env = Map.of("SPRING_DATA_REDIS_URL", "redis://app:" + pw + "@localhost:" + closed,
                    "SPRING_RABBITMQ_ADDRESSES", "worker:" + pw + "@rabbit:5672", "KUBERNETES_SERVICE_HOST", "10.0.0.1");
            GuardStartupException e = assertThrows(GuardStartupException.class, () -> SpringApps.run(env, YAML, List.of()).close());
            assertEquals(78, e.getExitCode());
            FailureAnalysis analysis = new GuardFailureAnalyzer().analyze(e);
            assertNotNull(analysis, "the FailureAnalyzer did not take guard's exception");
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            String all = analysis.getDescription() + "\n" + analysis.getAction() + "\n" + e.getMessage() + "\n" + trace;
            assertTrue(all.contains("spring.data.redis"), all);
            if (HardPasswords.leak(all, pw) != null) {
                fail(HardPasswords.describe("Spring failure analysis (seed " + SEED + ")", pw, all));
            }
        }
    }
}
