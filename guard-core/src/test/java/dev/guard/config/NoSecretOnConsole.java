package dev.guard.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class if the test password reached stdout, stderr or any {@code dev.guard} log line
 * (captured at INFO and above) while the class ran. Console output is still passed through.
 */
public final class NoSecretOnConsole implements BeforeAllCallback, AfterAllCallback {

    /** The password every config test uses; it must never be printed. */
    public static final String TEST_PASSWORD = "s3cr3t-test-pw";

    private static final String LOGGER = "dev.guard";

    private PrintStream originalOut;
    private PrintStream originalErr;
    private ByteArrayOutputStream console;
    private StringWriter logs;
    private WriterAppender appender;
    private LoggerConfig previous;

    @Override
    public void beforeAll(ExtensionContext context) {
        originalOut = System.out;
        originalErr = System.err;
        console = new ByteArrayOutputStream();
        System.setOut(new PrintStream(new Tee(originalOut, console), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new Tee(originalErr, console), true, StandardCharsets.UTF_8));

        logs = new StringWriter();
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        appender = WriterAppender.newBuilder().setName("no-secret-" + context.getRequiredTestClass().getSimpleName())
                .setTarget(logs).setLayout(PatternLayout.newBuilder().withPattern("%level %logger %msg%n").build()).build();
        appender.start();
        config.addAppender(appender);
        previous = config.getLoggers().get(LOGGER);
        LoggerConfig capture = new LoggerConfig(LOGGER, Level.INFO, false);
        capture.addAppender(appender, Level.INFO, null);
        config.addLogger(LOGGER, capture);
        ctx.updateLoggers();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        System.out.flush();
        System.err.flush();
        System.setOut(originalOut);
        System.setErr(originalErr);
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        config.removeLogger(LOGGER);
        if (previous != null) {
            config.addLogger(LOGGER, previous);
        }
        ctx.updateLoggers();
        appender.stop();
        String out = console.toString(StandardCharsets.UTF_8);
        assertFalse(out.contains(TEST_PASSWORD), "the test password was written to stdout/stderr by "
                + context.getRequiredTestClass().getSimpleName());
        assertFalse(logs.toString().contains(TEST_PASSWORD), "the test password was logged by "
                + context.getRequiredTestClass().getSimpleName() + ":\n" + logs);
    }

    /** What {@code dev.guard} logged so far in this class (for tests that assert the boot report lines). */
    String logged() {
        return logs.toString();
    }

    /** Asserts the capture works: a line logged now is seen. */
    void selfCheck() {
        LogManager.getLogger(LOGGER + ".selfcheck").info("capture check");
        assertTrue(logs.toString().contains("capture check"), "log capture is not attached");
    }

    private static final class Tee extends OutputStream {
        private final OutputStream a;
        private final ByteArrayOutputStream b;

        Tee(OutputStream a, ByteArrayOutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int c) {
            try {
                a.write(c);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            synchronized (b) {
                b.write(c);
            }
        }

        @Override
        public void write(byte[] buf, int off, int len) {
            try {
                a.write(buf, off, len);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            synchronized (b) {
                b.write(buf, off, len);
            }
        }

        @Override
        public void flush() throws java.io.IOException {
            a.flush();
        }
    }
}
