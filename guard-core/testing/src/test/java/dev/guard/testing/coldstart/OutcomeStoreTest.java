package dev.guard.testing.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.guard.testing.MachineServices;
import dev.guard.testing.NatsServer;
import dev.guard.testing.NoLeakedProcesses;
import io.nats.client.JetStream;
import io.nats.client.Nats;
import io.nats.client.api.StreamConfiguration;
import dev.guard.testing.RedisServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The stores the harness reconciles against, read from real servers: a private Redis, the machine's RabbitMQ. */
@ExtendWith(NoLeakedProcesses.class)
class OutcomeStoreTest {

  @Test
  void aRedisHashsFieldsAndAListsEntriesBehindAPassword() throws Exception {
    try (RedisServer redis = RedisServer.builder().password("s3cret pw").build().start()) {
      redis.command("HSET", "q:results", "r1-1", "{\"width\":320}", "r1-2", "{\"width\":640}");
      redis.command("LPUSH", "q:dead", "{\"id\":\"r1-3\",\"reason\":\"renamed\"}");
      Map<String, String> run = Map.of(StackContract.REDIS_URL, redis.uri(), StackContract.JOB_QUEUE, "q");

      OutcomeStore results = OutcomeStore.redisHash("${JOB_QUEUE}:results");
      assertEquals(Set.of("r1-1", "r1-2"), new TreeSet<>(results.read(run)));
      assertEquals("Redis hash q:results", results.describe(run));
      OutcomeStore dead = OutcomeStore.redisList("${JOB_QUEUE}:dead");
      assertEquals(List.of("{\"id\":\"r1-3\",\"reason\":\"renamed\"}"), List.copyOf(dead.read(run)));
      assertEquals(List.of(), List.copyOf(OutcomeStore.redisList("never-written").read(run)), "an absent key is empty");

      OutcomeStore elsewhere = OutcomeStore.redisHash(redis.uri(), "q:results");
      assertEquals("Redis hash q:results at redis://:****@127.0.0.1:" + redis.port(), elsewhere.describe(run));
      assertFalse(elsewhere.describe(run).contains("s3cret"));

      OutcomeStore wrongPassword = OutcomeStore.redisHash("redis://:nope@127.0.0.1:" + redis.port(), "q:results");
      IOException e = assertThrows(IOException.class, () -> wrongPassword.read(run));
      assertTrue(e.getMessage().startsWith("AUTH failed: WRONGPASS"), e.getMessage());
      assertFalse(e.getMessage().contains("nope"), e.getMessage());
    }
  }

  @Test
  void aStoppedRedisCannotBeReadAndSaysSo() throws Exception {
    try (RedisServer redis = RedisServer.builder().build().start()) {
      Map<String, String> run = Map.of(StackContract.REDIS_URL, redis.uri(), StackContract.JOB_QUEUE, "q");
      redis.stop();
      IOException e = assertThrows(IOException.class, () -> OutcomeStore.redisHash("q").read(run));
      assertTrue(e.getMessage().contains("refused"), e.getMessage());
    }
  }

  @Test
  void aRabbitQueuesBodiesAreReadAndLeftInPlace() throws Exception {
    String queue = MachineServices.uniqueName("guard.outcomes") + ":dead";
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(MachineServices.amqpUri());
    try (Connection connection = factory.newConnection("outcome-store-test")) {
      Map<String, String> run = Map.of(StackContract.AMQP_URL, MachineServices.amqpUri());
      OutcomeStore store = OutcomeStore.amqpQueue(queue);
      assertEquals(List.of(), List.copyOf(store.read(run)), "a queue never declared holds nothing");
      Channel channel = connection.createChannel();
      channel.queueDeclare(queue, false, false, false, null);
      try {
        channel.basicPublish("", queue, null, "{\"id\":\"r1-3\"}".getBytes(StandardCharsets.UTF_8));
        channel.basicPublish("", queue, null, "{\"job_id\":\"r1-4\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("{\"id\":\"r1-3\"}", "{\"job_id\":\"r1-4\"}"), List.copyOf(store.read(run)));
        assertEquals(2, List.copyOf(store.read(run)).size(), "read again: the messages went back to the queue");
        assertEquals(2, channel.messageCount(queue));
        assertEquals("RabbitMQ queue " + queue, store.describe(run));
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> store.read(Map.of(StackContract.JOB_BROKER, "redis")));
        assertEquals("this store reads AMQP_URL, which this run does not set (broker redis)", e.getMessage());
      } finally {
        channel.queueDelete(queue);
      }
    }
  }

  @Test
  void aJetStreamSubjectsMessagesAreReadAndLeftInTheStream() throws Exception {
    try (NatsServer nats = NatsServer.builder().jetStream(true).build().start();
        io.nats.client.Connection connection = Nats.connect(nats.url())) {
      Map<String, String> run = Map.of(StackContract.NATS_URL, nats.url(), StackContract.JOB_QUEUE, "jobs.r1");
      OutcomeStore store = OutcomeStore.jetStreamSubject("${JOB_QUEUE}.dead");
      assertEquals(List.of(), List.copyOf(store.read(run)), "no stream captures the subject yet");
      connection.jetStreamManagement().addStream(StreamConfiguration.builder().name("JOBS")
          .subjects("jobs.r1", "jobs.r1.dead").build());
      JetStream js = connection.jetStream();
      js.publish("jobs.r1", "{\"job_id\":\"r1-1\"}".getBytes(StandardCharsets.UTF_8));
      js.publish("jobs.r1.dead", "{\"id\":\"r1-2\"}".getBytes(StandardCharsets.UTF_8));
      js.publish("jobs.r1.dead", "{\"job_id\":\"r1-3\"}".getBytes(StandardCharsets.UTF_8));
      assertEquals(List.of("{\"id\":\"r1-2\"}", "{\"job_id\":\"r1-3\"}"), List.copyOf(store.read(run)),
          "only the dead-letter subject");
      assertEquals(2, store.read(run).size(), "read again: nothing was taken");
      assertEquals(3, connection.jetStreamManagement().getStreamInfo("JOBS").getStreamState().getMsgCount());
      assertEquals("JetStream subject jobs.r1.dead", store.describe(run));
    }
  }
}
