package dev.guard.init.diagnose;

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
    /** The image's entrypoint flags that bound memory (guard-init/src/image/build-image.sh). */
    static final List<String> IMAGE_JVM = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss256k", "-Xms8m",
            "-Xmx64m", "-XX:MaxMetaspaceSize=96m", "-XX:+ExitOnOutOfMemoryError");

    @Test
    void aCaptureLargerThanTheHeapIsDiagnosedInTheImagesHeap(@TempDir Path dir) throws Exception {
        Path capture = dir.resolve("compose.log");
        long size = DiagnoseBench.write(capture, 48L * 1024 * 1024);
        assertTrue(size > 48L * 1024 * 1024, "wrote " + size);
        String out = JavaMain.run(IMAGE_JVM, "dev.guard.init.GuardInit", "diagnose", "--endpoint", "redis:6379",
                capture.toString());
        assertTrue(out.startsWith("cause: startup-race\n"), out);
        long jobs = Files.lines(capture).filter(l -> l.endsWith(" received")).count();
        assertTrue(out.contains("jobs: received " + jobs + ", processed " + jobs), "expected " + jobs + " jobs:\n" + out);
    }
}
