import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Engine-independent part of the JSON Schema engine comparison (see README.md beside it). It is compiled once per
 * engine, together with that engine's adapter, against that engine's classpath plus com.fasterxml Jackson 2 (which
 * reads the suite's files and is the parse reference of the speed part). Not part of guard's build or tests.
 *
 * <pre>
 * java Harness suite ADAPTER_CLASS SUITE_DIR RESULT_DIR    one line per (draft, core|optional) to stdout, failures to
 *                                                          RESULT_DIR/&lt;engine&gt;.failures.tsv
 * java Harness bench ADAPTER_CLASS SCHEMA_FILE ROWS        one line per row to stdout; ROWS e.g. draft7:false,draft2020-12:true
 *                                                          (draft to compile the schema for : format assertion switched on)
 * </pre>
 */
public final class Harness {

    /** One engine, configured as a user would for a draft. */
    public interface Engine {
        /** e.g. "networknt 2.0.8" */
        String name();

        /** the suite's directory names this engine is run on: draft4, draft6, draft7, draft2019-09, draft2020-12 */
        List<String> drafts();

        /** Called once before the suite with its directory (for engines that must be given the remotes up front). */
        default void init(Path suiteDir) throws Exception {}

        /**
         * Compiles a schema for {@code draft}. {@code formatAssertion}: false = the engine's default for that draft
         * (format is an annotation in 2019-09 and 2020-12), true = format assertion switched on where the engine has
         * a switch (the suite's optional/format tests assume it).
         */
        Compiled compile(String draft, String schemaJson, boolean formatAssertion) throws Exception;

        /** What {@code compile(.., formatAssertion)} does with formats, for the report. */
        default String formats(String draft, boolean formatAssertion) {
            return formatAssertion ? "asserted" : (draft.startsWith("draft20") ? "annotation" : "asserted");
        }
    }

    /** A compiled schema. */
    public interface Compiled {
        /** Parses an instance into the engine's own tree (what a user would hand to the engine). */
        Object parse(String json) throws Exception;

        /** true = valid; an exception = a crash. */
        boolean validate(Object instance) throws Exception;
    }

    // ------------------------------------------------------------------------------------------------ network log

    /** Every http(s) URL opened through java.net (URLConnection, and HttpClient's default proxy selection). */
    static final Map<String, AtomicInteger> OPENED = new ConcurrentHashMap<>();

    static void watchNetwork() {
        ProxySelector previous = ProxySelector.getDefault();
        ProxySelector.setDefault(new ProxySelector() {
            @Override
            public List<Proxy> select(URI uri) {
                String key = uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
                        + (uri.getPath() == null ? "" : uri.getPath());
                OPENED.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                return previous == null ? List.of(Proxy.NO_PROXY) : previous.select(uri);
            }

            @Override
            public void connectFailed(URI uri, SocketAddress sa, IOException e) {
                if (previous != null) {
                    previous.connectFailed(uri, sa, e);
                }
            }
        });
    }

    static void printNetwork(String engine) {
        Map<String, Integer> hosts = new TreeMap<>();
        OPENED.forEach((url, n) -> {
            String hostPort = url.replaceFirst("^(\\w+://[^/]+).*", "$1");
            hosts.merge(hostPort, n.get(), Integer::sum);
        });
        hosts.forEach((host, n) -> System.out.println("NET\t" + engine + "\t" + host + "\t" + n));
        OPENED.keySet().stream().filter(u -> !u.contains("://localhost:1234")).sorted()
                .forEach(u -> System.out.println("NETURL\t" + engine + "\t" + u + "\t" + OPENED.get(u).get()));
    }

    // ------------------------------------------------------------------------------------------------ suite

    /** Reads the suite's files keeping numbers exactly as written (1.0 stays 1.0, bignums stay exact). */
    static final ObjectMapper SUITE_READER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

    static final class Tally {
        int passed, failed, crashed;

        int total() {
            return passed + failed + crashed;
        }
    }

    static void suite(Engine engine, Path suiteDir, Path resultDir) throws Exception {
        engine.init(suiteDir);
        Files.createDirectories(resultDir);
        String slug = slug(engine.name());
        try (PrintWriter failures = new PrintWriter(Files.newBufferedWriter(resultDir.resolve(slug + ".failures.tsv")))) {
            failures.println("engine\tdraft\tpart\tfile\tgroup\ttest\texpected\toutcome");
            for (String draft : engine.drafts()) {
                Path dir = suiteDir.resolve("tests").resolve(draft);
                for (String part : List.of("core", "optional")) {
                    List<Path> files;
                    try (Stream<Path> s = "core".equals(part) ? Files.list(dir) : Files.walk(dir.resolve("optional"))) {
                        files = s.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
                    }
                    Tally t = new Tally();
                    boolean formatAssertion = "optional".equals(part);
                    for (Path file : files) {
                        String rel = dir.relativize(file).toString();
                        for (JsonNode group : SUITE_READER.readTree(file.toFile())) {
                            runGroup(engine, draft, part, rel, group, formatAssertion, t, failures);
                        }
                    }
                    System.out.println("SUITE\t" + engine.name() + "\t" + draft + "\t" + part + "\t" + t.passed + "\t"
                            + t.total() + "\t" + t.failed + "\t" + t.crashed + "\t"
                            + engine.formats(draft, formatAssertion));
                    System.out.flush();
                }
            }
        }
        printNetwork(engine.name());
    }

    static void runGroup(Engine engine, String draft, String part, String file, JsonNode group, boolean formatAssertion,
            Tally t, PrintWriter failures) {
        String groupName = group.path("description").asText();
        Compiled compiled = null;
        String compileError = null;
        try {
            compiled = engine.compile(draft, SUITE_READER.writeValueAsString(group.get("schema")), formatAssertion);
        } catch (Throwable e) {
            compileError = "crash at schema load: " + describe(e);
        }
        for (JsonNode test : group.get("tests")) {
            boolean expected = test.get("valid").asBoolean();
            String outcome;
            if (compiled == null) {
                t.crashed++;
                outcome = compileError;
            } else {
                try {
                    boolean actual = compiled.validate(compiled.parse(SUITE_READER.writeValueAsString(test.get("data"))));
                    if (actual == expected) {
                        t.passed++;
                        continue;
                    }
                    t.failed++;
                    outcome = "wrong verdict: " + (actual ? "valid" : "invalid");
                } catch (Throwable e) {
                    t.crashed++;
                    outcome = "crash at validation: " + describe(e);
                }
            }
            failures.println(engine.name() + "\t" + draft + "\t" + part + "\t" + file + "\t" + clean(groupName) + "\t"
                    + clean(test.path("description").asText()) + "\t" + (expected ? "valid" : "invalid") + "\t"
                    + clean(outcome));
        }
    }

    static String describe(Throwable e) {
        String m = String.valueOf(e.getMessage());
        return e.getClass().getName() + ": " + (m.length() > 200 ? m.substring(0, 200) + "..." : m);
    }

    static String clean(String s) {
        return s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    static String slug(String name) {
        return name.toLowerCase().replaceAll("[^a-z0-9.]+", "-");
    }

    // ------------------------------------------------------------------------------------------------ speed

    /**
     * The same bytes as guard-schema/src/test/java/dev/guard/schema/SamplePayloads.valid("j-bench-000001"), the
     * payload of guard's ValidationBench (kept in step by hand; the run prints its size and SHA-256).
     */
    static String payload() {
        String jobId = "j-bench-000001";
        return "{\"job_id\":\"" + jobId + "\",\"type\":\"send-email\",\"created_at\":\"2026-11-30T09:15:02.123Z\","
                + "\"attempt\":0,\"priority\":\"normal\",\"user_email\":\"ada.lovelace@example.com\","
                + "\"template\":\"order-confirmation\",\"locale\":\"en-GB\","
                + "\"params\":{\"first_name\":\"Ada\",\"order_id\":\"ord-20261130-000042\",\"amount_cents\":129900,"
                + "\"currency\":\"GBP\",\"delivery_estimate\":\"3-5 working days\",\"gift\":false,"
                + "\"support_url\":\"https://shop.example.com/help/orders/ord-20261130-000042\"},"
                + "\"attachments\":[{\"name\":\"invoice-000042.pdf\",\"url\":\"https://files.example.com/inv/000042.pdf\",\"size_bytes\":48213},"
                + "{\"name\":\"terms.pdf\",\"url\":\"https://files.example.com/legal/terms-2026.pdf\",\"size_bytes\":120448}],"
                + "\"trace\":{\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"span_id\":\"00f067aa0ba902b7\","
                + "\"producer\":\"checkout-service/7.4.1 (build 2026-11-28, region eu-west-2, pod checkout-7d9f8c6b5-x2lqp)\"},"
                + "\"notes\":\"customer asked for a paper copy as well; the billing address differs from the delivery address; "
                + "do not include marketing blocks in this message; the VIP flag was cleared on 2026-10-01 by support ticket 88123\"}";
    }

    /** The draft-07 schema as a 2020-12 one: "$schema" replaced, "definitions" renamed "$defs" (and their refs). */
    static String to202012(String draft7) throws IOException {
        ObjectMapper m = new ObjectMapper();
        JsonNode root = m.readTree(draft7);
        ((ObjectNode) root).put("$schema", "https://json-schema.org/draft/2020-12/schema");
        renameDefinitions(root);
        return m.writeValueAsString(root).replace("\"#/definitions/", "\"#/$defs/");
    }

    static void renameDefinitions(JsonNode node) {
        if (node instanceof ObjectNode) {
            ObjectNode o = (ObjectNode) node;
            if (o.has("definitions") && !o.has("$defs")) {
                // keep the key order: rebuild the object
                List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
                o.fields().forEachRemaining(entries::add);
                o.removeAll();
                for (Map.Entry<String, JsonNode> e : entries) {
                    o.set("definitions".equals(e.getKey()) ? "$defs" : e.getKey(), e.getValue());
                }
            }
        }
        for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
            renameDefinitions(it.next());
        }
    }

    static volatile long sink;

    static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    interface Op {
        boolean run() throws Exception;
    }

    /** One round of about {@code millis} of wall clock: {ops per process-CPU-second, bytes allocated per op}. */
    static double[] round(Op op, long millis) throws Exception {
        long tid = Thread.currentThread().getId();
        long end = System.nanoTime() + millis * 1_000_000L;
        long ops = 0;
        long ok = 0;
        long cpu0 = OS.getProcessCpuTime();
        long alloc0 = THREADS.getThreadAllocatedBytes(tid);
        do {
            for (int i = 0; i < 256; i++) {
                if (op.run()) {
                    ok++;
                }
            }
            ops += 256;
        } while (System.nanoTime() < end);
        long alloc1 = THREADS.getThreadAllocatedBytes(tid);
        long cpu1 = OS.getProcessCpuTime();
        sink += ok;
        if (ok != ops) {
            throw new IllegalStateException("the operation did not succeed every time (" + ok + " of " + ops + ")");
        }
        return new double[] {ops / ((cpu1 - cpu0) / 1e9), (alloc1 - alloc0) / (double) ops};
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static void bench(Engine engine, Path schemaFile, String rows) throws Exception {
        String draft7 = Files.readString(schemaFile);
        String text = payload();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)).substring(0, 12);
        ObjectMapper jackson = new ObjectMapper();
        if (!THREADS.isThreadAllocatedMemorySupported() || !THREADS.isThreadAllocatedMemoryEnabled()) {
            throw new IllegalStateException("thread allocation counters unavailable");
        }
        // rows: draft:formatAssertion,... e.g. "draft7:false,draft2020-12:false,draft2020-12:true"
        for (String row : rows.split(",")) {
            String draft = row.split(":")[0];
            boolean formatAssertion = Boolean.parseBoolean(row.split(":")[1]);
            String schema = draft.startsWith("draft2020") ? to202012(draft7) : draft7;
            Compiled compiled = engine.compile(draft, schema, formatAssertion);
            Object instance = compiled.parse(text);
            if (!compiled.validate(instance)) {
                System.out.println("BENCH\t" + engine.name() + "\t" + draft + "\t" + engine.formats(draft, formatAssertion)
                        + "\tREJECTS THE VALID PAYLOAD");
                continue;
            }
            Op validate = () -> compiled.validate(instance);
            Op parse = () -> jackson.readTree(bytes) != null;
            // warm-up: 3 s each, then 5 rounds of 1 s each, alternating so that both see the same machine
            round(validate, 3000);
            round(parse, 3000);
            double[] v = new double[5], va = new double[5], p = new double[5], pa = new double[5];
            for (int i = 0; i < 5; i++) {
                double[] r = round(validate, 1000);
                v[i] = r[0];
                va[i] = r[1];
                r = round(parse, 1000);
                p[i] = r[0];
                pa[i] = r[1];
            }
            System.out.println(String.format("BENCH\t%s\t%s\t%s\t%.0f\t%.0f\t%.0f\t%.0f\t%s\t%d\t%s\t%s", engine.name(), draft,
                    engine.formats(draft, formatAssertion), median(v), median(p), median(va), median(pa),
                    Arrays.stream(v).mapToObj(x -> String.format("%.0f", x)).collect(Collectors.joining(" ")),
                    bytes.length, sha, com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION));
            System.out.flush();
        }
        printNetwork(engine.name());
    }

    public static void main(String[] args) throws Exception {
        watchNetwork();
        Engine engine = (Engine) Class.forName(args[1]).getDeclaredConstructor().newInstance();
        switch (args[0]) {
            case "suite":
                suite(engine, Path.of(args[2]), Path.of(args[3]));
                break;
            case "bench":
                bench(engine, Path.of(args[2]), args[3]);
                break;
            default:
                throw new IllegalArgumentException(args[0]);
        }
        System.exit(0); // some engines leave non-daemon threads behind
    }
}
