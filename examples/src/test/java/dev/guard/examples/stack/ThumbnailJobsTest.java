package dev.guard.examples.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.schema.Accepted;
import dev.guard.schema.Invalid;
import dev.guard.schema.Schemas;
import dev.guard.schema.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The backend's jobs against the worker's real schema: the contract ones pass, the skewed ones do not. */
class ThumbnailJobsTest {
  private final Schemas schemas = Schemas.builder()
      .fromClasspath(GuardedWorker.JOB_TYPE, "schemas/thumbnail.schema.json").build();

  @Test
  void hundredJobsThreeSkewedEachRejectedByTheSchemaTheRestAccepted() {
    List<ThumbnailJobs.Job> jobs = ThumbnailJobs.generate("rX", 100, 3);
    assertEquals(100, jobs.stream().map(ThumbnailJobs.Job::id).distinct().count());
    assertEquals(2, jobs.stream().filter(j -> j.skew() == ThumbnailJobs.Skew.RENAMED_ID).count());
    assertEquals(1, jobs.stream().filter(j -> j.skew() == ThumbnailJobs.Skew.WIDTH_AS_STRING).count());
    for (ThumbnailJobs.Job job : jobs) {
      Verdict v = schemas.validate(GuardedWorker.JOB_TYPE, job.json());
      if (job.skew() == ThumbnailJobs.Skew.NONE) {
        assertInstanceOf(Accepted.class, v, job.json());
      } else {
        assertInstanceOf(Invalid.class, v, job.json());
        assertTrue(job.json().contains(job.id()), "a skewed job still carries its id somewhere: " + job.json());
      }
    }
  }

  @Test
  void theGuardedWorkerNamesARenamedJobByItsNewField() {
    assertEquals("rX-001", GuardedWorker.idFor("{\"id\":\"rX-001\",\"type\":\"thumbnail\"}"));
    assertEquals("rX-002", GuardedWorker.idFor("{\"job_id\":\"rX-002\",\"width\":\"320px\"}"));
    assertEquals("unidentified", GuardedWorker.idFor("not json"));
  }
}
