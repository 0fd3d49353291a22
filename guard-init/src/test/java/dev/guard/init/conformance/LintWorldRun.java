package dev.guard.init.conformance;

import dev.guard.init.GuardInit;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs {@code guard-init lint} on public projects' Compose files, Kubernetes manifests and
 * Dockerfiles, listed with repository, path and commit in
 * {@code src/test/resources/lint/world-sources.tsv} (the files themselves are not in this
 * repository). Each is looked for as {@code DIR/<owner>+<repo>/<path with / as __>}; with
 * {@code --fetch} a missing one is downloaded from raw.githubusercontent.com at its commit.
 * Prints each finding and, per rule, errors and warnings, for a person to judge each finding
 * true or false against the file (the closing notes give that count).
 *
 * <p>{@code java -cp guard-init/target/test-classes:guard-init/target/guard-init.jar
 * dev.guard.init.conformance.LintWorldRun DIR [--fetch]}
 */
public final class LintWorldRun {

    private LintWorldRun() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        boolean fetch = List.of(args).contains("--fetch");
        List<String> files = new ArrayList<>();
        HttpClient http = fetch ? HttpClient.newHttpClient() : null;
        for (String line : Files.readAllLines(Path.of("guard-init/src/test/resources/lint/world-sources.tsv"))) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t");
            Path file = dir.resolve(f[0].replace('/', '+')).resolve(f[1].replace("/", "__"));
            if (!Files.exists(file) && fetch) {
                HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create("https://raw.githubusercontent.com/"
                        + f[0] + "/" + f[2] + "/" + f[1])).build(), HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() == 200) {
                    Files.createDirectories(file.getParent());
                    Files.write(file, r.body());
                }
            }
            if (Files.exists(file)) {
                files.add(file.toString());
            } else {
                System.out.println("missing: " + f[0] + " " + f[1] + " @" + f[2]);
            }
        }
        List<String> argv = new ArrayList<>(List.of("lint"));
        argv.addAll(files);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = GuardInit.run(Map.of(), new ByteArrayInputStream(new byte[0]), new PrintWriter(out), new PrintWriter(err),
                argv.toArray(String[]::new));
        System.out.print(out);
        System.out.print(err);
        Map<String, int[]> byRule = new TreeMap<>();
        Matcher m = Pattern.compile("^\\S+:\\d+: (error|warning) \\[([a-z0-9-]+)\\]", Pattern.MULTILINE).matcher(out.toString());
        while (m.find()) {
            byRule.computeIfAbsent(m.group(2), k -> new int[2])[m.group(1).equals("error") ? 0 : 1]++;
        }
        System.out.println("\nfiles " + files.size() + ", exit " + exit);
        System.out.printf("%-28s %6s %8s%n", "rule", "errors", "warnings");
        byRule.forEach((rule, n) -> System.out.printf("%-28s %6d %8d%n", rule, n[0], n[1]));
        if (!err.toString().isEmpty() && exit != 0 && exit != 78) {
            throw new IOException("lint failed: exit " + exit);
        }
    }
}
