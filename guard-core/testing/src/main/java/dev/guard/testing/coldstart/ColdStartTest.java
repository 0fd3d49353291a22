package dev.guard.testing.coldstart;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the cold-start harness before the annotated test method (or every test method of the
 * annotated class) and fails the test, naming every failed run, its failed checks and its kept
 * logs, unless every run reconciled. The test method may take a {@link ColdStartReport}
 * parameter to assert more (figures, ids).
 *
 * <pre>{@code
 * @Test
 * @ColdStartTest(runs = 10, worker = MyWorker.class, backend = MyBackend.class)
 * void processedEqualsReceived(ColdStartReport report) {
 *   assertEquals(10, report.runs().size());
 * }
 * }</pre>
 */
@Documented
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(ColdStartExtension.class)
public @interface ColdStartTest {
  /** Cold starts in a row (default 10, as the runbook asks). */
  int runs() default 10;

  /** Jobs per run. */
  int jobs() default 100;

  /** Jobs with schema skew per run. */
  int skewed() default 3;

  /** The worker's main class. */
  Class<?> worker();

  /** The backend's main class. */
  Class<?> backend();

  /** What carries the jobs. */
  JobBroker broker() default JobBroker.REDIS_LIST;

  /** Seed of the start orders; negative: drawn (and printed). */
  long seed() default -1;

  /**
   * Start the parts in this order every run instead of a random one (each part of the stack once,
   * e.g. {@code {WORKER, REDIS, BACKEND}}: the worker before its broker, the race itself); empty:
   * a random order per run, drawn from the seed.
   */
  Component[] order() default {};

  /** Extra environment for the worker, {@code NAME=value}; {@code ${REDIS_URL}} etc. are substituted. */
  String[] workerEnv() default {};

  /** Fail the test unless every run reconciled (default true; false for a negative control). */
  boolean requirePass() default true;

  /** Further settings. */
  Class<? extends ColdStartConfigurer> configurer() default ColdStartConfigurer.None.class;
}
