package dev.guard.init;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.guard.testing.PackageCycles;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** guard-init's packages depend on each other in one direction. */
class PackageCyclesTest {

    @Test
    void theOnlyPackageCyclesAreTheAcceptedOnes() {
        PackageCycles found = PackageCycles.of("dev.guard", Path.of("target/classes"));
        Set<Set<String>> accepted = Set.of(); // none
        Set<Set<String>> cycles = found.cycles();
        assertEquals(accepted, cycles, () -> "package cycles changed; the classes that close each one:\n"
                + cycles.stream().map(c -> c + ":\n  " + found.explain(c)).collect(Collectors.joining("\n")));
    }
}
