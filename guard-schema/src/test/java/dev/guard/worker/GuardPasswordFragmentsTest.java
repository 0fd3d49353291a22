package dev.guard.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.guard.ExitCodes;
import dev.guard.config.SettingType;
import dev.guard.testing.FreePorts;
import dev.guard.testing.HardPasswords;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.Test;

/**
 * {@code Guard.start} prints no fragment of a password (issue 39): generated passwords with every
 * character that splits a URL ({@link HardPasswords}) in the worker's environment, stopped at the
 * config stage (loopback in a container, a raw '/' in the user info, a bad port) and at the
 * readiness stage (a closed port). Checked: the exception's message, what reached stdout and
 * stderr, and every {@code dev.guard} log line at DEBUG and above.
 */
class GuardPasswordFragmentsTest {

    static final long SEED = 39L;

    @Test
    void neitherTheConfigStageNorTheReadinessStagePrintsAFragment() {
        List<String> passwords = HardPasswords.generate(SEED, 40);
        int closed = FreePorts.next();
        StringWriter logs = new StringWriter();
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        WriterAppender appender = WriterAppender.newBuilder().setName("password-fragments").setTarget(logs)
                .setLayout(PatternLayout.newBuilder().withPattern("%level %logger %msg%n").build()).build();
        appender.start();
        config.addAppender(appender);
        LoggerConfig capture = new LoggerConfig("dev.guard", Level.DEBUG, true);
        capture.addAppender(appender, Level.DEBUG, null);
        config.addLogger("dev.guard", capture);
        ctx.updateLoggers();
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(console, true, StandardCharsets.UTF_8));
            for (String pw : passwords) {
                Map<String, String> configEnv = Map.of(
                        "REDIS_URL", "redis://app:" + pw + "@localhost:6379",
                        "DATABASE_URL", "postgres://app:" + pw + "@db:5432/app",
                        "AMQP_URL", "amqp://worker:" + pw + "@rabbit:99999/jobs",
                        "KUBERNETES_SERVICE_HOST", "10.96.0.1");
                GuardStopped c = assertThrows(GuardStopped.class, () -> Guard.start(GuardTest.spec(configEnv)
                        .require("REDIS_URL", SettingType.URL).require("DATABASE_URL", SettingType.URL)
                        .require("AMQP_URL", SettingType.URL).build()));
                assertEquals(ExitCodes.CONFIG, c.exitCode(), c.getMessage());
                assertNoFragment("Guard.start, config stage", pw, c.getMessage());

                Map<String, String> readyEnv = Map.of("REDIS_URL", "redis://app:" + pw + "@127.0.0.1:" + closed,
                        "GUARD_ALLOW_LOOPBACK", "true", "GUARD_TIMEOUT", "300ms");
                GuardStopped r = assertThrows(GuardStopped.class,
                        () -> Guard.start(GuardTest.spec(readyEnv).waitForEnv("REDIS_URL").build()));
                assertTrue(r.exitCode() == ExitCodes.UNAVAILABLE || r.exitCode() == ExitCodes.CONFIG, r.getMessage());
                assertNoFragment("Guard.start, " + r.stage() + " stage", pw, r.getMessage());
            }
        } finally {
            System.setOut(out);
            System.setErr(err);
            config.removeLogger("dev.guard");
            config.getRootLogger().removeAppender("password-fragments");
            ctx.updateLoggers();
            appender.stop();
        }
        String printed = console.toString(StandardCharsets.UTF_8) + logs;
        assertTrue(printed.contains("ReadinessGate") || printed.contains("malformed"), "guard printed nothing to check: " + printed);
        for (String pw : passwords) {
            assertNoFragment("console and log lines", pw, printed);
        }
    }

    private static void assertNoFragment(String where, String pw, String output) {
        if (HardPasswords.leak(output, pw) != null) {
            fail(HardPasswords.describe(where + " (seed " + SEED + ")", pw, output));
        }
    }
}
