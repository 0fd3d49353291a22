package dev.guard.queue.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The arguments an existing queue was declared with, read over AMQP 0-9-1 alone (no management
 * plugin): the queue is declared again, on a channel of its own each time, with the arguments
 * known so far; the broker refuses a declaration that differs ("Declaration and Property
 * Equivalence", RabbitMQ's Queues guide: "a channel-level exception with code 406
 * (PRECONDITION_FAILED) will be raised") and names the first argument that differs with its
 * current value and type. An argument the declaration leaves out is answered as
 * {@code received none but current is the value '2' of type 'signedint'} (RabbitMQ 3.10.8, seen
 * here), so each refusal adds one argument, typed, until the declaration is equivalent: the
 * broker then knows nothing more than what was sent, and nothing was changed.
 *
 * <p>Only queue arguments: a policy's keys ({@code delivery-limit}, {@code dead-letter-exchange})
 * are not part of the declaration and cannot be seen this way; {@code rabbitmqctl list_queues name
 * effective_policy_definition} or the management API shows them.
 */
final class AmqpQueueArgs {

    private static final Pattern INEQUIVALENT = Pattern.compile(
            "inequivalent arg '([^']+)'.*?received (.*?) but current is (none|the value '([^']*)' of type '([^']+)'|'([^']*)')");
    private static final int MAX_PROBES = 12;

    private AmqpQueueArgs() {}

    /** What a refused declaration said: the argument, and what the queue has (null: none). */
    record Refusal(String arg, Object current, String text) {}

    /**
     * The queue's arguments, starting from {@code expected} (which the worker was built with, such as
     * {@code x-queue-type quorum}); empty when the queue does not exist. A refusal about one of the
     * expected arguments is returned as it is, unresolved ({@link Result#mismatch}).
     */
    static Result read(Connection connection, String queue, Map<String, Object> expected) throws IOException {
        if (!exists(connection, queue)) {
            return new Result(false, Map.of(), null);
        }
        Map<String, Object> known = new LinkedHashMap<>(expected);
        for (int i = 0; i < MAX_PROBES; i++) {
            Optional<Refusal> refusal = declare(connection, queue, known);
            if (refusal.isEmpty()) {
                return new Result(true, Map.copyOf(known), null);
            }
            Refusal r = refusal.get();
            if (expected.containsKey(r.arg()) || r.current() == null || known.containsKey(r.arg())) {
                return new Result(true, Map.copyOf(known), r);
            }
            known.put(r.arg(), r.current());
        }
        throw new IOException("queue '" + queue + "': its arguments were still not equivalent after " + MAX_PROBES
                + " declarations: " + known);
    }

    /** The queue's arguments as far as read; {@code mismatch} a refusal about an argument the worker expects. */
    record Result(boolean exists, Map<String, Object> args, Refusal mismatch) {}

    private static boolean exists(Connection connection, String queue) throws IOException {
        Channel probe = connection.createChannel();
        try {
            probe.queueDeclarePassive(queue);
            return true;
        } catch (IOException e) {
            Refusal r = refusal(e);
            if (r == null && closeCode(e) == 404) {
                return false;
            }
            throw e;
        } finally {
            close(probe);
        }
    }

    /** Declares {@code queue} durable with {@code args}; the broker's refusal, or empty when equivalent. */
    private static Optional<Refusal> declare(Connection connection, String queue, Map<String, Object> args)
            throws IOException {
        Channel probe = connection.createChannel();
        try {
            probe.queueDeclare(queue, true, false, false, args);
            return Optional.empty();
        } catch (IOException e) {
            Refusal r = refusal(e);
            if (r == null) {
                throw e;
            }
            return Optional.of(r);
        } finally {
            close(probe);
        }
    }

    /** The 406 inequivalent-arg refusal in {@code e}, or null. */
    static Refusal refusal(Exception e) {
        String text = closeText(e);
        if (text == null || !text.startsWith("406")) {
            return null;
        }
        Matcher m = INEQUIVALENT.matcher(text);
        if (!m.find()) {
            return null;
        }
        Object current;
        if ("none".equals(m.group(3))) {
            current = null;
        } else if (m.group(4) != null) {
            current = typed(m.group(4), m.group(5));
        } else {
            current = m.group(6);
        }
        return new Refusal(m.group(1), current, text);
    }

    /** A value as the broker typed it, so that the next declaration sends it as it is stored. */
    static Object typed(String value, String type) {
        try {
            return switch (type) {
                case "signedint" -> Integer.valueOf(value);
                case "long" -> Long.valueOf(value);
                case "short" -> Short.valueOf(value);
                case "byte" -> Byte.valueOf(value);
                case "bool" -> Boolean.valueOf(value);
                default -> value;
            };
        } catch (NumberFormatException e) {
            return value;
        }
    }

    static String closeText(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ShutdownSignalException s && s.getReason() instanceof AMQP.Channel.Close c) {
                return c.getReplyCode() + " " + c.getReplyText();
            }
        }
        return null;
    }

    static int closeCode(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ShutdownSignalException s && s.getReason() instanceof AMQP.Channel.Close c) {
                return c.getReplyCode();
            }
        }
        return -1;
    }

    private static void close(Channel probe) {
        try {
            if (probe.isOpen()) {
                probe.close();
            }
        } catch (IOException | TimeoutException | RuntimeException ignored) {
            // closed by the broker's refusal
        }
    }
}
