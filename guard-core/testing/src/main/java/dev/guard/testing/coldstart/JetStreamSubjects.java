package dev.guard.testing.coldstart;

import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.PullSubscribeOptions;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.DeliverPolicy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What the harness reads from NATS JetStream itself: every message on a subject, left in its stream. */
final class JetStreamSubjects {

  private JetStreamSubjects() {}

  /**
   * The payloads of every message the streams hold on {@code subject}, read with an ephemeral
   * consumer that acks nothing (the messages stay); none if no stream captures the subject.
   */
  static List<String> payloads(String natsUrl, String subject) throws Exception {
    Options options = new Options.Builder().server(natsUrl).connectionTimeout(Duration.ofSeconds(2))
        .maxReconnects(0).noNoResponders().build();
    List<String> payloads = new ArrayList<>();
    try (Connection connection = Nats.connect(options)) {
      JetStreamManagement jsm = connection.jetStreamManagement();
      JetStream js = connection.jetStream();
      for (String stream : jsm.getStreamNames(subject)) {
        ConsumerConfiguration reader = ConsumerConfiguration.builder().filterSubject(subject)
            .deliverPolicy(DeliverPolicy.All).ackPolicy(AckPolicy.None).inactiveThreshold(Duration.ofSeconds(30)).build();
        JetStreamSubscription sub = js.subscribe(subject,
            PullSubscribeOptions.builder().stream(stream).configuration(reader).build());
        try {
          long pending = sub.getConsumerInfo().getNumPending();
          long read = 0;
          while (read < pending) {
            List<Message> batch = sub.fetch((int) Math.min(256, pending - read), Duration.ofSeconds(2));
            if (batch.isEmpty()) {
              throw new IllegalStateException("stream " + stream + " announced " + pending + " messages on " + subject
                  + " but gave " + read);
            }
            for (Message m : batch) {
              payloads.add(new String(m.getData(), StandardCharsets.UTF_8));
            }
            read += batch.size();
          }
        } finally {
          sub.unsubscribe();
        }
      }
    }
    return payloads;
  }
}
