package dev.guard.init;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Test helper: runs {@link GuardInit#run} with its own writers, environment and stdin, and keeps what it printed. */
final class Cli {
    record Result(int code, String out, String err) {
        String both() {
            return out + err;
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private Cli() {}

    static Result withStdin(Map<String, String> env, String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = GuardInit.run(env, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }

    static Result run(Map<String, String> env, String... args) {
        return withStdin(env, "", args);
    }

    static Result run(String... args) {
        return withStdin(Map.of(), "", args);
    }
}
