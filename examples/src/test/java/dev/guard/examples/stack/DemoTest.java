package dev.guard.examples.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.NoLeakedProcesses;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The README's demo: narrates, and its last line is the one a script checks. */
@ExtendWith(NoLeakedProcesses.class)
class DemoTest {

  private static List<String> lines(ByteArrayOutputStream bytes) {
    return bytes.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void oneRunNarratesAndEndsWithTheReconciledLine() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int exit = Demo.run(new String[] {"--runs=1", "--seed=11"}, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    List<String> lines = lines(bytes);
    String all = String.join("\n", lines);
    assertEquals(0, exit, all);
    assertEquals("reconciled: runs=1 received=100 processed=97 rejected=3 failed=0 missing=0", lines.get(lines.size() - 1), all);
    assertTrue(all.contains("run 1 of 1: start order "), all);
    assertTrue(all.contains("Redis is up and answered LOADING while it loads its dataset"), all);
    assertTrue(all.contains("backend enqueued 100 jobs, 3 with schema skew"), all);
    assertTrue(all.contains("dependencies ready after "), all);
    assertTrue(all.contains("ledger: received=100 processed=97 rejected=3 failed=0 handed_back=0 missing=0"), all);
  }

  @Test
  void anUnknownOptionIsAUsageError() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    assertEquals(64, Demo.run(new String[] {"--fast"}, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
    assertTrue(bytes.toString(StandardCharsets.UTF_8).startsWith("unknown option '--fast'; options: --runs=N --naive"));
  }

  @Test
  void aLongWorkerLineIsWrappedAtSpacesNeverCut() {
    String line = "WARN dev.guard.schema.boundary.JobBoundary - job j-3 rejected by consumer worker-1 from redis:jobs:"
        + " invalid against schema thumbnail: 1 violation: #: required key [job_id] not found (required); hint: job_id"
        + " missing, id present: renamed by the producer? -> dead-lettered";
    java.util.List<String> parts = Demo.Narrator.wrap(line, 60);
    org.junit.jupiter.api.Assertions.assertTrue(parts.size() > 2, parts.toString());
    parts.forEach(p -> org.junit.jupiter.api.Assertions.assertTrue(p.length() <= 60, p));
    org.junit.jupiter.api.Assertions.assertEquals(line, String.join(" ", parts), "nothing of the line is lost");
  }
}
