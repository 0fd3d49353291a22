package dev.guard.init;

import dev.guard.testing.PackageCycles;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** guard-init's packages depend on each other in one direction. */
class PackageCyclesTest {

    @Test
    void noPackageCycles() {
        PackageCycles.assertOnly(Set.of()); // none
    }
}
