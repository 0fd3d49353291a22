package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a main class of a test classpath in a child JVM, for checks that need a fresh JVM (a hosts file, an environment). */
public final class JavaMain {

    private JavaMain() {}

    /** Runs {@code mainClass} on this JVM's class path; returns its stdout, fails on a non-zero exit. */
    public static String run(List<String> jvmArgs, String mainClass, String... args) throws IOException, InterruptedException {
        return run(jvmArgs, System.getProperty("java.class.path"), Map.of(), mainClass, args);
    }

    /** As {@link #run(List, String, String...)} with a class path and environment changes (a {@code null} value removes a variable). */
    public static String run(List<String> jvmArgs, String classPath, Map<String, String> env, String mainClass,
                             String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        for (var e : env.entrySet()) {
            if (e.getValue() == null) {
                pb.environment().remove(e.getKey());
            } else {
                pb.environment().put(e.getKey(), e.getValue());
            }
        }
        // stderr to a file, so a chatty child cannot fill a pipe nobody reads
        Path err = Files.createTempFile("guard-child-", ".err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        try {
            byte[] stdout = p.getInputStream().readAllBytes();
            assertTrue(p.waitFor(Patience.PROCESS.toSeconds(), TimeUnit.SECONDS), "child JVM " + mainClass + " did not exit");
            assertEquals(0, p.exitValue(), "child JVM " + mainClass + " failed: " + Files.readString(err, StandardCharsets.UTF_8));
            return new String(stdout, StandardCharsets.UTF_8);
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(err);
        }
    }
}
