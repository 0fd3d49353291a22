package dev.guard.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The repository the tests run in: its root, and the scripts in it the engine tests need. */
public final class Checkout {
    /** Hang guard for building the stand-in images (seconds when they are up to date, a minute when not). */
    static final Duration STANDINS_BOUND = Duration.ofMinutes(10);

    private Checkout() {}

    /** The repository root: above guard.build.dir (else the working dir), the first directory with pom.xml, compose/ and guard-init/. */
    public static Path root() {
        String build = System.getProperty("guard.build.dir");
        Path start = build != null ? Path.of(build).toAbsolutePath() : Path.of("").toAbsolutePath();
        for (Path p = start; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("compose")) && Files.isRegularFile(p.resolve("pom.xml"))
                    && Files.isDirectory(p.resolve("guard-init"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find the repository root (a directory with pom.xml, compose/ and guard-init/) "
                + "above " + start + ": run the tests from the repository through Maven");
    }

    /**
     * Runs compose/standins/build.sh for {@code images} (none: all it knows): the server images the
     * Compose file and the container fixtures name, built from this machine's packages where none
     * can be pulled. Throws an AssertionError with the script's output when it fails.
     */
    public static void buildStandIns(String... images) throws Exception {
        Path script = root().resolve("compose/standins/build.sh");
        List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
        cmd.addAll(List.of(images));
        BoundedRun.Result r = BoundedRun.run(cmd, STANDINS_BOUND);
        if (r.exit() != 0) {
            throw new AssertionError(String.join(" ", cmd) + " failed (exit " + r.exit() + "): " + r.output());
        }
    }
}
