package dev.guard.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.guard.testing.PackageCycles;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The examples: the stack uses the cold-start harness, the harness does not know the stack. */
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
