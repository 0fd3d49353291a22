package dev.guard.init.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.JavaMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * diagnose reads a capture far larger than its heap: a 48 MB compose capture (about 500,000 lines)
 * through the CLI in a child JVM with the image's heap and compiler flags. Before the reader
 * streamed, a 30 MB log ended in OutOfMemoryError there. Speed is measured by {@link DiagnoseBench},
 * not here.
 */
class DiagnoseMemoryTest {
    @Test
    void theBenchRunsTheImagesOwnFlags() throws Exception {
        String script = Files.readString(Path.of("src/image/build-image.sh"));
        int from = script.indexOf("jvm_flags=(");
        String flags = script.substring(from, script.indexOf(')', from));
        List<String> inScript = java.util.Arrays.stream(flags.substring("jvm_flags=(".length()).split("\\s+"))
                .filter(f -> f.startsWith("-X")).toList();
        assertEquals(inScript, DiagnoseBench.IMAGE_JVM, "the entrypoint's -X flags, in order");
    }

    @Test
    void aCaptureLargerThanTheHeapIsDiagnosedInTheImagesHeap(@TempDir Path dir) throws Exception {
        Path capture = dir.resolve("compose.log");
        long size = DiagnoseBench.write(capture, 48L * 1024 * 1024);
        assertTrue(size > 48L * 1024 * 1024, "wrote " + size);
        String out = JavaMain.run(DiagnoseBench.IMAGE_JVM, "dev.guard.init.GuardInit", "diagnose", "--endpoint", "redis:6379",
                capture.toString());
        assertTrue(out.startsWith("cause: startup-race\n"), out);
        long jobs = Files.lines(capture).filter(l -> l.endsWith(" received")).count();
        assertTrue(out.contains("jobs: received " + jobs + ", processed " + jobs), "expected " + jobs + " jobs:\n" + out);
    }
}
