package dev.guard.schema.spring;

import dev.guard.drain.CheckLevel;
import dev.guard.drain.kubernetes.PodApi;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The {@code guard.boundary.*} and {@code guard.drain.*} properties. */
@ConfigurationProperties("guard")
public class BoundaryProperties {

    private final Boundary boundary = new Boundary();
    private final DrainSettings drain = new DrainSettings();

    /**
     * What a worker whose broker would lose its jobs on a restart (a Redis without appendonly, a
     * non-durable queue, JetStream memory storage) does: error (the default) stops the context
     * before the first job, warn logs the report and starts, off does not ask. Unset: the
     * environment variable GUARD_PERSISTENCE_CHECK (the name guard's worker facade and a shared
     * ConfigMap use), else error.
     */
    private CheckLevel persistenceCheck;

    /**
     * The longest job a worker runs: judged against guard.drain.grace-period and every clock of its
     * source (AckWait, claim idle time, consumer timeout, message age limits) before the first job.
     * Unset: the environment variable GUARD_LONGEST_JOB; unset there too, the table is logged and
     * nothing is judged.
     */
    private Duration longestJob;

    /**
     * What a violated timeout budget does: error (the default) stops the context before the first
     * job, warn logs it and starts, off does not read the clocks. Unset: GUARD_TIMEOUT_CHECK, else error.
     */
    private CheckLevel timeoutCheck;

    /**
     * Keep this pod's controller.kubernetes.io/pod-deletion-cost current (busy 100, idle 0), so that
     * a scale-down removes idle workers first; needs patch on pods for the pod's service account.
     * Unset: the environment variable GUARD_DELETION_COST (on/off), else off.
     */
    private Boolean deletionCost;

    /**
     * How long a job runs before the pod counts as busy, and without a job before it counts as idle;
     * also the shortest time between two writes. Unset: GUARD_DELETION_COST_AFTER, else 5 s.
     */
    private Duration deletionCostAfter;

    /** Where the pod's service account is mounted (token, ca.crt, namespace). */
    private Path serviceAccount = PodApi.SERVICE_ACCOUNT;

    public Boolean getDeletionCost() {
        return deletionCost;
    }

    public void setDeletionCost(Boolean deletionCost) {
        this.deletionCost = deletionCost;
    }

    public Duration getDeletionCostAfter() {
        return deletionCostAfter;
    }

    public void setDeletionCostAfter(Duration deletionCostAfter) {
        this.deletionCostAfter = deletionCostAfter;
    }

    public Path getServiceAccount() {
        return serviceAccount;
    }

    public void setServiceAccount(Path serviceAccount) {
        this.serviceAccount = serviceAccount;
    }

    public Duration getLongestJob() {
        return longestJob;
    }

    public void setLongestJob(Duration longestJob) {
        this.longestJob = longestJob;
    }

    public CheckLevel getTimeoutCheck() {
        return timeoutCheck;
    }

    public void setTimeoutCheck(CheckLevel timeoutCheck) {
        this.timeoutCheck = timeoutCheck;
    }

    public CheckLevel getPersistenceCheck() {
        return persistenceCheck;
    }

    public void setPersistenceCheck(CheckLevel persistenceCheck) {
        this.persistenceCheck = persistenceCheck;
    }

    public Boundary getBoundary() {
        return boundary;
    }

    public DrainSettings getDrain() {
        return drain;
    }

    /** The consumer boundary: schemas by job type, the consumer's name, where dead letters go. */
    public static class Boundary {
        /**
         * JSON Schemas by job type: thumbnail: classpath:schemas/thumbnail.schema.json (or a file path).
         * Each compiles, and its examples validate, when the application starts.
         */
        private Map<String, String> schemas = new LinkedHashMap<>();

        /**
         * An example payload per job type, validated against its schema at start: proof that the
         * schema accepts real jobs (thumbnail: {"job_id":"example-1","width":320}).
         */
        private Map<String, String> examples = new LinkedHashMap<>();

        /** The job type every payload is checked as; default: the only one of guard.boundary.schemas. */
        private String jobType;

        /** The payload field naming each job's type, when there are several. */
        private String jobTypeField;

        /** The consumer's name in logs and dead letters; default: spring.application.name, else "worker". */
        private String consumer;

        /**
         * The Redis list dead letters are pushed to, on the Redis of spring.data.redis.* (a
         * DeadLetterSink bean of the application's own replaces it).
         */
        private String deadLetterKey;

        public Map<String, String> getSchemas() {
            return schemas;
        }

        public void setSchemas(Map<String, String> schemas) {
            this.schemas = schemas;
        }

        public Map<String, String> getExamples() {
            return examples;
        }

        public void setExamples(Map<String, String> examples) {
            this.examples = examples;
        }

        public String getJobType() {
            return jobType;
        }

        public void setJobType(String jobType) {
            this.jobType = jobType;
        }

        public String getJobTypeField() {
            return jobTypeField;
        }

        public void setJobTypeField(String jobTypeField) {
            this.jobTypeField = jobTypeField;
        }

        public String getConsumer() {
            return consumer;
        }

        public void setConsumer(String consumer) {
            this.consumer = consumer;
        }

        public String getDeadLetterKey() {
            return deadLetterKey;
        }

        public void setDeadLetterKey(String deadLetterKey) {
            this.deadLetterKey = deadLetterKey;
        }
    }

    /** How a {@link GuardWorker} stops: the pod's grace period and the margin kept for handing back. */
    public static class DrainSettings {
        /** The time between SIGTERM and SIGKILL: the pod's terminationGracePeriodSeconds. */
        private Duration gracePeriod = Duration.ofSeconds(30);

        /** Kept at the end of the grace period for handing back the job in hand and closing connections. */
        private Duration safetyMargin = Duration.ofSeconds(5);

        public Duration getGracePeriod() {
            return gracePeriod;
        }

        public void setGracePeriod(Duration gracePeriod) {
            this.gracePeriod = gracePeriod;
        }

        public Duration getSafetyMargin() {
            return safetyMargin;
        }

        public void setSafetyMargin(Duration safetyMargin) {
            this.safetyMargin = safetyMargin;
        }
    }
}
