package dev.guard.init.lint;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Just enough of POSIX shell to read a container's start command: words as {@code sh} splits them
 * (quotes and backslashes, no expansion), and a script as its commands in order, each with its
 * nesting depth (inside {@code do ... done}, {@code then ... fi}, braces or parentheses), so that a
 * {@code sleep} inside a retry loop is not read as a fixed wait before the next command.
 */
final class Shell {

    private Shell() {}

    /**
     * One simple command of a script: its words, how many loops or blocks enclose it, and the
     * keyword just before it ({@code until}, {@code while}, {@code if}; empty for none).
     */
    record Command(List<String> words, int depth, String after) {
        String name() {
            return words.isEmpty() ? "" : base(words.get(0));
        }
    }

    private static final Set<String> SHELLS = Set.of("sh", "bash", "ash", "dash", "zsh", "ksh");

    /** {@code /bin/sh} and {@code sh} alike. */
    static String base(String word) {
        int slash = word.lastIndexOf('/');
        return slash < 0 ? word : word.substring(slash + 1);
    }

    /**
     * The script {@code argv} runs through a shell ({@code sh -c 'script'}, {@code bash -lc
     * "script"}), or null when it runs no shell script.
     */
    static String script(List<String> argv) {
        if (argv.size() < 3 || !SHELLS.contains(base(argv.get(0)))) {
            return null;
        }
        for (int i = 1; i < argv.size() - 1; i++) {
            String a = argv.get(i);
            if (a.startsWith("-") && !a.startsWith("--") && a.indexOf('c') > 0) {
                return argv.get(i + 1);
            }
            if (!a.startsWith("-")) {
                return null; // a script file, not -c
            }
        }
        return null;
    }

    /**
     * What {@code argv} runs, as commands: those of its shell script ({@code sh -c '...'}), else
     * {@code argv} itself as one command; none for an empty {@code argv} (the image decides).
     */
    static List<Command> commandsOf(List<String> argv) {
        String script = script(argv);
        if (script != null) {
            return commands(script);
        }
        return argv.isEmpty() ? List.of() : List.of(new Command(List.copyOf(argv), 0, ""));
    }

    /** The shell's name in {@code argv}, when it runs a script: {@code sh}, {@code bash}. */
    static String shellOf(List<String> argv) {
        return script(argv) == null ? null : base(argv.get(0));
    }

    /** Words of {@code text} as a shell splits them, quotes removed (Compose splits a string command so). */
    static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < text.length()) {
                    w.append(text.charAt(++i));
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == '\\' && i + 1 < text.length()) {
                w.append(text.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            out.add(w.toString());
        }
        return out;
    }

    /** The simple commands of {@code script} in order, split at {@code ; && || | &} and newlines. */
    static List<Command> commands(String script) {
        List<Command> out = new ArrayList<>();
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        int depth = 0;
        char quote = 0;
        boolean inWord = false;
        for (int i = 0; i <= script.length(); i++) {
            char c = i < script.length() ? script.charAt(i) : '\n';
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
                continue;
            }
            boolean separator = c == ';' || c == '\n' || c == '|' || c == '&';
            if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == '\\' && i + 1 < script.length()) {
                w.append(script.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c) || separator) {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
                if (separator) {
                    depth = flush(words, depth, out);
                }
            } else if ((c == '(' || c == ')') && !inWord) {
                depth = flush(words, depth, out);
                depth = Math.max(0, depth + (c == '(' ? 1 : -1));
            } else {
                w.append(c);
                inWord = true;
            }
        }
        return out;
    }

    private static final Set<String> OPEN = Set.of("do", "then", "{", "else", "elif");
    private static final Set<String> CLOSE = Set.of("done", "fi", "}");

    /** Emits the words gathered as commands, a keyword at the front opening or closing a level. */
    private static int flush(List<String> words, int depth, List<Command> out) {
        List<String> rest = new ArrayList<>(words);
        words.clear();
        String after = "";
        while (!rest.isEmpty() && (OPEN.contains(rest.get(0)) || CLOSE.contains(rest.get(0))
                || rest.get(0).equals("while") || rest.get(0).equals("until") || rest.get(0).equals("if")
                || rest.get(0).equals("for") || rest.get(0).equals("!"))) {
            String k = rest.remove(0);
            after = k;
            if (k.equals("do") || k.equals("then") || k.equals("{")) {
                depth++;
            } else if (CLOSE.contains(k)) {
                depth = Math.max(0, depth - 1);
            } else if (k.equals("for")) {
                rest.clear(); // for x in ...: the list, not a command
            }
        }
        if (!rest.isEmpty()) {
            out.add(new Command(List.copyOf(rest), depth, after));
        }
        return depth;
    }
}
