package dev.guard.examples.readme;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The fenced code blocks of the project's Markdown files, with where each starts. */
final class Markdown {

    /** One fenced block: its language, text, the file and line of its opening fence, and the line just above it. */
    record Block(Path file, int line, String language, String text, String above) {
        String where() {
            return root().relativize(file) + ":" + line;
        }
    }

    private Markdown() {}

    /** The repository's root: this module sits at examples/readme. */
    static Path root() {
        return Path.of(System.getProperty("user.dir")).resolve("../..").normalize();
    }

    /** Every tracked-looking Markdown file under the root (no build output, no node_modules). */
    static List<Path> files() {
        try (Stream<Path> walk = Files.walk(root())) {
            return walk.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> root().relativize(p).toString().split("/").length < 6)
                    .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/node_modules/")
                            && !p.toString().contains("/.") && !p.toString().contains("/.mvn/"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Block> blocks(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Block> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (!l.startsWith("```")) {
                continue;
            }
            String language = l.substring(3).trim();
            int start = i;
            StringBuilder text = new StringBuilder();
            for (i = i + 1; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
                text.append(lines.get(i)).append('\n');
            }
            String above = start > 0 ? lines.get(start - 1) : "";
            out.add(new Block(file, start + 1, language, text.toString(), above));
        }
        return out;
    }

    /** The first block of {@code language} after the heading line that starts with {@code heading}. */
    static Block firstAfter(Path file, String heading, String language) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int at = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(heading)) {
                at = i + 1;
                break;
            }
        }
        if (at < 0) {
            throw new AssertionError(file + " has no heading " + heading);
        }
        int from = at;
        return blocks(file).stream().filter(b -> b.line() > from && b.language().equals(language)).findFirst()
                .orElseThrow(() -> new AssertionError(file + " has no " + language + " block after " + heading));
    }
}
