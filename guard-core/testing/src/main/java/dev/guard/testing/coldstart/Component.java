package dev.guard.testing.coldstart;

/** The parts of a stack the harness starts, in a random order each run. */
public enum Component {
  /** The private Redis, started on a dataset it takes seconds to load (answers LOADING meanwhile). */
  REDIS("Redis"),
  /** The broker when it is not the run's Redis (RabbitMQ, NATS JetStream): unreachable until its turn. */
  BROKER("broker"),
  /** The backend process: populates Redis, then enqueues the jobs. */
  BACKEND("backend"),
  /** The worker process under test. */
  WORKER("worker");

  private final String label;

  Component(String label) {
    this.label = label;
  }

  /** The word the harness uses for it in its narration. */
  public String label() {
    return label;
  }
}
