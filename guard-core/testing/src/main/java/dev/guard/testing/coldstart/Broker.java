package dev.guard.testing.coldstart;

/** What carries the jobs from the backend to the worker. */
public enum Broker {
  /** A Redis list (LPUSH by the backend; BRPOP or BLMOVE by the worker). */
  REDIS_LIST("redis"),
  /** A RabbitMQ queue (publish by the backend; consume with manual ack by the worker). */
  AMQP("amqp");

  private final String envValue;

  Broker(String envValue) {
    this.envValue = envValue;
  }

  /** The value of {@link StackContract#JOB_BROKER} for it. */
  public String envValue() {
    return envValue;
  }
}
