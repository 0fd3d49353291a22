package dev.guard.init.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.init.GuardInit;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every directory under {@code src/test/resources/diagnose/} is a captured incident: the files,
 * an {@code expected} cause line, optional {@code args} (one per line) and {@code SOURCES.md}
 * saying where each text came from. diagnose must print the expected line first, through the CLI.
 */
class DiagnoseScenariosTest {
    private static final Set<String> NOT_INPUT = Set.of("expected", "args", "SOURCES.md");

    static Path root() {
        return resourceFolder("/diagnose");
    }

    static Stream<String> scenarios() throws IOException {
        return folders(root());
    }

    /** A folder of the test resources, e.g. {@code /diagnose}. */
    static Path resourceFolder(String name) {
        try {
            return Path.of(DiagnoseScenariosTest.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The scenario folders under {@code root}, by name. */
    static Stream<String> folders(Path root) throws IOException {
        try (Stream<Path> dirs = Files.list(root)) {
            return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    /** Runs {@code guard-init diagnose} on one scenario directory; returns exit code, stdout, stderr. */
    static String[] run(Path dir, String... extra) throws IOException {
        List<String> args = new ArrayList<>();
        args.add("diagnose");
        Path argsFile = dir.resolve("args");
        if (Files.exists(argsFile)) {
            for (String a : Files.readAllLines(argsFile)) {
                if (!a.isBlank()) {
                    args.add(a.trim());
                }
            }
        }
        args.addAll(List.of(extra));
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(f -> !NOT_INPUT.contains(f.getFileName().toString())).sorted()
                    .forEach(f -> args.add(f.toString()));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = GuardInit.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void namesTheExpectedCause(String scenario) throws IOException {
        Path dir = root().resolve(scenario);
        String expected = Files.readString(dir.resolve("expected"), StandardCharsets.UTF_8).strip();
        String[] r = run(dir);
        String firstLine = r[1].lines().findFirst().orElse("");
        assertEquals(expected, firstLine, () -> scenario + ": diagnose said\n" + r[1] + "\nstderr:\n" + r[2]);
        int expectedCode = expected.equals("cause: unknown") ? 1 : 0;
        assertEquals(expectedCode, Integer.parseInt(r[0]), () -> scenario + ": exit code; stderr:\n" + r[2]);
        assertTrue(r[1].contains(" (connectivity, then config, then contract):"), r[1]);
        assertTrue(Files.exists(dir.resolve("SOURCES.md")), scenario + " must say where its texts came from in SOURCES.md");
    }

    @Test
    void atLeastThirtyScenariosAcrossFourBrokersAndBothPlatforms() throws IOException {
        List<String> all = scenarios().toList();
        assertTrue(all.size() >= 30, "only " + all.size() + " scenarios");
        for (String platform : List.of("compose-", "k8s-")) {
            assertTrue(all.stream().anyMatch(s -> s.startsWith(platform)), "no scenario for " + platform);
        }
        for (String broker : List.of("redis", "amqp|pika|rabbitmq", "nats", "kafka")) {
            assertTrue(all.stream().anyMatch(s -> s.matches(".*(" + broker + ").*")), "no scenario for " + broker);
        }
    }
}
