package dev.guard.testing.coldstart;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** What the harness does on a RabbitMQ queue itself: read its bodies in place, delete a run's queues. */
final class AmqpQueues {

  private AmqpQueues() {}

  /**
   * Every message body in {@code queue}, fetched without acknowledgement and returned to the queue
   * when the channel closes; none if the queue does not exist (nothing was dead-lettered).
   */
  static List<String> bodies(String amqpUri, String queue) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(amqpUri);
    factory.setAutomaticRecoveryEnabled(false);
    List<String> bodies = new ArrayList<>();
    try (Connection connection = factory.newConnection("coldstart-outcomes")) {
      Channel channel = connection.createChannel();
      try {
        channel.queueDeclarePassive(queue);
      } catch (java.io.IOException absent) {
        return bodies; // 404: the queue was never declared; the passive declare closed the channel
      }
      GetResponse response;
      while ((response = channel.basicGet(queue, false)) != null) {
        bodies.add(new String(response.getBody(), StandardCharsets.UTF_8));
      }
      // closing the connection returns every unacknowledged message to the queue
    }
    return bodies;
  }

  /** Deletes the run's uniquely named queues; never throws (the run's result does not depend on it). */
  static void delete(String amqpUri, String... queues) {
    try {
      ConnectionFactory factory = new ConnectionFactory();
      factory.setUri(amqpUri);
      try (Connection connection = factory.newConnection("coldstart-cleanup")) {
        for (String queue : queues) {
          try (Channel channel = connection.createChannel()) {
            channel.queueDelete(queue);
          }
        }
      }
    } catch (Exception e) {
      // cleanup of uniquely named queues
    }
  }
}
