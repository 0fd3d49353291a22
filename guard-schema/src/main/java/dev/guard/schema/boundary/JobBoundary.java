package dev.guard.schema.boundary;

import dev.guard.GuardLog;
import dev.guard.config.Redaction;
import dev.guard.drain.CompletionStore;
import dev.guard.drain.HandBack;
import dev.guard.drain.Settled;
import dev.guard.schema.Accepted;
import dev.guard.schema.Invalid;
import dev.guard.schema.Malformed;
import dev.guard.schema.Outcome;
import dev.guard.schema.Parsed;
import dev.guard.schema.Payload;
import dev.guard.schema.SchemaViolation;
import dev.guard.schema.Schemas;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.Verdict;
import dev.guard.schema.deadletter.DeadLetter;
import dev.guard.schema.deadletter.DeadLetterException;
import dev.guard.schema.deadletter.DeadLetterSink;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * Where a job enters the worker; replaces the broad {@code catch (Exception e) {}}. Every call to
 * {@link #handle} records the job as received in the {@link Ledger} and ends in exactly one outcome:
 *
 * <ul>
 *   <li>valid and the handler returns: {@link Outcome#PROCESSED};</li>
 *   <li>invalid or malformed: dead-lettered with the reason, {@link Outcome#REJECTED};</li>
 *   <li>the handler throws an {@link Exception}: dead-lettered with the exception, {@link Outcome#FAILED};</li>
 *   <li>the handler reaches the drain's deadline ({@link HandBack} from
 *       {@link dev.guard.drain.Drain#checkpoint()}): it propagates, no outcome yet; the loop hands
 *       the job back and {@link #handedBack(String)} records it;</li>
 *   <li>with idempotent completion ({@link dev.guard.drain.Once}): {@link Settled} propagates after
 *       {@link Outcome#DUPLICATE} or {@link Outcome#SUPERSEDED} is recorded; a completion store
 *       that does not answer ({@link CompletionStore.Unavailable}) propagates with no outcome yet,
 *       as {@link HandBack} does;</li>
 *   <li>the dead letter cannot be written: {@link DeadLetterException} propagates, no outcome is
 *       recorded (the ledger shows the job as missing) and the caller must not acknowledge it.</li>
 * </ul>
 *
 * <p>An {@link Error} from the handler is not caught either: it propagates and the job stays missing.
 * One log line (WARN) per job that is not processed, with the job id and the reason. Thread-safe.
 *
 * <pre>{@code
 * JobBoundary<Accepted> boundary = JobBoundary.builder()
 *     .schemas(schemas).jobType("send-email")
 *     .deadLetters(RedisListDeadLetters.connect(redisUrl, "jobs:dead")).consumer("mailer")
 *     .build();
 * Outcome o = boundary.handle(bytes, SourceInfo.redis("jobs", null), job -> send(job.object()));
 * // ack only after handle() returned; if it threw, do not ack
 * }</pre>
 *
 * @param <T> what the handler receives: {@link Accepted} by default, or the result of {@link Builder#map}
 */
public final class JobBoundary<T> {

    private static final Logger LOG = GuardLog.logger(JobBoundary.class);
    private static final List<String> ID_FIELDS = List.of("job_id", "jobId", "id", "message_id", "messageId", "uuid");
    private static final int MAX_ID = 200;

    private final Schemas schemas;
    private final String jobType;
    private final Function<Payload, String> jobTypeOf;
    private final Function<Payload, String> jobIdOf;
    private final Function<Accepted, T> mapper;
    private final DeadLetterSink sink;
    private final Ledger ledger;
    private final String consumer;
    private final Clock clock;
    private final AtomicLong anonymous;

    JobBoundary(Builder<T> b) {
        this.schemas = b.schemas;
        this.jobType = b.jobType;
        this.jobTypeOf = b.jobTypeOf;
        this.jobIdOf = b.jobIdOf;
        this.mapper = b.mapper;
        this.sink = b.sink;
        this.ledger = b.ledger;
        this.consumer = b.consumer;
        this.clock = b.clock;
        this.anonymous = new AtomicLong();
    }

    private JobBoundary(JobBoundary<T> same, DeadLetterSink sink) {
        this.schemas = same.schemas;
        this.jobType = same.jobType;
        this.jobTypeOf = same.jobTypeOf;
        this.jobIdOf = same.jobIdOf;
        this.mapper = same.mapper;
        this.sink = sink;
        this.ledger = same.ledger;
        this.consumer = same.consumer;
        this.clock = same.clock;
        this.anonymous = same.anonymous; // one count for both: their ids go to the same ledger
    }

    /** This boundary (same ledger) writing its dead letters through {@code wrap} of its sink. */
    JobBoundary<T> withDeadLetters(java.util.function.UnaryOperator<DeadLetterSink> wrap) {
        return new JobBoundary<>(this, wrap.apply(sink));
    }

    /** A builder whose handler receives {@link Accepted}. */
    public static Builder<Accepted> builder() {
        return new Builder<>(a -> a);
    }

    /** The ledger this boundary records into. */
    public Ledger ledger() {
        return ledger;
    }

    /** The consumer name used in logs and dead letters. */
    public String consumer() {
        return consumer;
    }

    /**
     * Validates the payload, runs the handler on an accepted one, dead-letters the rest, and records
     * the outcome. Never swallows an exception.
     *
     * @return PROCESSED, REJECTED or FAILED; ack the message after any of them
     * @throws DeadLetterException when a rejected/failed job's dead letter could not be written: do
     *                             not ack; the ledger keeps the job as missing
     */
    public Outcome handle(byte[] payload, SourceInfo source, AcceptedJobHandler<T> handler) {
        Objects.requireNonNull(handler, "handler");
        return handleWithId(payload, source, stableId -> handler);
    }

    /**
     * As {@link #handle(byte[], SourceInfo, AcceptedJobHandler)}, the handler made for the job's
     * stable id: its payload's id, else the source's message id or offset; null when it has neither
     * (the ledger then names it {@code unidentified-<consumer>-<n>}, which no other delivery shares).
     * The payload is parsed once for the check and the id.
     */
    Outcome handleWithId(byte[] payload, SourceInfo source, Function<String, AcceptedJobHandler<T>> handlerFor) {
        SourceInfo src = source == null ? SourceInfo.unknown() : source;
        Parsed parsed = schemas.parse(payload);
        Verdict verdict;
        Payload read = null;
        if (parsed instanceof Malformed m) {
            verdict = new Malformed(jobType == null ? null : schemas.schemaId(jobType), m.kind(), m.reason());
        } else {
            read = (Payload) parsed;
            String type = jobType;
            if (type == null) {
                type = typeOf(read);
            }
            verdict = type == null
                    ? new Malformed(null, Malformed.Kind.UNKNOWN_JOB_TYPE, "the job type could not be read from the payload (not an object, or the type field is missing)")
                    : schemas.validateParsed(type, read);
        }
        String stableId = stableIdOf(read, src);
        String jobId = stableId != null ? stableId : anonymousId();
        ledger.received(jobId);

        if (!(verdict instanceof Accepted accepted)) {
            List<SchemaViolation> violations = verdict instanceof Invalid inv ? inv.violations() : List.of();
            List<String> hints = verdict instanceof Invalid inv ? inv.hints() : List.of();
            return deadLetter(payload, Outcome.REJECTED, verdict.describe(), violations, hints, verdict.schemaId(),
                    src, jobId, null, null);
        }
        T job;
        try {
            job = mapper.apply(accepted);
        } catch (RuntimeException e) {
            return deadLetter(payload, Outcome.REJECTED, "accepted by schema " + accepted.schemaId()
                    + " but could not be mapped for the handler: " + describe(e), List.of(), List.of(),
                    accepted.schemaId(), src, jobId, describe(e), null);
        }
        try {
            handlerFor.apply(stableId).handle(job);
        } catch (HandBack | CompletionStore.Unavailable interruption) {
            // the drain's deadline, between two steps, or a completion store that did not answer: not
            // a failure; the loop hands the job back and records it with handedBack(id)
            throw interruption;
        } catch (Settled settled) {
            // idempotent completion: another run of the job settles it (the loop logs the line, acks
            // a duplicate and releases a superseded job)
            ledger.record(jobId, settled.kind() == Settled.Kind.DUPLICATE ? Outcome.DUPLICATE : Outcome.SUPERSEDED);
            throw settled;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return deadLetter(payload, Outcome.FAILED, "handler threw " + describe(e), List.of(), List.of(),
                    accepted.schemaId(), src, jobId, describeWithFrame(e), e);
        }
        ledger.record(jobId, Outcome.PROCESSED);
        return Outcome.PROCESSED;
    }

    /**
     * A job the drain gives back to the broker unprocessed: records HANDED_BACK (and the reception,
     * when the boundary has not seen this id waiting). Logs one line.
     */
    public void handedBack(String jobId) {
        if (!ledger.isPending(jobId)) {
            ledger.received(jobId);
        }
        ledger.record(jobId, Outcome.HANDED_BACK);
        LOG.info("job {} handed_back by consumer {}: given back to the broker unprocessed (drain)", jobId, consumer);
    }

    /**
     * The id {@link #handle} records for this payload (its job_id, ..., else the source's message
     * id or offset; {@code unidentified} when it has neither), without recording anything: for
     * the logs and callbacks of the loop around the boundary, so they name the job as the ledger does.
     */
    public String idOf(byte[] payload, SourceInfo source) {
        Parsed parsed = schemas.parse(payload);
        String id = stableIdOf(parsed instanceof Payload p ? p : null, source == null ? SourceInfo.unknown() : source);
        return id != null ? id : "unidentified";
    }

    private Outcome deadLetter(byte[] payload, Outcome outcome, String reason, List<SchemaViolation> violations,
                               List<String> hints, String schemaId, SourceInfo src, String jobId, String exception,
                               Exception handlerError) {
        DeadLetter letter = new DeadLetter(payload == null ? new byte[0] : payload, outcome, reason, violations, hints,
                schemaId, src, jobId, clock.instant(), consumer, exception);
        try {
            sink.write(letter);
        } catch (RuntimeException e) {
            DeadLetterException dle = e instanceof DeadLetterException d ? d : new DeadLetterException(
                    "dead letter for job " + jobId + " could not be written: " + describe(e), e);
            if (handlerError != null) {
                dle.addSuppressed(handlerError);
            }
            LOG.error("job {} from {} was to be {} ({}) but its dead letter could not be written: {}; not acknowledged, the error propagates",
                    jobId, mask(src.describe()), outcome.label(), letter.reason(), mask(dle.getMessage()));
            throw dle;
        }
        ledger.record(jobId, outcome);
        LOG.warn("job {} {} by consumer {} from {}: {} -> dead-lettered", jobId, outcome.label(), consumer,
                letter.source().describe(), letter.reason());
        return outcome;
    }

    private String typeOf(Payload parsed) {
        if (!parsed.isObject()) {
            return null;
        }
        try {
            return jobTypeOf.apply(parsed);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The payload's id, else the source's message id or offset; null when it has neither; at most MAX_ID chars. */
    private String stableIdOf(Payload parsed, SourceInfo src) {
        String id = null;
        if (parsed != null) {
            try {
                id = jobIdOf.apply(parsed);
            } catch (RuntimeException e) {
                id = null;
            }
        }
        if (id == null || id.isBlank()) {
            id = src.messageId() != null || src.offset() != null ? src.describe() : null;
        }
        return id == null ? null : truncated(id);
    }

    /** {@code unidentified-<consumer>-<n>}: one name per id-less reception. */
    private String anonymousId() {
        return truncated("unidentified-" + consumer + "-" + anonymous.incrementAndGet());
    }

    private static String truncated(String id) {
        return id.length() <= MAX_ID ? id : id.substring(0, MAX_ID - 3) + "...";
    }

    /** The default job id: the first of job_id, jobId, id, message_id, messageId, uuid that is a string or number. */
    static String defaultJobId(Payload parsed) {
        if (parsed.isObject()) {
            for (String f : ID_FIELDS) {
                Object v = parsed.get(f);
                if (v instanceof String s && !s.isBlank()) {
                    return s;
                }
                if (v instanceof Number n) {
                    return n.toString();
                }
            }
        }
        return null;
    }

    private static String mask(String s) {
        return Redaction.maskText(s);
    }

    private static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder(e.getClass().getName());
        if (e.getMessage() != null) {
            sb.append(": ").append(e.getMessage());
        }
        Throwable c = e.getCause();
        for (int i = 0; c != null && c != e && i < 5; i++, c = c.getCause()) {
            sb.append("; caused by ").append(c.getClass().getName());
            if (c.getMessage() != null) {
                sb.append(": ").append(c.getMessage());
            }
        }
        return Redaction.maskText(sb.toString().replace('\n', ' ').replace('\r', ' '));
    }

    private static String describeWithFrame(Throwable e) {
        StackTraceElement[] st = e.getStackTrace();
        return st.length == 0 ? describe(e) : describe(e) + " at " + st[0];
    }

    /** Builder; the built boundary is immutable. */
    public static final class Builder<T> {

        private Schemas schemas;
        private String jobType;
        private Function<Payload, String> jobTypeOf;
        private Function<Payload, String> jobIdOf = JobBoundary::defaultJobId;
        private final Function<Accepted, T> mapper;
        private DeadLetterSink sink;
        private Ledger ledger;
        private String consumer;
        private Clock clock = Clock.systemUTC();

        Builder(Function<Accepted, T> mapper) {
            this.mapper = mapper;
        }

        private <R> Builder<R> copy(Function<Accepted, R> m) {
            Builder<R> b = new Builder<>(m);
            b.schemas = schemas;
            b.jobType = jobType;
            b.jobTypeOf = jobTypeOf;
            b.jobIdOf = jobIdOf;
            b.sink = sink;
            b.ledger = ledger;
            b.consumer = consumer;
            b.clock = clock;
            return b;
        }

        /** The registry to validate against (required). */
        public Builder<T> schemas(Schemas schemas) {
            this.schemas = Objects.requireNonNull(schemas, "schemas");
            return this;
        }

        /** Every payload is of this job type. */
        public Builder<T> jobType(String jobType) {
            this.jobType = jobType;
            return this;
        }

        /**
         * The job type is read from the parsed payload, an object (e.g. {@code p -> (String) p.get("type")});
         * a function that throws or returns null rejects the job as of unknown type.
         */
        public Builder<T> jobTypeOf(Function<Payload, String> jobTypeOf) {
            this.jobTypeOf = jobTypeOf;
            return this;
        }

        /** The job type is the string in this top-level field. */
        public Builder<T> jobTypeField(String field) {
            return jobTypeOf(p -> p.get(field) instanceof String s ? s : null);
        }

        /**
         * How to find the job id in the parsed payload (any JSON value; return null when there is none;
         * a function that throws counts as none).
         * Default: the first of job_id, jobId, id, message_id, messageId, uuid. Without one, the source's
         * message id or offset is used, else {@code unidentified-<consumer>-<n>}.
         */
        public Builder<T> jobIdOf(Function<Payload, String> jobIdOf) {
            this.jobIdOf = Objects.requireNonNull(jobIdOf, "jobIdOf");
            return this;
        }

        /** The job id is the string or number in this top-level field. */
        public Builder<T> jobIdField(String field) {
            return jobIdOf(p -> {
                Object v = p.get(field);
                return v == null || v instanceof Map || v instanceof List ? null : String.valueOf(v);
            });
        }

        /** Where rejected and failed jobs go (required). */
        public Builder<T> deadLetters(DeadLetterSink sink) {
            this.sink = Objects.requireNonNull(sink, "sink");
            return this;
        }

        /** The ledger to record into (default: a new one, see {@link JobBoundary#ledger()}). */
        public Builder<T> ledger(Ledger ledger) {
            this.ledger = Objects.requireNonNull(ledger, "ledger");
            return this;
        }

        /** The consumer's name, for logs and dead letters (required). */
        public Builder<T> consumer(String name) {
            this.consumer = name;
            return this;
        }

        /** The clock for dead-letter times (default UTC system clock). */
        public Builder<T> clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Maps accepted payloads to what the handler receives. A mapping that throws rejects the job
         * (dead-lettered as "accepted by schema but could not be mapped").
         */
        public <R> Builder<R> map(Function<Accepted, R> mapper) {
            Objects.requireNonNull(mapper, "mapper");
            return copy(mapper);
        }

        /** @throws IllegalStateException naming what is missing */
        public JobBoundary<T> build() {
            StringBuilder missing = new StringBuilder();
            if (schemas == null) {
                missing.append(" schemas(Schemas)");
            }
            if (sink == null) {
                missing.append(" deadLetters(DeadLetterSink)");
            }
            if (consumer == null || consumer.isBlank()) {
                missing.append(" consumer(name)");
            }
            if (jobType == null && jobTypeOf == null) {
                missing.append(" jobType(type) or jobTypeOf(payload -> type)");
            }
            if (missing.length() > 0) {
                throw new IllegalStateException("JobBoundary: not configured:" + missing
                        + "; a boundary needs its schemas, a dead-letter sink, a consumer name and the job type");
            }
            if (jobType != null && schemas.schemaId(jobType) == null) {
                throw new IllegalStateException("JobBoundary: job type '" + jobType + "' has no schema (registered: "
                        + String.join(", ", schemas.jobTypes()) + "); register it in Schemas.builder()");
            }
            if (ledger == null) {
                ledger = new Ledger();
            }
            return new JobBoundary<>(this);
        }
    }
}
