package dev.guard.queue.amqp;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import dev.guard.config.Redaction;
import dev.guard.drain.Durability;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a RabbitMQ queue keeps across a restart of the broker, asked the one way AMQP 0-9-1 allows
 * without the management plugin: the queue is declared again, durable and not auto-delete, on a
 * channel of its own. RabbitMQ's "Queues" guide, "Declaration and Property Equivalence": "If an
 * attempt is made to declare a queue with the same name and properties differ ... a channel-level
 * exception with code 406 (PRECONDITION_FAILED) will be raised", and its text names the first
 * property that differs ({@code inequivalent arg 'durable' for queue 'jobs' in vhost '/': received
 * 'true' but current is 'false'}). The broker compares {@code durable} first, then
 * {@code auto_delete}, then the arguments (rabbit_amqqueue:assert_equivalence), so a 406 about an
 * argument means the first two matched. An exclusive queue of another connection answers 405
 * (RESOURCE_LOCKED) before any of them.
 *
 * <p>A non-durable queue is deleted when RabbitMQ restarts ("Queues", "Durability": "Transient
 * queues will be deleted on node boot"); an auto-delete queue when its last consumer goes, which
 * is every scale-to-zero; an exclusive one with its connection. RabbitMQ 4.0 deprecates transient
 * non-exclusive queues (the {@code transient_nonexcl_queues} deprecated feature), per its 4.0
 * release notes; this was run against 3.10 here.
 */
final class AmqpDurability {

    private static final Pattern INEQUIVALENT = Pattern.compile("inequivalent arg '([^']+)'.*?current is (.*)$");

    /** What a durable classic queue keeps: the found text, also how {@link AmqpQueue} knows to watch delivery modes. */
    static final String CLASSIC_FOUND = "durable, not auto-delete (a classic queue: only messages published persistent,"
            + " delivery_mode 2, survive a restart)";
    private static final String QUORUM_FOUND = "a quorum queue (its messages are always kept on disk)";

    private AmqpDurability() {}

    static Durability of(Connection connection, String queue, boolean quorum) {
        String broker = "rabbitmq queue '" + queue + "' on RabbitMQ " + AmqpQueue.serverVersion(connection);
        Channel probe;
        try {
            probe = connection.createChannel();
        } catch (IOException | RuntimeException e) {
            return Durability.unknown(broker, "could not open a channel to ask: " + Redaction.maskText(String.valueOf(e)),
                    "check the queue's properties in the management UI: durable, not auto-delete, not exclusive");
        }
        try {
            probe.queueDeclare(queue, true, false, false, quorum ? Map.of("x-queue-type", "quorum") : null);
            return Durability.kept(broker, quorum ? QUORUM_FOUND : CLASSIC_FOUND);
        } catch (IOException | RuntimeException e) {
            String refusal = AmqpQueueArgs.closeText(e);
            return judge(broker, queue, refusal != null ? refusal : Redaction.maskText(String.valueOf(e)));
        } finally {
            try {
                if (probe.isOpen()) {
                    probe.close();
                }
            } catch (IOException | TimeoutException | RuntimeException ignored) {
                // closed by the broker's refusal
            }
        }
    }

    /** The verdict on the broker's refusal of the equivalent declaration ({@code code text}). */
    static Durability judge(String broker, String queue, String refusal) {
        String action = "declare '" + queue + "' durable and not auto-delete, exclusive false (best: a quorum queue,"
                + " x-queue-type quorum): delete the queue and let the worker or its producer declare it so, or set it"
                + " in the definitions a deployment imports";
        if (refusal.startsWith("405")) {
            return Durability.lost(broker, "exclusive to another connection (" + refusal + ")",
                    "every job in it when that connection closes: an exclusive queue is deleted with its connection",
                    action);
        }
        Matcher m = INEQUIVALENT.matcher(refusal);
        if (refusal.startsWith("406") && m.find()) {
            String arg = m.group(1);
            String current = m.group(2).trim();
            return switch (arg) {
                case "durable" -> Durability.lost(broker, "durable false (" + refusal + ")",
                        "every job in it: a transient queue is deleted when RabbitMQ restarts", action);
                case "auto_delete" -> Durability.lost(broker, "auto-delete (" + refusal + ")",
                        "every job waiting in it when its last consumer goes (every scale to zero, every restart of the"
                                + " last worker)", action);
                default -> Durability.kept(broker, "durable, not auto-delete; argument " + arg + " is " + current
                        + ("x-queue-type".equals(arg) && current.contains("quorum")
                                ? " (a quorum queue: its messages are always kept on disk)" : ""));
            };
        }
        return Durability.unknown(broker, "declaring it durable was refused: " + refusal,
                "check the queue's properties in the management UI: durable, not auto-delete, not exclusive");
    }
}
