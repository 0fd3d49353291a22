package dev.guard.testing;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** guard-testing: the cold-start harness uses the fixtures, never the other way. */
class PackageCyclesTest {

    @Test
    void noPackageCycles() {
        PackageCycles.assertOnly(Set.of()); // none
    }
}
