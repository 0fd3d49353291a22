package dev.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class GuardLogTest {

    /** What the child JVM runs: guard's logger with nothing but slf4j-api beside guard-core. */
    public static final class Main {
        public static void main(String[] args) {
            Logger log = GuardLog.logger(Main.class);
            log.debug("not shown: debug");
            log.info("receipt: received={} processed={}", 3, 2);
            log.warn("dead-lettered job {}", "j-1", new IllegalStateException("boom"));
            log.error("stopping");
            System.out.println("bound=" + GuardLog.bound());
        }
    }

    @Test
    void withoutAProviderGuardsLinesGoToStderrAfterOneLineSayingHowToBindOne() throws Exception {
        String slf4jApi = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(p -> p.contains("slf4j-api")).findFirst().orElseThrow();
        String cp = String.join(File.pathSeparator, "target/classes", "target/test-classes", slf4jApi);
        Process p = new ProcessBuilder(System.getProperty("java.home") + "/bin/java", "-cp", cp, Main.class.getName())
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), err);
        assertTrue(out.contains("bound=false"), out);
        List<String> lines = err.lines().collect(Collectors.toList());
        assertEquals(1, lines.stream().filter(GuardLog.NO_PROVIDER::equals).count(), err);
        assertTrue(lines.stream().anyMatch(l -> l.matches("\\S+Z \\[main] INFO dev\\.guard\\.GuardLogTest\\$Main - receipt: received=3 processed=2")), err);
        assertTrue(lines.stream().anyMatch(l -> l.endsWith("WARN dev.guard.GuardLogTest$Main - dead-lettered job j-1")), err);
        assertTrue(err.contains("java.lang.IllegalStateException: boom"), err);
        assertTrue(lines.stream().anyMatch(l -> l.endsWith("ERROR dev.guard.GuardLogTest$Main - stopping")), err);
        assertTrue(!err.contains("not shown"), err);
        assertTrue(err.indexOf(GuardLog.NO_PROVIDER) < err.indexOf("receipt:"), err);
    }

    @Test
    void withAProviderItIsSlf4jsOwnLogger() {
        assertTrue(GuardLog.bound(), "this module's tests bind log4j");
        assertTrue(!(GuardLog.logger(GuardLogTest.class) instanceof GuardLog.Stderr));
    }

    @Test
    void theStderrLoggerFormatsArgumentsLikeSlf4j() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Logger log = new GuardLog.Stderr("x.Y", new PrintStream(buf, true, StandardCharsets.UTF_8));
        log.info("{} of {} {}", 1, 2);
        log.warn("plain {}", new Object[] {null});
        String text = buf.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("INFO x.Y - 1 of 2 {}"), text);
        assertTrue(text.contains("WARN x.Y - plain null"), text);
    }
}
