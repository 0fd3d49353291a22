package dev.guard.drain.kubernetes;

import dev.guard.ExitCodes;
import dev.guard.GuardLog;
import dev.guard.config.Durations;
import dev.guard.drain.JobListener;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Keeps this pod's {@value #ANNOTATION} current, so that at scale-down the ReplicaSet controller
 * removes idle workers before busy ones: {@value #BUSY} while a job has been running for
 * {@code after}, {@value #IDLE} once the worker has had no job for {@code after}. The ReplicaSet
 * controller deletes "pods with lower deletion cost ... before pods with higher deletion cost"
 * (<a href="https://kubernetes.io/docs/concepts/workloads/controllers/replicaset/#pod-deletion-cost">ReplicaSet:
 * Pod deletion cost</a>), after unassigned, pending and not-ready pods.
 *
 * <p>The same page asks: "Users should avoid updating the annotation frequently, such as updating it
 * based on a metric value, because doing so will generate a significant number of pod updates on
 * the apiserver." So the annotation changes only on a transition that lasted: a job shorter than
 * {@code after} never touches it (it finishes within any grace period worth having), a pod marked
 * busy stays busy through back-to-back jobs, and turns idle only after {@code after} without one.
 * Two writes of one pod are at least {@code after} apart (enforced, not only implied), so a fleet
 * of N pods makes at most N writes per {@code after}, and none while it is steadily busy or idle.
 *
 * <p>The first write, at start ({@link #start}), sets {@value #IDLE} and proves the permission: a
 * pod whose service account may not patch itself is refused with the Role it needs, instead of
 * running with an annotation nobody updates. Later failures are logged and retried with backoff
 * (Retry-After honoured); the jobs never wait for the API server. The annotation is best effort
 * on Kubernetes' side too: "This is honored on a best-effort basis, so it does not offer any
 * guarantees on pod deletion order." The drain's hand-back still covers a busy pod that is chosen.
 */
public final class DeletionCost implements JobListener, AutoCloseable {

    /** The annotation the ReplicaSet controller reads (stable since Kubernetes 1.24; beta and on by default since 1.22). */
    public static final String ANNOTATION = "controller.kubernetes.io/pod-deletion-cost";
    /** {@code on} or {@code off} (the default). */
    public static final String ENV = "GUARD_DELETION_COST";
    /** How long a job runs before the pod counts as busy, and the pod stays idle before it counts as idle again. */
    public static final String ENV_AFTER = "GUARD_DELETION_COST_AFTER";
    public static final Duration DEFAULT_AFTER = Duration.ofSeconds(5);
    /** The cost while a job has been running for {@code after}. */
    public static final int BUSY = 100;
    /** The cost of an idle pod (the value a pod without the annotation has). */
    public static final int IDLE = 0;
    /** The longest pause between retries of a failed write. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(60);

    private static final Logger LOG = GuardLog.logger(DeletionCost.class);

    private final IntFunction<PodApi.Answer> write;
    private final String where;
    private final LongSupplier clock;
    private final Rule rule;
    private final Object lock = new Object();
    private final Thread thread;
    private boolean closed;
    private long writes;
    private PodApi.Answer failing;

    DeletionCost(IntFunction<PodApi.Answer> write, String where, Duration after, LongSupplier clock) {
        this.write = Objects.requireNonNull(write, "write");
        this.where = where;
        this.clock = clock;
        this.rule = new Rule(after.toNanos(), clock.getAsLong());
        this.thread = new Thread(this::run, "guard-deletion-cost");
        this.thread.setDaemon(true);
    }

    /** Why the pod's deletion cost cannot be kept: not in a pod, no permission, the wrong pod name. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        private final int exitCode;

        Refused(int exitCode, String message, Throwable cause) {
            super(message, cause);
            this.exitCode = exitCode;
        }

        /** {@link ExitCodes#NO_PERMISSION} when the API server refused the service account, else {@link ExitCodes#CONFIG}. */
        public int exitCode() {
            return exitCode;
        }
    }

    /** Whether a setting's raw value turns it on: on/true/yes, off/false/no (an empty value is off). */
    public static boolean parseSwitch(String raw, String origin) {
        String v = raw == null ? "" : raw.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "on", "true", "yes", "1" -> true;
            case "", "off", "false", "no", "0" -> false;
            default -> throw new IllegalArgumentException(ENV + "='" + raw + "' (from " + origin + ") is not on or off."
                    + " Action: set it to on to keep this pod's " + ANNOTATION + " current (the pod's service account"
                    + " needs patch on pods), or off (the default)");
        };
    }

    /**
     * Writes {@value #IDLE} once, now, then keeps the annotation current in a daemon thread until
     * {@link #close()}. Refused when the API server says the service account may not patch this pod
     * (401, 403), or that the pod does not exist (404, a wrong {@value PodApi#ENV_POD_NAME}); a first write
     * that failed for a passing reason (no answer, 429, 5xx) is logged and retried in the background.
     */
    public static DeletionCost start(PodApi api, Duration after) throws Refused {
        DeletionCost cost = new DeletionCost(c -> api.annotate(ANNOTATION, Integer.toString(c)), api.toString(), after,
                System::nanoTime);
        PodApi.Answer first = cost.writeNow(IDLE);
        if (!first.ok() && !first.transientFailure()) {
            throw refusal(api, first);
        }
        if (first.ok()) {
            LOG.info("guard: pod deletion cost on for {} (its name from {}): {} while a job has run {}, {} after {} without"
                    + " one; at most one write per {}", api, api.podOrigin(), BUSY, Durations.show(after), IDLE,
                    Durations.show(after), Durations.show(after));
        } else {
            LOG.warn("guard: pod deletion cost on for {}, but the first write failed ({}); retrying in the background, jobs"
                    + " do not wait for it", api, first);
        }
        cost.thread.start();
        return cost;
    }

    /**
     * {@link #start} on this process's own pod ({@link PodApi#inCluster(Map, Path, Duration)}): the
     * worker facade's and the Spring workers' way in. Outside a pod, or with its service account not
     * mounted, refused with {@link ExitCodes#CONFIG}.
     */
    public static DeletionCost startInPod(Map<String, String> env, Path serviceAccount, Duration after) throws Refused {
        PodApi api;
        try {
            api = PodApi.inCluster(env, serviceAccount, Duration.ofSeconds(10));
        } catch (PodApi.NotInPod e) {
            throw new Refused(ExitCodes.CONFIG, ENV + " is on, but " + e.getMessage() + ". Action: turn it off outside"
                    + " Kubernetes (" + ENV + "=off)", e);
        }
        return start(api, after);
    }

    static Refused refusal(PodApi api, PodApi.Answer a) {
        String off = " To run without it: " + ENV + "=off.";
        if (a.status() == 401 || a.status() == 403) {
            return new Refused(ExitCodes.NO_PERMISSION, "guard: the API server refused to annotate " + api + " (" + a + ")."
                    + " Action: grant the pod's service account patch on pods in namespace " + api.namespace() + ": a Role"
                    + " with rules [{apiGroups: [\"\"], resources: [\"pods\"], verbs: [\"patch\"]}], a RoleBinding of it to the"
                    + " ServiceAccount, and serviceAccountName in the pod spec (examples/kubernetes/worker-deployment.yaml"
                    + " has all three)." + off, null);
        }
        if (a.status() == 404) {
            return new Refused(ExitCodes.CONFIG, "guard: the API server has no pod " + api.pod() + " in namespace "
                    + api.namespace() + " (" + a + "); the name came from " + api.podOrigin() + ". Action: set "
                    + PodApi.ENV_POD_NAME + " through the downward API (fieldRef metadata.name), and " + PodApi.ENV_POD_NAMESPACE
                    + " (fieldRef metadata.namespace) if the service account's namespace file is not the pod's." + off, null);
        }
        if (a.status() == PodApi.UNTRUSTED) {
            return new Refused(ExitCodes.CONFIG, "guard: " + a + ". Action: KUBERNETES_SERVICE_HOST must be the cluster's"
                    + " API server (the kubelet sets it), and the pod must mount the cluster's own CA as its service"
                    + " account's ca.crt." + off, null);
        }
        return new Refused(ExitCodes.CONFIG, "guard: the API server rejected the annotation of " + api + " (" + a + ")."
                + off, null);
    }

    @Override
    public void jobStarted() {
        synchronized (lock) {
            rule.jobStarted(clock.getAsLong());
            lock.notifyAll();
        }
    }

    @Override
    public void jobEnded() {
        synchronized (lock) {
            rule.jobEnded(clock.getAsLong());
            lock.notifyAll();
        }
    }

    /** The cost last confirmed by the API server, if any. */
    public OptionalInt published() {
        synchronized (lock) {
            return rule.published == null ? OptionalInt.empty() : OptionalInt.of(rule.published);
        }
    }

    /** Writes sent to the API server so far, failed ones included. */
    public long writes() {
        synchronized (lock) {
            return writes;
        }
    }

    /** Stops keeping the annotation (the pod is going away); the last value stays. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        thread.interrupt();
    }

    private void run() {
        try {
            while (true) {
                int cost;
                synchronized (lock) {
                    OptionalInt next = OptionalInt.empty();
                    while (!closed && (next = rule.nextWrite(clock.getAsLong())).isEmpty()) {
                        long now = clock.getAsLong();
                        long wake = rule.wakeAt(now);
                        if (wake >= Rule.FOREVER) {
                            lock.wait(); // until a job starts or ends
                        } else {
                            lock.wait(Math.max(1, (wake - now + 999_999) / 1_000_000));
                        }
                    }
                    if (closed) {
                        return;
                    }
                    cost = next.getAsInt();
                }
                writeNow(cost);
            }
        } catch (InterruptedException e) {
            // closed
        } catch (RuntimeException e) {
            LOG.error("guard: the pod deletion cost thread of {} failed ({}); the annotation is no longer kept current", where,
                    e.toString());
        }
    }

    private PodApi.Answer writeNow(int cost) {
        synchronized (lock) {
            rule.writing(clock.getAsLong());
            writes++;
        }
        PodApi.Answer a = write.apply(cost);
        synchronized (lock) {
            rule.written(cost, a, clock.getAsLong());
            if (a.ok()) {
                if (failing != null) {
                    LOG.info("guard: pod deletion cost of {} written again ({}), after: {}", where, cost, failing);
                    failing = null;
                } else {
                    LOG.debug("guard: pod deletion cost of {} is {}", where, cost);
                }
            } else if (failing == null) {
                failing = a;
                if (rule.published != null) { // before the first success, start() has said it already
                    LOG.warn("guard: the pod deletion cost of {} could not be set to {} ({}); retrying in {} at most, jobs"
                            + " go on. Until it is written, a scale-down may pick this pod by its old value ({})", where,
                            cost, a, Durations.show(Duration.ofNanos(rule.backoffNanos)), rule.published);
                }
            }
        }
        return a;
    }

    /**
     * When to write what: the pure rule, on nanosecond times. Busy once the pod has held a job (any
     * of its loops' jobs) for {@code after}; idle once it has held none for {@code after} (a job in
     * hand keeps a busy pod busy); two writes
     * at least {@code after} apart; a failed write retried after a backoff that doubles up to
     * {@link #MAX_BACKOFF} (or the server's Retry-After, if longer).
     */
    static final class Rule {
        static final long FOREVER = Long.MAX_VALUE / 4;
        private final long after;
        /** The value the API server last confirmed; null before the first success. */
        Integer published;
        /** Since when the pod has held at least one job (several loops may share one pod). */
        private long jobSince = -1;
        private int inHand;
        private long idleSince;
        private long lastWrite = Long.MIN_VALUE / 4;
        private long retryAt = Long.MIN_VALUE / 4;
        long backoffNanos;

        Rule(long afterNanos, long now) {
            if (afterNanos <= 0) {
                throw new IllegalArgumentException(ENV_AFTER + " must be positive");
            }
            this.after = afterNanos;
            this.idleSince = now;
            this.backoffNanos = afterNanos;
        }

        void jobStarted(long now) {
            if (inHand++ == 0) {
                jobSince = now;
            }
        }

        void jobEnded(long now) {
            if (inHand > 0 && --inHand == 0) {
                idleSince = now;
            }
        }

        /** The value the pod should carry now. */
        int wanted(long now) {
            boolean busy = Integer.valueOf(BUSY).equals(published);
            if (inHand > 0) {
                return busy || now - jobSince >= after ? BUSY : IDLE;
            }
            return busy && now - idleSince < after ? BUSY : IDLE;
        }

        /** The value to write now, if one is due and allowed. */
        OptionalInt nextWrite(long now) {
            int w = wanted(now);
            if (published != null && published == w) {
                return OptionalInt.empty();
            }
            return now >= allowedAt() ? OptionalInt.of(w) : OptionalInt.empty();
        }

        /** When {@link #nextWrite} may next have something; {@link #FOREVER} when only a job event can change it. */
        long wakeAt(long now) {
            int w = wanted(now);
            if (published == null || published != w) {
                return Math.max(now, allowedAt());
            }
            if (inHand > 0 && published == IDLE) {
                return jobSince + after;
            }
            if (inHand == 0 && published == BUSY) {
                return idleSince + after;
            }
            return FOREVER;
        }

        void writing(long now) {
            lastWrite = now;
        }

        void written(int cost, PodApi.Answer a, long now) {
            if (a.ok()) {
                published = cost;
                backoffNanos = after;
                retryAt = Long.MIN_VALUE / 4;
                return;
            }
            long wait = Math.max(backoffNanos, a.retryAfter().map(Duration::toNanos).orElse(0L));
            retryAt = now + wait;
            backoffNanos = Math.min(backoffNanos * 2, Math.max(after, MAX_BACKOFF.toNanos()));
        }

        private long allowedAt() {
            return Math.max(lastWrite + after, retryAt);
        }
    }
}
