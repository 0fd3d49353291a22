package dev.guard.init.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One command run to its exit for a bench, timed from outside: its wall time, its peak RSS
 * ({@code /usr/bin/time -f %M}, when installed) and what it printed. Shared by the benches that
 * time whole processes ({@link CliStartBench}, {@code DiagnoseBench image}).
 */
public final class ChildRun {
    private ChildRun() {}

    /**
     * @param wallNanos from start to exit
     * @param peakKib the peak RSS in KiB, 0 when not measured
     * @param exit the exit code
     * @param out stdout and stderr together
     */
    public record Result(long wallNanos, long peakKib, int exit, String out) {}

    /** True when {@code /usr/bin/time} is there to read the peak RSS. */
    public static boolean timeInstalled() {
        return Files.isExecutable(Path.of("/usr/bin/time"));
    }

    /** Runs {@code command}; with {@code time}, under {@code /usr/bin/time} for its peak RSS. Its output goes to a file, not a pipe. */
    public static Result run(List<String> command, boolean time) throws IOException, InterruptedException {
        Path rssFile = Files.createTempFile("guard-bench", ".rss");
        Path out = Files.createTempFile("guard-bench", ".out");
        List<String> cmd = new ArrayList<>();
        if (time) {
            cmd.addAll(List.of("/usr/bin/time", "-o", rssFile.toString(), "-f", "%M"));
        }
        cmd.addAll(command);
        try {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            int code = p.waitFor();
            long wall = System.nanoTime() - t0;
            long kib = time ? Long.parseLong(Files.readString(rssFile).trim().lines().reduce((a, b) -> b).orElse("0")) : 0;
            return new Result(wall, kib, code, Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(rssFile);
            Files.deleteIfExists(out);
        }
    }

    /** The median of {@code values} (not changed). */
    public static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
