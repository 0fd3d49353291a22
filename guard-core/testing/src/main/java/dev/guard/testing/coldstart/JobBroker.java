package dev.guard.testing.coldstart;

/** What carries the jobs from the producer to the worker. */
public enum JobBroker {
  /** A Redis list (LPUSH by the producer; BRPOP or BLMOVE by the worker). */
  REDIS_LIST("redis", "Redis"),
  /** A RabbitMQ queue (publish by the producer; consume with manual ack by the worker). */
  AMQP("amqp", "RabbitMQ"),
  /**
   * A NATS JetStream stream ({@link StackContract#JOB_STREAM}) capturing the subject
   * {@link StackContract#JOB_QUEUE} and its dead-letter subject {@code <subject>.dead}.
   */
  JETSTREAM("jetstream", "NATS JetStream"),
  /**
   * A Kafka topic {@link StackContract#JOB_QUEUE} on a KRaft broker ({@link StackContract#KAFKA_URL}),
   * dead letters to the topic {@code <topic>.dead}.
   */
  KAFKA("kafka", "Kafka");

  private final String envValue;
  private final String label;

  JobBroker(String envValue, String label) {
    this.envValue = envValue;
    this.label = label;
  }

  /** The value of {@link StackContract#JOB_BROKER} for it. */
  public String envValue() {
    return envValue;
  }

  /** Its name in the narration. */
  public String label() {
    return label;
  }

  /** True if it is a server of its own, started in its own turn of the order (not the run's Redis). */
  boolean separate() {
    return this != REDIS_LIST;
  }
}
