package dev.guard.examples.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java block of every README compiles. A block is either complete (its imports and a class:
 * compiled as it stands) or a fragment, marked by the line above it:
 *
 * <pre>
 * &lt;!-- java fragment (method body) given: RedisClient client; String redisUrl --&gt;
 * &lt;!-- java fragment (class body) imports: org.springframework.context.annotation.Bean given: ... --&gt;
 * </pre>
 *
 * A fragment is compiled inside a class with guard's packages imported, as a method's body or as
 * a class's members, with the names it takes as given declared as fields ({@code Type name}) or
 * methods ({@code Type name(Params)}, which throw). A block that is neither fails the test.
 */
class ReadmeJavaBlocksTest {

    private static final Pattern MARK = Pattern.compile(
            "<!--\\s*java fragment \\((method body|class body)\\)(?:\\s+imports:\\s*(.*?))?(?:\\s+given:\\s*(.*?))?\\s*-->");

    private static final List<String> IMPORTS = List.of("dev.guard.*", "dev.guard.config.*", "dev.guard.drain.*",
            "dev.guard.ready.*", "dev.guard.queue.redis.*", "dev.guard.schema.*", "dev.guard.schema.boundary.*",
            "dev.guard.schema.deadletter.*", "dev.guard.schema.deadletter.redis.*", "dev.guard.worker.*",
            "io.lettuce.core.*", "java.time.Duration", "java.util.List", "java.util.Map");

    @Test
    void everyJavaBlockOfEveryReadmeCompiles(@TempDir Path dir) throws Exception {
        List<Path> sources = new ArrayList<>();
        List<String> unmarked = new ArrayList<>();
        int n = 0;
        int fragments = 0;
        for (Path md : Markdown.files()) {
            for (Markdown.Block b : Markdown.blocks(md)) {
                if (!b.language().equals("java")) {
                    continue;
                }
                n++;
                Path unit = dir.resolve("b" + n);
                Files.createDirectories(unit);
                Matcher mark = MARK.matcher(b.above());
                String header = "// " + b.where() + "\n";
                if (mark.find()) {
                    fragments++;
                    String cls = "Block" + n;
                    Path file = unit.resolve(cls + ".java");
                    Files.writeString(file, header + wrap(cls, mark.group(1), mark.group(2), mark.group(3), b.text()));
                    sources.add(file);
                } else if (b.text().contains("import ") && b.text().matches("(?s).*\\bclass \\w+.*")) {
                    Matcher pub = Pattern.compile("public (?:final )?class (\\w+)").matcher(b.text());
                    Path file = unit.resolve((pub.find() ? pub.group(1) : "Block" + n) + ".java");
                    Files.writeString(file, header + b.text());
                    sources.add(file);
                } else {
                    unmarked.add(b.where());
                }
            }
        }
        assertTrue(unmarked.isEmpty(), "Java blocks that are neither complete (imports and a class) nor marked as a fragment"
                + " (<!-- java fragment (method body) given: ... --> on the line above): " + unmarked);
        assertTrue(n >= 10, "found only " + n + " Java blocks; is the repository root right? " + Markdown.root());

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("--release", "17", "-proc:none", "-classpath",
                System.getProperty("java.class.path"), "-d", dir.resolve("classes").toString()));
        sources.forEach(s -> args.add(s.toString()));
        int rc = javac.run(null, diagnostics, diagnostics, args.toArray(String[]::new));
        assertEquals(0, rc, "README Java blocks that do not compile (each file starts with the README line it came from):\n"
                + diagnostics + "\n" + listing(sources));
        System.out.printf("README Java blocks: %d compiled (%d complete, %d fragments)%n", n, n - fragments, fragments);
    }

    static String wrap(String cls, String kind, String imports, String given, String body) {
        StringBuilder sb = new StringBuilder();
        IMPORTS.forEach(i -> sb.append("import ").append(i).append(";\n"));
        if (imports != null) {
            for (String i : imports.split("[;,]")) {
                if (!i.isBlank()) {
                    sb.append("import ").append(i.trim()).append(";\n");
                }
            }
        }
        sb.append("@SuppressWarnings(\"all\")\nabstract class ").append(cls).append(" {\n");
        if (given != null) {
            for (String g : given.split(";")) {
                String decl = g.trim();
                if (decl.isEmpty()) {
                    continue;
                }
                sb.append("    ").append(decl).append(decl.endsWith(")")
                        ? " { throw new UnsupportedOperationException(\"given by the README's context\"); }\n" : ";\n");
            }
        }
        if (kind.equals("method body")) {
            sb.append("    void block() throws Exception {\n").append(body).append("    }\n");
        } else {
            sb.append(body);
        }
        return sb.append("}\n").toString();
    }

    private static String listing(List<Path> sources) {
        StringBuilder sb = new StringBuilder();
        for (Path p : sources) {
            try {
                sb.append("---- ").append(p.getFileName()).append('\n').append(Files.readString(p));
            } catch (java.io.IOException e) {
                sb.append(e);
            }
        }
        return sb.toString();
    }
}
