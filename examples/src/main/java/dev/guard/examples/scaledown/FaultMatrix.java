package dev.guard.examples.scaledown;

import dev.guard.testing.NetworkNamespace;
import dev.guard.testing.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The fault matrix: each broker's guarded worker fleet (crash-safe fetch on Redis, ack after the
 * job elsewhere, hand-back on SIGTERM) through each {@link Fault}, done to real processes, on a
 * broker of its own per cell that keeps what it holds ({@link PrivateBroker}); every job id then
 * reconciled on its own against the sink. Workers record each job's completion in the sink's Redis
 * ({@code RedisCompletions}: a claim with a fencing token before the job, its results and the
 * record in one script after it), unless {@code --completion none}. One table: lost, run twice (ids
 * whose results were written more than once), ran again (ids whose handler started more than once:
 * with completion records, the later runs wrote nothing), redelivered, the settle time.
 *
 * <pre>
 * java -cp "examples/target/classes:$(cat examples/target/classpath-test.txt)" \
 *     dev.guard.examples.scaledown.FaultMatrix [--brokers redis,rabbitmq,nats,kafka] \
 *     [--faults worker-kill,worker-term,broker-restart,partition,lossy-link,failover] [--jobs 2000 --workers 4 --slow-one-in 20] \
 *     [--outage-ms N] [--events 1] [--completion records|none]
 * </pre>
 *
 * The partition and the lossy link put worker {@code w1} in a network namespace of its own ({@link NetworkNamespace}:
 * root and iptables). Exit code 0 when no cell lost a job, 1 otherwise, 64 on a usage error.
 */
public final class FaultMatrix {

    private FaultMatrix() {}

    /** One cell: a broker, a fault, how long the fault lasted, and the reconciled run. */
    public record Cell(Transport.Kind broker, Fault fault, Duration outage, int jobs, Row row) {

        static String header() {
            return "| broker   | fault                    |  jobs | lost | run twice | ran again | redelivered | handed back |"
                    + " restarts | outage | resumed  | settled  | duration |\n"
                    + "|----------|--------------------------|-------|------|-----------|-----------|-------------|-------------|"
                    + "----------|--------|----------|----------|----------|";
        }

        String line() {
            return String.format("| %-8s | %-24s | %5d | %4d | %9d | %9d | %11d | %11d | %8d | %5.1fs | %-8s | %-8s | %7.1fs |",
                    broker.arg(), fault.label(), jobs, row.lost(), row.processedTwice(), row.ranAgain(), row.redelivered(),
                    row.handedBack(), row.restarts(), outage.toMillis() / 1000.0, seconds(row.resumeMillis()),
                    seconds(row.settleMillis()), row.millis() / 1000.0);
        }

        /** {@code 1.23 s}; "-" without a fault or with nothing left to do after it, "never" when it did not happen. */
        private static String seconds(long millis) {
            return millis == Row.NO_FAULT || millis == Row.NOTHING_LEFT ? "-" : millis < 0 ? "never"
                    : String.format("%.2f s", millis / 1000.0);
        }
    }

    /** What the matrix runs: brokers, faults, an outage override, and the fleet's size. */
    public record Config(List<Transport.Kind> brokers, List<Fault> faults, Duration outage, ExperimentConfig fleet) {

        /** {@code --brokers a,b --faults a,b --outage-ms N}, the rest as the scale-down experiment's options. */
        public static Config parse(String... args) {
            List<Transport.Kind> brokers = List.of(Transport.Kind.values());
            List<Fault> faults = List.of(Fault.values());
            Duration outage = null;
            List<String> fleet = new ArrayList<>(List.of("--jobs", "2000", "--workers", "4", "--events", "1",
                    "--per-event", "1", "--slow-one-in", "20", "--work-dir", "target/faults", "--completion", "records"));
            for (int i = 0; i < args.length; i++) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + args[i] + " needs a value");
                }
                String v = args[i + 1];
                switch (args[i]) {
                    case "--brokers" -> {
                        EnumSet<Transport.Kind> ks = EnumSet.noneOf(Transport.Kind.class);
                        for (String k : v.split(",")) {
                            ks.add(Transport.Kind.parse(k));
                        }
                        brokers = List.copyOf(ks);
                    }
                    case "--faults" -> {
                        EnumSet<Fault> fs = EnumSet.noneOf(Fault.class);
                        for (String f : v.split(",")) {
                            fs.add(Fault.parse(f));
                        }
                        faults = List.copyOf(fs);
                    }
                    case "--outage-ms" -> outage = Duration.ofMillis(Long.parseLong(v));
                    case "--modes" -> throw new IllegalArgumentException("--modes is the scale-down experiment's; every"
                            + " cell of the matrix runs the guarded worker");
                    default -> {
                        fleet.add(args[i]);
                        fleet.add(v);
                    }
                }
                i++;
            }
            return new Config(brokers, faults, outage, ExperimentConfig.parse(fleet.toArray(new String[0])));
        }

        Duration outage(Fault fault, Transport.Kind kind) {
            return outage != null && fault.defaultOutage(kind).compareTo(Duration.ZERO) > 0 ? outage
                    : fault.defaultOutage(kind);
        }

        @Override
        public String toString() {
            ExperimentConfig f = fleet;
            return f.jobs() + " jobs, " + f.workers() + " workers, " + f.events() + " fault(s) per cell, grace "
                    + f.grace().toMillis() + " ms (safety margin " + f.safety().toMillis() + " ms), 1 job in "
                    + f.slowOneIn() + " slow (1.0-2.5 s); Redis lease " + RedisTransport.LEASE.toMillis()
                    + " ms, NATS AckWait " + NatsTransport.ACK_WAIT_MS + " ms, Kafka session timeout "
                    + KafkaTransport.SESSION_TIMEOUT_MS + " ms, AMQP heartbeat " + AmqpTransport.HEARTBEAT_SECONDS + " s; "
                    + (f.completions() ? "completion records in the sink's Redis, results written with them in one script"
                            : "no completion records (--completion none)");
        }
    }

    public static void main(String[] args) throws Exception {
        Config config;
        try {
            config = Config.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("usage error: " + e.getMessage());
            System.exit(64);
            return;
        }
        List<Cell> cells = run(config, System.out);
        System.out.println();
        System.out.println(table(config, cells));
        System.exit(cells.stream().anyMatch(c -> c.row().lost() > 0) ? 1 : 0);
    }

    static String table(Config config, List<Cell> cells) {
        StringBuilder sb = new StringBuilder(config.toString()).append('\n').append(Cell.header()).append('\n');
        for (Cell c : cells) {
            sb.append(c.line()).append('\n');
        }
        for (Cell c : cells) {
            if (!c.row().lostIds().isEmpty()) {
                sb.append(c.broker().arg()).append(' ').append(c.fault().arg()).append(": lost ")
                        .append(c.row().lostIds()).append('\n');
            }
        }
        return sb.toString();
    }

    /** Runs every fault on every broker in turn (a fresh broker per cell); progress goes to {@code out}. */
    public static List<Cell> run(Config config, PrintStream out) throws Exception {
        boolean partition = config.faults().contains(Fault.PARTITION) || config.faults().contains(Fault.LOSSY_LINK);
        List<Cell> cells = new ArrayList<>();
        Thread cleanup = new Thread(() -> Trial.SPAWNED.forEach(p -> p.toHandle().destroyForcibly()), "faults-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try (NetworkNamespace ns = partition ? NetworkNamespace.create() : null;
                RedisServer sinkServer = sinkServer(ns)) {
            String host = ns == null ? "127.0.0.1" : ns.hostAddress();
            if (ns != null) {
                out.printf("faults: worker w1 of the partition and lossy-link cells runs in network namespace %s (%s, this machine is %s)%n",
                        ns.name(), ns.address(), host);
            }
            String sinkUri = "redis://" + host + ":" + sinkServer.port();
            RedisClient client = RedisClient.create(sinkServer.uri());
            try (StatefulRedisConnection<String, String> c = client.connect()) {
                String runId = Long.toString(System.currentTimeMillis(), 36);
                for (Transport.Kind kind : config.brokers()) {
                    for (Fault fault : config.faults()) {
                        Duration outage = config.outage(fault, kind);
                        try (PrivateBroker broker = fault == Fault.FAILOVER ? PrivateBroker.replicated(kind)
                                : PrivateBroker.start(kind, host); Transport transport = broker.transport()) {
                            out.printf("%s %s: a private broker (%s)%n", kind.arg(), fault.label(), broker.persistence());
                            String prefix = "faults:" + runId + ":" + kind.arg() + ":" + fault.arg();
                            Trial trial = new Trial(config.fleet(), transport, Mode.CRASH_SAFE, sinkUri, prefix, c.sync(), out,
                                    kind.arg() + " " + fault.label(), kind.arg() + "-" + fault.arg(),
                                    fault.event(broker, ns, outage)).replaceExited(true);
                            if (fault == Fault.PARTITION || fault == Fault.LOSSY_LINK) {
                                trial.wrapFirstWorker(ns::wrap);
                            }
                            Row row = trial.run();
                            Cell cell = new Cell(kind, fault, trial.measuredOutage() != null ? trial.measuredOutage() : outage,
                                    config.fleet().jobs(), row);
                            out.println(cell.line());
                            cells.add(cell);
                        }
                    }
                }
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            }
        } finally {
            Trial.SPAWNED.forEach(p -> p.toHandle().destroyForcibly());
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        return cells;
    }

    /** The sink (results, run counts, fetch records): a private Redis the faults never touch, reached from the namespace too. */
    private static RedisServer sinkServer(NetworkNamespace ns) {
        RedisServer.Builder b = RedisServer.builder().local();
        if (ns != null) {
            b.alsoBind(ns.hostAddress());
        }
        return b.build().start();
    }
}
