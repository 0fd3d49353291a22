package dev.guard.queue;

import java.time.Duration;
import java.util.Objects;

/**
 * The setters every guard job source's builder has, kept in one {@link SourceOptions}. A source
 * whose broker keeps no per-job count (a plain list with a fallback list) says so at construction,
 * and then refuses an interruption limit it could not keep instead of ignoring it.
 *
 * @param <B> the source's own builder, so the setters chain
 */
public abstract class SourceBuilder<B extends SourceBuilder<B>> {

    private SourceOptions options = SourceOptions.DEFAULTS;
    private final String noCount;

    /** A source that counts interruptions and dead-letters at the limit. */
    protected SourceBuilder() {
        this(null);
    }

    /**
     * @param noCount null when the source counts interruptions; otherwise why it cannot and what to
     *     use instead, the text of the error a limit gets
     */
    protected SourceBuilder(String noCount) {
        this.noCount = noCount;
    }

    protected abstract B self();

    /** All three at once, for a worker that reads several sources with the same settings. */
    public B options(SourceOptions options) {
        Objects.requireNonNull(options, "options");
        if (noCount != null && options.maxInterruptions() != SourceOptions.DEFAULTS.maxInterruptions()) {
            throw limitRefused(options.maxInterruptions());
        }
        this.options = options;
        return self();
    }

    /** How long one fetch waits for a job (default 1 s): the longest an idle worker takes to notice a stop. */
    public B pollTimeout(Duration pollTimeout) {
        options = options.withPollTimeout(pollTimeout);
        return self();
    }

    /**
     * Bound of a hand-back, a confirmed ack or a dead letter's publish (default 2 s); keep it inside
     * the drain's safety margin.
     */
    public B handBackTimeout(Duration handBackTimeout) {
        options = options.withHandBackTimeout(handBackTimeout);
        return self();
    }

    /** A job interrupted this many times is dead-lettered at its next delivery instead of run (default 3). */
    public B maxInterruptions(int max) {
        if (noCount != null) {
            throw limitRefused(max);
        }
        options = options.withMaxInterruptions(max);
        return self();
    }

    /** What the setters made of the defaults. */
    public SourceOptions options() {
        return options;
    }

    private IllegalArgumentException limitRefused(int max) {
        return new IllegalArgumentException("maxInterruptions " + max + " cannot be kept: " + noCount);
    }
}
