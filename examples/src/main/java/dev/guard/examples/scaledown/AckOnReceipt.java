package dev.guard.examples.scaledown;

import dev.guard.drain.ForwardingJobSource;
import dev.guard.drain.JobSource;
import java.util.Optional;

/**
 * Delete-on-read over any job source: each job is acked the moment it is fetched, as a worker
 * does with RabbitMQ's {@code autoAck}, a NATS message acked on receipt, or Kafka's auto-commit,
 * so a worker that dies mid-job has nothing left to give back (the table's first two rows on
 * brokers that keep jobs until acked). A hand-back is impossible: the job is gone.
 */
final class AckOnReceipt<J> extends ForwardingJobSource<J> {

    AckOnReceipt(JobSource<J> delegate) {
        super(delegate);
    }

    @Override
    public Optional<J> fetch() {
        Optional<J> job = super.fetch();
        job.ifPresent(super::ack);
        return job;
    }

    @Override
    public void ack(J job) {
        // acked at fetch
    }

    @Override
    public void handBack(J job) {
        throw new UnsupportedOperationException("job " + idOf(job) + " was acked when fetched: it cannot be handed back");
    }
}
