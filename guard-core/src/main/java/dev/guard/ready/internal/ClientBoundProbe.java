package dev.guard.ready.internal;

import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import java.time.Duration;
import java.util.Objects;

/**
 * The public half of a broker probe: names its kind and hands every call to the client-bound
 * half, which is the only class that imports the (optional) broker client. Subclasses add their
 * builder and the extras they check.
 */
public abstract class ClientBoundProbe implements Probe {

    private final String kind;
    private final Probe impl;

    protected ClientBoundProbe(String kind, Probe impl) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.impl = Objects.requireNonNull(impl, "impl");
    }

    @Override
    public final String kind() {
        return kind;
    }

    @Override
    public final String target() {
        return impl.target();
    }

    @Override
    public final ProbeResult check(Duration attemptTimeout) {
        return impl.check(attemptTimeout);
    }

    @Override
    public final void close() {
        impl.close();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + target() + "]";
    }
}
