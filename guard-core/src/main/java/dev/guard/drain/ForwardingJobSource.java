package dev.guard.drain;

import java.util.Objects;
import java.util.Optional;

/**
 * A {@link JobSource} that passes every call to another: override what you observe or change
 * (count fetches for a liveness probe, stop an idle worker, name jobs differently).
 *
 * @param <J> the job type
 */
public class ForwardingJobSource<J> implements JobSource<J> {

    private final JobSource<J> delegate;

    public ForwardingJobSource(JobSource<J> delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public Optional<J> fetch() {
        return delegate.fetch();
    }

    @Override
    public void ack(J job) {
        delegate.ack(job);
    }

    @Override
    public void handBack(J job) throws HandBackFailedException {
        delegate.handBack(job);
    }

    @Override
    public void fail(J job, Exception cause) {
        delegate.fail(job, cause);
    }

    @Override
    public void release(J job) throws HandBackFailedException {
        delegate.release(job);
    }

    @Override
    public String idOf(J job) {
        return delegate.idOf(job);
    }

    @Override
    public JobOrigin originOf(J job) {
        return delegate.originOf(job);
    }

    @Override
    public Durability durability() {
        return delegate.durability();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
