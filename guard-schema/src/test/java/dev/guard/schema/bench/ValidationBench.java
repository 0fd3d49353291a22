package dev.guard.schema.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.schema.Accepted;
import dev.guard.schema.SamplePayloads;
import dev.guard.schema.Schemas;
import dev.guard.schema.Verdict;
import dev.guard.schema.boundary.JobBoundary;
import dev.guard.schema.Outcome;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.InMemoryDeadLetters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.json.JSONObject;

/**
 * Validations per second, one thread, for a realistic ~1 KB send-email job (src/test/resources/schemas),
 * valid and invalid, beside the cost of only parsing the same bytes. Run:
 * {@code ./mvnw -B -pl guard-schema -am test -DskipTests -Pbench} (short settings: 2 warmup x 1 s,
 * 3 x 2 s, 1 fork, 1 thread), or with {@code -Dbench.args="<JMH options>"}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ValidationBench {

    Schemas schemas;
    Schemas schemas2020;
    byte[] valid;
    byte[] renamed;
    byte[] typeChanged;
    String validText;
    ObjectMapper mapper;
    JobBoundary<Accepted> boundary;
    SourceInfo source;

    @Setup
    public void setUp() {
        schemas = SamplePayloads.schemas();
        schemas2020 = SamplePayloads.schemas2020();
        valid = SamplePayloads.validBytes("j-bench-000001");
        renamed = SamplePayloads.renamed("j-bench-000001").getBytes(StandardCharsets.UTF_8);
        typeChanged = SamplePayloads.typeChanged(4242).getBytes(StandardCharsets.UTF_8);
        validText = SamplePayloads.valid("j-bench-000001");
        mapper = new ObjectMapper();
        boundary = JobBoundary.builder().schemas(schemas).jobType("send-email").deadLetters(new InMemoryDeadLetters())
                .consumer("bench").build();
        source = SourceInfo.kafka("jobs", 0, 1L);
        if (!(schemas.validate("send-email", valid) instanceof Accepted) || !(schemas2020.validate("send-email", valid) instanceof Accepted)
                || schemas2020.draft("send-email") != dev.guard.schema.Draft.DRAFT_2020_12) {
            throw new IllegalStateException("benchmark payload must be valid");
        }
    }

    /** Parse only: the strict reader validate() uses (Jackson streaming into org.json objects). */
    @Benchmark
    public Object parseOnly() {
        return schemas.parse(valid);
    }

    /** Parse only, for reference: Jackson's own tree. */
    @Benchmark
    public JsonNode parseOnlyJacksonTree() throws IOException {
        return mapper.readTree(valid);
    }

    /** Parse only, for reference: org.json's own parser (lenient; not used by guard). */
    @Benchmark
    public JSONObject parseOnlyOrgJson() {
        return new JSONObject(validText);
    }

    /** Parse + validate a valid payload: Accepted. */
    @Benchmark
    public Verdict validateValid() {
        return schemas.validate("send-email", valid);
    }

    /** Parse + validate a payload whose job_id was renamed to id: Invalid with a rename hint. */
    @Benchmark
    public Verdict validateInvalidRenamed() {
        return schemas.validate("send-email", renamed);
    }

    /** Parse + validate a payload with two type changes: Invalid with two type hints. */
    @Benchmark
    public Verdict validateInvalidTypeChanged() {
        return schemas.validate("send-email", typeChanged);
    }

    /** Parse + validate a valid payload against the same schema declared 2020-12 (networknt): Accepted. */
    @Benchmark
    public Verdict validateValid2020() {
        return schemas2020.validate("send-email", valid);
    }

    /** Parse + validate the renamed payload against the 2020-12 schema: Invalid with a rename hint. */
    @Benchmark
    public Verdict validateInvalidRenamed2020() {
        return schemas2020.validate("send-email", renamed);
    }

    /** The whole boundary for a valid payload: parse, validate, id, ledger, no-op handler. */
    @Benchmark
    public Outcome boundaryValid() {
        return boundary.handle(valid, source, job -> { });
    }

    /**
     * {@code short} (default): JMH with the short settings, then the CPU-time figures; {@code cpu}: only
     * the CPU-time figures; anything else: JMH command-line options.
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].trim().contains(" ")) {
            args = args[0].trim().split("\\s+"); // -Dbench.args="-wi 5 -i 5" arrives as one argument
        }
        boolean cpuOnly = args.length == 1 && "cpu".equals(args[0]);
        if (!cpuOnly) {
            runJmh(args);
        }
        cpuTime();
    }

    /**
     * Ops per CPU-second of the whole process (OperatingSystemMXBean's process CPU time: the
     * measuring thread plus the GC and JIT threads its allocations and code cause), so the figure is
     * per core even when the machine is shared and wall-clock throughput is diluted by other
     * processes, and an allocating parser pays for its garbage. Beside it: the measuring thread's own
     * CPU time (what it would be without GC and JIT) and the GC time per round. 3 warm-up passes over
     * all operations (20,000 ops each), then 5 rounds of about half a second each per operation; medians.
     */
    static void cpuTime() {
        ValidationBench b = new ValidationBench();
        b.setUp();
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        java.util.Map<String, java.util.function.Supplier<Object>> ops = new java.util.LinkedHashMap<>();
        ops.put("parseOnly", b::parseOnly);
        ops.put("parseOnlyJacksonTree", () -> {
            try {
                return b.parseOnlyJacksonTree();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        ops.put("parseOnlyOrgJson", b::parseOnlyOrgJson);
        ops.put("validateValid", b::validateValid);
        ops.put("validateInvalidRenamed", b::validateInvalidRenamed);
        ops.put("validateInvalidTypeChanged", b::validateInvalidTypeChanged);
        ops.put("boundaryValid", b::boundaryValid);
        ops.put("validateValid2020", b::validateValid2020);
        ops.put("validateInvalidRenamed2020", b::validateInvalidRenamed2020);
        java.util.Map<String, Double> medians = new java.util.LinkedHashMap<>();
        System.out.println();
        System.out.println("CPU-time figures, payload " + b.valid.length + " bytes, " + gcNames() + ": ops per CPU-second"
                + " of the process (GC and JIT threads included) = ops/s/core; medians of 5 rounds of ~0.5 s");
        System.out.printf("%-28s %16s %10s %18s %14s%n", "benchmark", "process ops/s", "ns/op", "thread-only ops/s",
                "GC ms/round");
        Object sink = null;
        for (int warm = 0; warm < 3; warm++) {
            for (java.util.function.Supplier<Object> op : ops.values()) {
                for (int i = 0; i < 20_000; i++) {
                    sink = op.get();
                }
            }
        }
        for (java.util.Map.Entry<String, java.util.function.Supplier<Object>> op : ops.entrySet()) {
            double[] process = new double[5];
            double[] thread = new double[5];
            double[] gc = new double[5];
            // the process CPU clock ticks coarsely (10 ms here): a round lasts about half a second
            long c0 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < 20_000; i++) {
                sink = op.getValue().get();
            }
            long per20k = Math.max(1, mx.getCurrentThreadCpuTime() - c0);
            int n = (int) Math.min(50_000_000L, Math.max(20_000L, 20_000L * 500_000_000L / per20k));
            for (int round = 0; round < 5; round++) {
                long p0 = os.getProcessCpuTime();
                long t0 = mx.getCurrentThreadCpuTime();
                long g0 = gcMillis();
                for (int i = 0; i < n; i++) {
                    sink = op.getValue().get();
                }
                long t1 = mx.getCurrentThreadCpuTime();
                long p1 = os.getProcessCpuTime();
                gc[round] = gcMillis() - g0;
                process[round] = n * 1e9 / (p1 - p0);
                thread[round] = n * 1e9 / (t1 - t0);
            }
            java.util.Arrays.sort(process);
            java.util.Arrays.sort(thread);
            java.util.Arrays.sort(gc);
            System.out.printf("%-28s %16.0f %10.0f %18.0f %14.0f%n", op.getKey(), process[2], 1e9 / process[2], thread[2],
                    gc[2]);
            medians.put(op.getKey(), process[2]);
        }
        double parse = medians.get("parseOnly");
        System.out.println();
        System.out.println("ratio to parsing (parse + validate ops/s over parse-only ops/s, process CPU time; 0.5 = validation costs as"
                + " much as parsing):");
        for (String k : List.of("validateValid", "validateValid2020", "validateInvalidRenamed", "validateInvalidRenamed2020", "boundaryValid")) {
            System.out.printf("%-28s %6.2f%n", k, medians.get(k) / parse);
        }
        if (sink == null) {
            System.out.println("(no result)");
        }
    }

    private static long gcMillis() {
        long sum = 0;
        for (java.lang.management.GarbageCollectorMXBean g : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, g.getCollectionTime());
        }
        return sum;
    }

    private static String gcNames() {
        return String.join(" + ", java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(java.lang.management.GarbageCollectorMXBean::getName).toList());
    }

    static void runJmh(String[] args) throws RunnerException, org.openjdk.jmh.runner.options.CommandLineOptionException {
        boolean shortRun = args.length == 0 || (args.length == 1 && (args[0].isBlank() || "short".equals(args[0])));
        Options options;
        if (shortRun) {
            options = new OptionsBuilder()
                    .include(ValidationBench.class.getName())
                    .warmupIterations(2).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(3).measurementTime(TimeValue.seconds(2))
                    .forks(1).threads(1)
                    .jvmArgsAppend("-Dlog4j2.level=ERROR")
                    .build();
        } else {
            options = new OptionsBuilder().parent(new CommandLineOptions(args)).include(ValidationBench.class.getName()).build();
        }
        new Runner(options).run();
    }
}
