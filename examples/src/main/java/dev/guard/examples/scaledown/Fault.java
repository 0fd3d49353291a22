package dev.guard.examples.scaledown;

import dev.guard.testing.NetworkNamespace;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The faults of the matrix, each done to real processes while the fleet works: a row of
 * {@link FaultMatrix}'s table. A fault records the jobs held when it began and when it ended, so
 * the trial can time how long those jobs took to get their outcome after it ({@link Row#settleMillis()}).
 */
public enum Fault {
    /** SIGKILL of a worker that has just taken a slow job (the crash, the OOM kill, the node lost). */
    WORKER_KILL("worker SIGKILL mid-job"),
    /** SIGTERM to a worker whose job outlasts the grace period, SIGKILL when it ends (the scale-down). */
    WORKER_TERM("SIGTERM, job > grace"),
    /** SIGKILL of the broker while the fleet works, a pause, a start on the same data. */
    BROKER_RESTART("broker SIGKILL + restart"),
    /**
     * One worker's TCP to the broker black-holed (iptables DROP in its network namespace, both
     * directions) while it holds a job, for longer than the broker's bound on a silent holder (the
     * Redis lease, AckWait, the Kafka session timeout, two AMQP heartbeats); then healed.
     */
    PARTITION("worker partitioned"),
    /**
     * One worker's link made slow and lossy while it holds a job: 10 % of the packets to and from the
     * broker dropped, everything it sends limited to 256 kbit/s, for 10 s (no added delay: this
     * kernel has no netem); then healed.
     */
    LOSSY_LINK("slow, lossy link"),
    /**
     * The leader of what the jobs are on SIGKILLed in a replicated broker, and not started again:
     * the Redis master under Sentinel, the JetStream server leading an R3 stream, the Kafka node
     * leading partition 0 (replication factor 3), the RabbitMQ node leading the quorum queue. The
     * fault ends when a new leader serves.
     */
    FAILOVER("leader killed, failover");

    /** The share of packets a {@link #LOSSY_LINK} drops, each way. */
    static final double LOSS = 0.10;
    /** What a {@link #LOSSY_LINK} lets the worker send. */
    static final String RATE = "256kbit";

    private final String label;

    Fault(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    String arg() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static Fault parse(String s) {
        for (Fault f : values()) {
            if (f.arg().equalsIgnoreCase(s.trim()) || f.name().equalsIgnoreCase(s.trim())) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown fault '" + s + "'; use worker-kill, worker-term, broker-restart,"
                + " partition, lossy-link or failover");
    }

    /**
     * How long the broker is down or the worker cut off, unless the command sets it: a partition
     * outlasts the broker's bound on a silent holder by a few seconds.
     */
    Duration defaultOutage(Transport.Kind kind) {
        return switch (this) {
            case WORKER_KILL, WORKER_TERM, FAILOVER -> Duration.ZERO;
            case BROKER_RESTART -> Duration.ofSeconds(3);
            case LOSSY_LINK -> Duration.ofSeconds(10);
            case PARTITION -> switch (kind) {
                case REDIS -> RedisTransport.LEASE.plusSeconds(4);
                case NATS -> Duration.ofMillis(NatsTransport.ACK_WAIT_MS).plusSeconds(4);
                case KAFKA -> Duration.ofMillis(KafkaTransport.SESSION_TIMEOUT_MS).plusSeconds(6);
                case RABBITMQ -> Duration.ofSeconds(AmqpTransport.HEARTBEAT_SECONDS * 3L);
            };
        };
    }

    /** This fault as the trial's event, on {@code broker}, with {@code ns} holding worker w1. */
    Trial.Event event(PrivateBroker broker, NetworkNamespace ns, Duration outage) {
        return (trial, k) -> {
            switch (this) {
                case WORKER_KILL -> {
                    // a job just taken, so the kill is mid-job: a job seen in hand may be done and only its ack
                    // (a Kafka commit) still under way
                    Holder h = awaitHolder(trial, null);
                    long at = System.currentTimeMillis();
                    h.worker.toHandle().destroyForcibly();
                    h.worker.waitFor(5, TimeUnit.SECONDS);
                    if (h.job != null) {
                        trial.killedHolding(h.job, at);
                    }
                    trial.fault(h.held(), at);
                    say(trial, "SIGKILLed " + trial.workerId(h.worker) + " holding " + h.job);
                    return replace(trial, h.worker);
                }
                case WORKER_TERM -> {
                    Holder h = awaitHolder(trial, null);
                    h.worker.toHandle().destroy();
                    boolean exited = h.worker.waitFor(trial.config().grace().toMillis(), TimeUnit.MILLISECONDS);
                    if (!exited) {
                        h.worker.toHandle().destroyForcibly();
                        h.worker.waitFor(5, TimeUnit.SECONDS);
                    }
                    trial.fault(h.held(), System.currentTimeMillis());
                    say(trial, "SIGTERM to " + trial.workerId(h.worker) + " holding " + h.job + " ("
                            + (h.job == null ? 0 : JobWork.steps(h.job, trial.config().slowOneIn()).length) + " steps of "
                            + JobWork.STEP_MILLIS + " ms); " + (exited ? "it exited within the grace period, code "
                            + h.worker.exitValue() : "SIGKILLed after the grace period"));
                    return replace(trial, h.worker);
                }
                case BROKER_RESTART -> {
                    Set<String> held = trial.held();
                    long t0 = System.nanoTime();
                    broker.kill();
                    say(trial, "broker SIGKILLed while " + held.size() + " jobs were held");
                    Thread.sleep(outage.toMillis());
                    broker.restart();
                    trial.fault(held, System.currentTimeMillis());
                    say(trial, String.format("broker serving again %.1f s after the kill", (System.nanoTime() - t0) / 1e9));
                    return 0;
                }
                case FAILOVER -> {
                    Set<String> held = trial.held();
                    long t0 = System.nanoTime();
                    String killed = broker.killLeader(trial.prefix());
                    say(trial, killed + " SIGKILLed while " + held.size() + " jobs were held");
                    String now = broker.awaitNewLeader(trial.prefix());
                    long failover = (System.nanoTime() - t0) / 1_000_000;
                    trial.fault(held, System.currentTimeMillis());
                    trial.outage(Duration.ofMillis(failover));
                    say(trial, String.format("failed over: %s, %.2f s after the kill", now, failover / 1000.0));
                    return 0;
                }
                case PARTITION, LOSSY_LINK -> {
                    Process first = trial.alive().stream().filter(p -> "w1".equals(trial.workerId(p))).findFirst()
                            .orElseThrow(() -> new IllegalStateException(trial.name() + ": worker w1, the one in network"
                                    + " namespace " + ns.name() + ", exited before the partition; see its log"));
                    Holder h = awaitHolder(trial, first);
                    Set<String> held = trial.held();
                    if (this == PARTITION) {
                        ns.cut(broker.clientPort());
                        say(trial, "w1 cut off from the broker (port " + broker.clientPort() + ") while holding " + h.job
                                + " for " + outage.toMillis() + " ms");
                    } else {
                        ns.degrade(LOSS, RATE, broker.clientPort());
                        say(trial, String.format("w1's link made slow and lossy (%.0f %% of packets to and from port %d"
                                + " dropped, %s out) while holding %s for %d ms", LOSS * 100, broker.clientPort(), RATE,
                                h.job, outage.toMillis()));
                    }
                    Thread.sleep(outage.toMillis());
                    ns.heal();
                    trial.fault(held, System.currentTimeMillis());
                    say(trial, "w1's link healed");
                    return 0;
                }
                default -> throw new IllegalStateException(name());
            }
        };
    }

    /** A worker and the job it holds (null: none). */
    private record Holder(Process worker, String job) {
        Set<String> held() {
            return job == null ? Set.of() : Set.of(job);
        }
    }

    /**
     * Waits (bounded) until a worker ({@code only}, or any) has taken a slow job (longer than the grace
     * period) since the last look, so that most of the job is still ahead when the fault comes. After
     * 60 s takes what is held, or, when nothing is, the worker with no job (the queue may have run
     * dry), and says so: the fault is done either way.
     */
    private static Holder awaitHolder(Trial trial, Process only) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        java.util.Map<Process, String> seen = new java.util.HashMap<>();
        boolean first = true;
        Holder any = null;
        while (System.nanoTime() < until) {
            List<Process> candidates = only != null ? List.of(only) : trial.alive();
            for (Process p : candidates) {
                String job = trial.holding(trial.workerId(p));
                String before = seen.put(p, job);
                if (job == null || !p.isAlive()) {
                    continue;
                }
                if (!first && !job.equals(before) && JobWork.steps(job, trial.config().slowOneIn()).length > 1) {
                    return new Holder(p, job);
                }
                any = new Holder(p, job);
            }
            first = false;
            Thread.sleep(2);
        }
        if (any == null) {
            Process p = only != null ? only : trial.alive().get(0);
            trial.out().printf("%s: no worker took a slow job within 60 s, and none holds one now; the fault goes to %s,"
                    + " which holds nothing%n", trial.name(), trial.workerId(p));
            return new Holder(p, null);
        }
        trial.out().printf("%s: no slow job taken within 60 s; the fault goes to %s holding %s%n", trial.name(),
                trial.workerId(any.worker), any.job);
        return any;
    }

    /** The victim leaves the fleet and a new worker takes its place, as the ReplicaSet would. */
    private static int replace(Trial trial, Process victim) throws java.io.IOException {
        trial.retire(List.of(victim));
        trial.spawn();
        return 1;
    }

    private static void say(Trial trial, String what) {
        trial.out().printf("%s: %s%n", trial.name(), what);
    }
}
