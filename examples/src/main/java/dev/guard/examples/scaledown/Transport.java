package dev.guard.examples.scaledown;

import dev.guard.drain.DrainConfig;
import dev.guard.drain.JobSource;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Where the experiment's jobs wait: one broker, seen from the orchestrator (queue the ids, tell
 * what is still pending, read the dead letters) and from a worker (the job source for a mode).
 * The sink, where results and run counts go, is Redis for every broker.
 */
public interface Transport extends AutoCloseable {

    /** The brokers the experiment runs on. */
    public enum Kind {
        REDIS, RABBITMQ, NATS, KAFKA;

        String arg() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Kind parse(String s) {
            for (Kind k : values()) {
                if (k.arg().equalsIgnoreCase(s.trim())) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown broker '" + s + "'; use redis, rabbitmq, nats or kafka");
        }
    }

    Kind kind();

    /** What a worker process needs to connect (a URL, bootstrap servers), passed on its command line. */
    String endpoint();

    /** Queues every id, in order, before any worker starts; returns how many the broker holds then. */
    long enqueue(String prefix, List<String> ids) throws Exception;

    /** Jobs queued or held by a worker (unacked, uncommitted, in a processing list). */
    long pending(String prefix) throws Exception;

    /**
     * Whether {@link #pending} counts the jobs workers hold as well as the queued ones. Where it does,
     * a run with every id in the sink and nothing pending is over (nothing left can run again); where
     * it does not (AMQP's passive declare counts ready messages only), the run is over once the sink
     * has not moved for {@code Experiment.SETTLE}.
     */
    default boolean pendingCountsHeld() {
        return true;
    }

    /** The ids in the dead-letter place. */
    Set<String> dead(String prefix) throws Exception;

    /** Deletes the run's queue, stream or topic. */
    void cleanUp(String prefix);

    @Override
    void close();

    /** The worker side: the job source a worker of {@code mode} takes jobs from; ids are the job ids. */
    interface Sources {
        JobSource<?> open(Mode mode, String prefix, String workerId, DrainConfig config) throws Exception;
    }
}
