package dev.guard.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.guard.testing.PackageCycles;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** guard-schema: the boundary uses the dead-letter sinks, never the other way; only the API and its internal implementation refer to each other. */
class PackageCyclesTest {

    @Test
    void theOnlyPackageCyclesAreTheAcceptedOnes() {
        PackageCycles found = PackageCycles.of("dev.guard", Path.of("target/classes"));
        Set<Set<String>> accepted = Set.of(
                // Schemas compiles with internal.SchemaCompiler, which speaks the API's Draft, Malformed and SchemaViolation
                Set.of("dev.guard.schema", "dev.guard.schema.internal"));
        Set<Set<String>> cycles = found.cycles();
        assertEquals(accepted, cycles, () -> "package cycles changed; the classes that close each one:\n"
                + cycles.stream().map(c -> c + ":\n  " + found.explain(c)).collect(Collectors.joining("\n")));
    }
}
