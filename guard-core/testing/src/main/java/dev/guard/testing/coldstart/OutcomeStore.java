package dev.guard.testing.coldstart;

import dev.guard.testing.Masking;
import dev.guard.testing.Resp;
import java.net.URI;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Where a stack keeps a job's outcome: its results sink, or its dead-letter store. The harness
 * reads both while the run's servers are still up, and a job counts as processed only if the
 * results store holds it, as rejected only if the dead-letter store does: what the worker logs is
 * its own claim, what the stores hold is the outcome.
 *
 * <p>A store is read as records of text: a hash's fields, a list's entries, a queue's message
 * bodies. A record belongs to the enqueued job whose id it is, or whose id it names as a token
 * (letters, digits and {@code _ . : -}), so a dead letter that carries the payload, the reason and
 * the id in any layout is attributed. Names may use the run's variables: {@code ${JOB_QUEUE}:results}.
 *
 * <pre>{@code
 * ColdStart.builder()
 *     .results(OutcomeStore.redisHash("${JOB_QUEUE}:done"))
 *     .deadLetters(OutcomeStore.redisList("${JOB_QUEUE}:failed"))
 * }</pre>
 */
public interface OutcomeStore {

  /**
   * Reads every record the store holds now.
   *
   * @param contract the run's variables ({@link StackContract}: {@code REDIS_URL}, {@code JOB_QUEUE}, ...)
   * @throws Exception when the store cannot be read; the harness retries while the run lasts and
   *     reports the last failure if the final read fails
   */
  Collection<String> read(Map<String, String> contract) throws Exception;

  /** What it is, with the run's variables filled in, for messages ({@code Redis hash q:results}). */
  String describe(Map<String, String> contract);

  /** The fields of a Redis hash (one per job id, as an idempotent HSET by id writes them), at {@code ${REDIS_URL}}. */
  static OutcomeStore redisHash(String key) {
    return redisHash("${" + StackContract.REDIS_URL + "}", key);
  }

  /** The fields of a Redis hash on the Redis at {@code redisUrl} (may be {@code ${NAME}} of a run variable). */
  static OutcomeStore redisHash(String redisUrl, String key) {
    return redis("Redis hash", redisUrl, key, "HKEYS");
  }

  /** The entries of a Redis list (dead letters as LPUSHed), at {@code ${REDIS_URL}}. */
  static OutcomeStore redisList(String key) {
    return redisList("${" + StackContract.REDIS_URL + "}", key);
  }

  /** The entries of a Redis list on the Redis at {@code redisUrl}. */
  static OutcomeStore redisList(String redisUrl, String key) {
    return redis("Redis list", redisUrl, key, "LRANGE", "0", "-1");
  }

  /**
   * The bodies of the messages in a RabbitMQ queue at {@code ${AMQP_URL}}, read without taking
   * them (fetched unacknowledged, then returned to the queue). Needs amqp-client on the class path.
   */
  static OutcomeStore amqpQueue(String queue) {
    Objects.requireNonNull(queue, "queue");
    return new OutcomeStore() {
      @Override
      public Collection<String> read(Map<String, String> contract) throws Exception {
        return AmqpQueues.bodies(required(contract, StackContract.AMQP_URL), fill(queue, contract));
      }

      @Override
      public String describe(Map<String, String> contract) {
        return "RabbitMQ queue " + fill(queue, contract);
      }
    };
  }

  /**
   * The payloads of every message on a NATS JetStream subject at {@code ${NATS_URL}} (dead letters
   * published to {@code <subject>.dead}), read without taking them. Needs jnats on the class path.
   */
  static OutcomeStore jetStreamSubject(String subject) {
    Objects.requireNonNull(subject, "subject");
    return new OutcomeStore() {
      @Override
      public Collection<String> read(Map<String, String> contract) throws Exception {
        return JetStreamSubjects.payloads(required(contract, StackContract.NATS_URL), fill(subject, contract));
      }

      @Override
      public String describe(Map<String, String> contract) {
        return "JetStream subject " + fill(subject, contract);
      }
    };
  }

  /**
   * The values of every record in a Kafka topic at {@code ${KAFKA_URL}} (dead letters produced to
   * {@code <topic>.dead}), read without a consumer group. Needs kafka-clients on the class path.
   */
  static OutcomeStore kafkaTopic(String topic) {
    Objects.requireNonNull(topic, "topic");
    return new OutcomeStore() {
      @Override
      public Collection<String> read(Map<String, String> contract) {
        return KafkaTopics.values(required(contract, StackContract.KAFKA_URL), fill(topic, contract));
      }

      @Override
      public String describe(Map<String, String> contract) {
        return "Kafka topic " + fill(topic, contract);
      }
    };
  }

  /** Any other store (a table, a topic, a bucket): {@code reader} returns its records. */
  static OutcomeStore of(String description, Function<Map<String, String>, ? extends Collection<String>> reader) {
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(reader, "reader");
    return new OutcomeStore() {
      @Override
      public Collection<String> read(Map<String, String> contract) {
        return reader.apply(contract);
      }

      @Override
      public String describe(Map<String, String> contract) {
        return fill(description, contract);
      }
    };
  }

  private static OutcomeStore redis(String kind, String redisUrl, String key, String... command) {
    Objects.requireNonNull(redisUrl, "redisUrl");
    Objects.requireNonNull(key, "key");
    return new OutcomeStore() {
      @Override
      public Collection<String> read(Map<String, String> contract) throws Exception {
        URI uri = URI.create(fill(redisUrl, contract));
        String[] full = new String[command.length + 1];
        full[0] = command[0];
        full[1] = fill(key, contract);
        System.arraycopy(command, 1, full, 2, command.length - 1);
        return List.copyOf(Resp.strings(uri, 5000, full));
      }

      @Override
      public String describe(Map<String, String> contract) {
        // the run's own Redis goes without saying; another one is named (its password masked)
        boolean runRedis = redisUrl.equals("${" + StackContract.REDIS_URL + "}");
        return kind + " " + fill(key, contract) + (runRedis ? "" : " at " + Masking.url(fill(redisUrl, contract)));
      }
    };
  }

  private static String fill(String text, Map<String, String> contract) {
    return ChildProcesses.substitute(text, contract);
  }

  private static String required(Map<String, String> contract, String name) {
    String value = contract.get(name);
    if (value == null) {
      throw new IllegalStateException("this store reads " + name + ", which this run does not set (broker "
          + contract.get(StackContract.JOB_BROKER) + ")");
    }
    return value;
  }
}
