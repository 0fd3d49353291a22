package dev.guard;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPLoggerFactory;

/**
 * The logger every guard class writes through: SLF4J's, when a provider is bound; otherwise one
 * that writes INFO, WARN and ERROR to stderr itself.
 *
 * <p>Without a provider SLF4J falls back to its no-op logger, and a rejected job, a dead letter,
 * a drain receipt or a ledger would then print nothing at all: guard's warnings would depend on a
 * dependency nobody mentioned. So guard's own lines never go through the no-op logger. The first
 * such line is preceded by one line saying how to bind a provider; DEBUG and TRACE stay off.
 * Lines look like slf4j-simple's with a UTC time in front:
 * {@code 2026-12-06T21:50:01.123Z [main] WARN dev.guard.drain.DrainLoop - ...}.
 */
public final class GuardLog {

    /** Printed once, before the first line guard writes itself. */
    static final String NO_PROVIDER = "guard: no SLF4J provider is bound, so SLF4J would drop every log line;"
            + " guard writes its own INFO, WARN and ERROR lines to stderr. To send them where your other logs go,"
            + " add a provider to the class path: org.slf4j:slf4j-simple, ch.qos.logback:logback-classic or"
            + " org.apache.logging.log4j:log4j-slf4j2-impl";

    private static final AtomicBoolean TOLD = new AtomicBoolean();
    private static final Object LOCK = new Object();

    private GuardLog() {}

    /** SLF4J's logger for {@code type} when a provider is bound, else guard's stderr logger. */
    public static Logger logger(Class<?> type) {
        return bound() ? LoggerFactory.getLogger(type) : new Stderr(type.getName(), System.err);
    }

    /** SLF4J's logger named {@code name} when a provider is bound, else guard's stderr logger. */
    public static Logger logger(String name) {
        return bound() ? LoggerFactory.getLogger(name) : new Stderr(name, System.err);
    }

    /** True when SLF4J found a provider (its factory is not the no-op fallback). */
    public static boolean bound() {
        return !(LoggerFactory.getILoggerFactory() instanceof NOPLoggerFactory);
    }

    /** Writes to a stream it is given (stderr in use; a buffer in tests). Package-private for them. */
    static final class Stderr extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;
        private final transient PrintStream out;

        Stderr(String name, PrintStream out) {
            this.name = name;
            this.out = out;
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
                Throwable throwable) {
            StringBuilder line = new StringBuilder(160);
            line.append(Instant.now()).append(" [").append(Thread.currentThread().getName()).append("] ")
                    .append(level).append(' ').append(name).append(" - ")
                    .append(MessageFormatter.basicArrayFormat(messagePattern, arguments));
            if (throwable != null) {
                StringWriter trace = new StringWriter();
                throwable.printStackTrace(new PrintWriter(trace));
                line.append(System.lineSeparator()).append(trace.toString().stripTrailing());
            }
            synchronized (LOCK) {
                if (TOLD.compareAndSet(false, true)) {
                    out.println(NO_PROVIDER);
                }
                out.println(line);
                out.flush();
            }
        }

        @Override
        public boolean isTraceEnabled() {
            return false;
        }

        @Override
        public boolean isDebugEnabled() {
            return false;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }
    }
}
