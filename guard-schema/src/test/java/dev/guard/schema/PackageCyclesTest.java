package dev.guard.schema;

import dev.guard.testing.PackageCycles;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** guard-schema: the boundary uses the dead-letter sinks, never the other way; only the API and its internal implementation refer to each other. */
class PackageCyclesTest {

    @Test
    void theOnlyPackageCyclesAreTheAcceptedOnes() {
        Set<Set<String>> accepted = Set.of(
                // Schemas compiles with internal.SchemaCompiler, which speaks the API's Draft, Malformed and SchemaViolation
                Set.of("dev.guard.schema", "dev.guard.schema.internal"));
        PackageCycles.assertOnly(accepted);
    }
}
