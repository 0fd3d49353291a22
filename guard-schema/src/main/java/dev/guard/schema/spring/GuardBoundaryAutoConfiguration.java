package dev.guard.schema.spring;

import dev.guard.GuardLog;
import dev.guard.drain.CheckLevel;
import dev.guard.drain.Drain;
import dev.guard.drain.DrainConfig;
import dev.guard.config.Durations;
import dev.guard.drain.DurabilityCheck;
import dev.guard.drain.TimeoutBudget;
import dev.guard.drain.kubernetes.DeletionCost;
import dev.guard.drain.kubernetes.PodApi;
import dev.guard.metrics.DrainMetrics;
import dev.guard.schema.Accepted;
import dev.guard.schema.Schemas;
import dev.guard.schema.boundary.JobBoundary;
import dev.guard.schema.boundary.Ledger;
import dev.guard.schema.deadletter.DeadLetterSink;
import dev.guard.schema.deadletter.redis.RedisListDeadLetters;
import dev.guard.schema.metrics.LedgerMetrics;
import dev.guard.schema.metrics.MeteredDeadLetters;
import dev.guard.spring.GuardBrokers;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The consumer boundary as beans: the {@link Ledger} always; {@link Schemas} from
 * {@code guard.boundary.schemas}; a Redis dead-letter list from {@code guard.boundary.dead-letter-key}
 * unless the application declares its own {@link DeadLetterSink}; the {@link JobBoundary} once both
 * exist, and {@link GuardWorkers} to build {@link GuardWorker}s with it. With Micrometer and a
 * registry bean: the ledger's, the dead letters' and each worker's drain meters. With Actuator: the
 * {@code ledger} endpoint.
 */
@AutoConfiguration(afterName = {
    "dev.guard.spring.GuardAutoConfiguration",
    "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnProperty(prefix = "guard", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(BoundaryProperties.class)
public class GuardBoundaryAutoConfiguration {

    private static final Logger LOG = GuardLog.logger(GuardBoundaryAutoConfiguration.class);

    /** Decorates the dead-letter sink the boundary writes to (the meters, when Micrometer is there). */
    interface SinkDecorator {
        DeadLetterSink decorate(DeadLetterSink sink, String name);
    }

    /** Told of each worker's drain as it starts (the meters, when Micrometer is there). */
    interface DrainObserver extends Consumer<Drain> {
    }

    @Bean
    @ConditionalOnMissingBean
    Ledger guardLedger() {
        return new Ledger();
    }

    @Bean
    @ConditionalOnMissingBean
    @Conditional(SchemasConfigured.class)
    Schemas guardSchemas(BoundaryProperties props) {
        Schemas.Builder b = Schemas.builder();
        for (Map.Entry<String, String> e : props.getBoundary().getSchemas().entrySet()) {
            String where = e.getValue().trim();
            if (where.startsWith("classpath:")) {
                b.fromClasspath(e.getKey(), where.substring("classpath:".length()).replaceFirst("^/", ""));
            } else {
                b.fromFile(e.getKey(), Path.of(where.startsWith("file:") ? where.substring("file:".length()) : where));
            }
        }
        props.getBoundary().getExamples().forEach(b::example);
        return b.build(); // SchemaSelfTestException, listing every problem, fails the start
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean({Schemas.class, DeadLetterSink.class})
    JobBoundary<Accepted> guardJobBoundary(Schemas schemas, DeadLetterSink sink, Ledger ledger, BoundaryProperties props,
                                           Environment env, ObjectProvider<SinkDecorator> decorator) {
        BoundaryProperties.Boundary b = props.getBoundary();
        String consumer = b.getConsumer() != null ? b.getConsumer() : env.getProperty("spring.application.name", "worker");
        String name = b.getDeadLetterKey() != null ? b.getDeadLetterKey() : sink.getClass().getSimpleName();
        SinkDecorator d = decorator.getIfAvailable();
        JobBoundary.Builder<Accepted> builder = JobBoundary.builder().schemas(schemas).ledger(ledger).consumer(consumer)
                .deadLetters(d == null ? sink : d.decorate(sink, name));
        if (b.getJobTypeField() != null) {
            builder.jobTypeField(b.getJobTypeField());
        }
        if (b.getJobType() != null) {
            builder.jobType(b.getJobType());
        } else if (b.getJobTypeField() == null && schemas.jobTypes().size() == 1) {
            builder.jobType(schemas.jobTypes().iterator().next());
        }
        return builder.build();
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(JobBoundary.class)
    GuardWorkers guardWorkers(JobBoundary<Accepted> boundary, BoundaryProperties props, Environment env,
                              ObjectProvider<DrainObserver> observers) {
        BoundaryProperties.DrainSettings s = props.getDrain();
        DrainConfig config = DrainConfig.builder().gracePeriod(s.getGracePeriod()).safetyMargin(s.getSafetyMargin())
                .workerId(env.getProperty("HOSTNAME", "pid-" + ProcessHandle.current().pid())).build();
        Duration springTimeout = env.getProperty("spring.lifecycle.timeout-per-shutdown-phase", Duration.class, Duration.ofSeconds(30));
        if (springTimeout.compareTo(s.getGracePeriod()) < 0) {
            LOG.warn("guard: spring.lifecycle.timeout-per-shutdown-phase is {} ms, shorter than guard.drain.grace-period {} ms:"
                    + " Spring stops waiting for the worker before its drain ends; set both to the pod's grace period",
                    springTimeout.toMillis(), s.getGracePeriod().toMillis());
        }
        Consumer<Drain> all = drain -> observers.orderedStream().forEach(o -> o.accept(drain));
        CheckLevel persistence = props.getPersistenceCheck();
        if (persistence == null) {
            String raw = env.getProperty(DurabilityCheck.ENV);
            persistence = raw == null || raw.isBlank() ? CheckLevel.ERROR
                    : DurabilityCheck.parseLevel(raw, "environment variable " + DurabilityCheck.ENV);
        }
        return new GuardWorkers(boundary, config, all, persistence, timeoutSettings(props, env), deletionCost(props, env));
    }

    /**
     * guard.deletion-cost and guard.deletion-cost-after, else the variables a shared ConfigMap sets;
     * what starts the pod's deletion cost keeper when it is on (null when off). The pod's coordinates
     * (KUBERNETES_SERVICE_HOST and _PORT, POD_NAME, POD_NAMESPACE, HOSTNAME) are read from Spring's
     * environment, which holds the process's.
     */
    static GuardWorkers.DeletionCostStart deletionCost(BoundaryProperties props, Environment env) {
        Boolean on = props.getDeletionCost();
        if (on == null) {
            on = DeletionCost.parseSwitch(env.getProperty(DeletionCost.ENV), "environment variable " + DeletionCost.ENV);
        }
        if (!on) {
            return null;
        }
        Duration after = props.getDeletionCostAfter();
        if (after == null) {
            after = envDuration(env, DeletionCost.ENV_AFTER);
            after = after == null ? DeletionCost.DEFAULT_AFTER : after;
        }
        Map<String, String> pod = new HashMap<>();
        for (String name : List.of("KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT", PodApi.ENV_POD_NAME,
                PodApi.ENV_POD_NAMESPACE, "HOSTNAME")) {
            String v = env.getProperty(name);
            if (v != null) {
                pod.put(name, v);
            }
        }
        Duration every = after;
        return () -> DeletionCost.startInPod(pod, props.getServiceAccount(), every);
    }

    /** guard.timeout-check and guard.longest-job, else the variables a shared ConfigMap sets. */
    static TimeoutBudget.Settings timeoutSettings(BoundaryProperties props, Environment env) {
        CheckLevel level = props.getTimeoutCheck();
        if (level == null) {
            String raw = env.getProperty(TimeoutBudget.ENV);
            level = raw == null || raw.isBlank() ? CheckLevel.ERROR
                    : TimeoutBudget.parseLevel(raw, "environment variable " + TimeoutBudget.ENV);
        }
        if (props.getLongestJob() != null) {
            return new TimeoutBudget.Settings(level, props.getLongestJob(), "guard.longest-job");
        }
        Duration longest = envDuration(env, TimeoutBudget.ENV_LONGEST_JOB);
        return longest == null ? new TimeoutBudget.Settings(level, null, "not declared")
                : new TimeoutBudget.Settings(level, longest, "environment variable " + TimeoutBudget.ENV_LONGEST_JOB);
    }

    /** The duration in environment variable {@code name}; null when it is unset or blank. */
    private static Duration envDuration(Environment env, String name) {
        String raw = env.getProperty(name);
        if (raw == null || raw.isBlank()) {
            return null;
        }
        try {
            return Durations.parse(raw);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + "='" + raw.trim() + "' (from the environment)"
                    + " is not a duration. Action: set it to " + Durations.FORMS, e);
        }
    }

    /** A Redis list for dead letters, on the application's Redis, when lettuce is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.lettuce.core.RedisClient")
    static class RedisDeadLetters {
        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean(DeadLetterSink.class)
        @ConditionalOnProperty(prefix = "guard.boundary", name = "dead-letter-key")
        RedisListDeadLetters guardDeadLetters(GuardBrokers brokers, BoundaryProperties props) {
            String key = props.getBoundary().getDeadLetterKey();
            String redis = brokers.target("redis").orElseThrow(() -> new IllegalStateException(
                    "guard.boundary.dead-letter-key=" + key + " names a Redis list, but this application uses no Redis"
                            + " (guard.brokers, spring-data-redis): declare a DeadLetterSink bean instead"));
            return RedisListDeadLetters.atFirstWrite(redis, key, Duration.ofSeconds(5)); // the bean exists before the gate opens
        }
    }

    /** The boundary's meters, when Micrometer is on the class path and a registry is a bean. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    static class Metrics {
        @Bean
        @ConditionalOnBean(type = "io.micrometer.core.instrument.MeterRegistry")
        LedgerMetrics guardLedgerMetrics(Ledger ledger, MeterRegistry registry) {
            return LedgerMetrics.bind(ledger, registry);
        }

        @Bean
        @ConditionalOnBean(type = "io.micrometer.core.instrument.MeterRegistry")
        SinkDecorator guardDeadLetterMeters(MeterRegistry registry) {
            return (sink, name) -> new MeteredDeadLetters(sink, name, registry);
        }

        @Bean
        @ConditionalOnBean(type = "io.micrometer.core.instrument.MeterRegistry")
        DrainObserver guardDrainMeters(MeterRegistry registry) {
            return drain -> DrainMetrics.bind(drain, registry);
        }
    }

    /** The ledger endpoint, when Actuator is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
    static class Actuator {
        @Bean
        @ConditionalOnMissingBean
        LedgerEndpoint guardLedgerEndpoint(Ledger ledger) {
            return new LedgerEndpoint(ledger);
        }
    }

    /** Matches when {@code guard.boundary.schemas} names at least one schema. */
    static final class SchemasConfigured implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return Binder.get(context.getEnvironment())
                    .bind("guard.boundary.schemas", Bindable.mapOf(String.class, String.class))
                    .map(m -> !m.isEmpty()).orElse(false);
        }
    }
}
