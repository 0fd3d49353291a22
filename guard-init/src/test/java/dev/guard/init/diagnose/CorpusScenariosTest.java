package dev.guard.init.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The corpus made from real runs: every folder under {@code src/test/resources/diagnose-corpus/}
 * holds what a real client of one version (Maven Central or Debian) logged against a real fault
 * in a network namespace, captured by {@code guard-init/src/test/corpus/capture-all.sh}, with the
 * cause that really happened in {@code expected}. Nobody here wrote those texts; diagnose must
 * name each one right.
 */
class CorpusScenariosTest {
    private static final Pattern CLIENT = Pattern.compile("(?m)^- client: (\\S+)");
    private static final Pattern VERSION = Pattern.compile("(?m)^- version: (\\S+)");

    static Path root() {
        return DiagnoseScenariosTest.resourceFolder("/diagnose-corpus");
    }

    static Stream<String> scenarios() throws IOException {
        return DiagnoseScenariosTest.folders(root());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void namesWhatReallyHappened(String scenario) throws IOException {
        Path dir = root().resolve(scenario);
        String expected = Files.readString(dir.resolve("expected"), StandardCharsets.UTF_8).strip();
        String[] r = DiagnoseScenariosTest.run(dir);
        String firstLine = r[1].lines().findFirst().orElse("");
        assertEquals(expected, firstLine, () -> scenario + ": diagnose said\n" + r[1] + "\nstderr:\n" + r[2]);
        assertTrue(r[1].contains("evidence:") && r[1].contains("next, in fix order"), () -> scenario + ": no evidence or "
                + "next step:\n" + r[1]);
        String sources = Files.readString(dir.resolve("SOURCES.md"), StandardCharsets.UTF_8);
        assertTrue(CLIENT.matcher(sources).find() && VERSION.matcher(sources).find(),
                scenario + ": SOURCES.md must name the client and its version");
    }

    @Test
    void theCorpusCoversSeveralVersionsOfEachClientFamily() throws IOException {
        Map<String, TreeSet<String>> versions = new TreeMap<>();
        for (String s : scenarios().toList()) {
            String sources = Files.readString(root().resolve(s).resolve("SOURCES.md"), StandardCharsets.UTF_8);
            Matcher c = CLIENT.matcher(sources);
            Matcher v = VERSION.matcher(sources);
            if (c.find() && v.find()) {
                versions.computeIfAbsent(c.group(1), k -> new TreeSet<>()).add(v.group(1));
            }
        }
        for (String family : List.of("jedis", "lettuce", "kafka-clients", "amqp-client", "jnats", "redis-py", "pika",
                "kafka-python")) {
            assertTrue(versions.containsKey(family), "no corpus scenario from " + family + ": " + versions);
        }
        for (String multi : List.of("jedis", "lettuce", "kafka-clients", "amqp-client", "jnats")) {
            assertTrue(versions.get(multi).size() >= 2, multi + " is checked in one version only: " + versions.get(multi));
        }
    }
}
