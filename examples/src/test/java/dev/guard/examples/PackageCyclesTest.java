package dev.guard.examples;

import dev.guard.testing.PackageCycles;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The examples: the stack uses the cold-start harness, the harness does not know the stack. */
class PackageCyclesTest {

  @Test
  void noPackageCycles() {
    PackageCycles.assertOnly(Set.of()); // none
  }
}
