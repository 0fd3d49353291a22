package dev.guard.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The config guard on settings nobody here wrote: real projects' shipped environments
 * (Mastodon's .env.production.sample, Airflow's and Confluent's Compose files; sources and
 * commits in each file's header under {@code src/test/resources/real-world-env/}), each setting
 * required with no declared type, as a new user would. Each row says what it must be checked as
 * and which rules it must break: a loopback or placeholder default is caught, a unix socket, a
 * listen address or a schema-registry URL is not a false alarm.
 */
class RealWorldEnvTest {

    static final List<String> FILES = List.of("mastodon-env-production-sample.tsv", "airflow-docker-compose.tsv",
            "confluent-cp-all-in-one.tsv");

    record Row(String file, int line, String name, String value, SettingType checkedAs, List<String> rules) {
        @Override
        public String toString() {
            return file + ":" + line + " " + name;
        }
    }

    static Stream<Row> rows() throws IOException {
        List<Row> out = new ArrayList<>();
        for (String f : FILES) {
            try (InputStream in = RealWorldEnvTest.class.getResourceAsStream("/real-world-env/" + f)) {
                assertTrue(in != null, "missing resource real-world-env/" + f);
                List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
                for (int i = 0; i < lines.size(); i++) {
                    String l = lines.get(i);
                    if (l.isBlank() || l.startsWith("#")) {
                        continue;
                    }
                    String[] c = l.split("\t", -1);
                    assertEquals(4, c.length, f + ":" + (i + 1) + " needs 4 tab-separated columns: " + l);
                    out.add(new Row(f, i + 1, c[0], c[1], SettingType.valueOf(c[2]),
                            c[3].equals("-") ? List.of() : List.of(c[3].split(","))));
                }
            }
        }
        assertTrue(out.size() > 60, "expected the three files' rows, found " + out.size());
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void checkedAsWhatItIs(Row row) {
        ConfigReport report = ConfigGuard.builder().environment(Map.of(row.name(), row.value())).inContainer(true)
                .requireEnv(row.name()).build().check();
        Setting setting = report.settings().get(0);
        assertEquals(row.checkedAs(), setting.type(), "checked as, because: " + setting.inferredBecause() + "\n" + report.render());
        assertTrue(setting.inferred(), report.render());
        assertEquals(row.rules(), report.errors().stream().map(v -> v.rule().name()).sorted().distinct().toList(),
                report.render());
        if (Redaction.isSecretName(row.name()) && !row.value().isEmpty()) {
            assertFalse(report.render().contains(row.value()), "a secret's value is printed:\n" + report.render());
        }
    }
}
