package dev.guard.testing.coldstart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * How the harness starts and stops the stack's processes: a clean environment (the contract's
 * variables, the process's own, and only PATH, HOME, LANG, LC_ALL, TMPDIR, JAVA_HOME and TZ of the
 * harness's), output and errors to one log file; SIGTERM to stop, SIGKILL after 10 s.
 */
final class ChildProcesses {

  private static final List<String> INHERITED = List.of("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "JAVA_HOME", "TZ");

  private ChildProcesses() {}

  /** Starts {@code spec} with the contract's variables and its own (which may name the contract's as {@code ${NAME}}). */
  static Process start(ProcessSpec spec, Map<String, String> contract, Path log) {
    ProcessBuilder pb = new ProcessBuilder(spec.commandLine());
    Map<String, String> env = pb.environment();
    Map<String, String> inherited = new LinkedHashMap<>(env);
    env.clear();
    for (String keep : INHERITED) {
      if (inherited.containsKey(keep)) {
        env.put(keep, inherited.get(keep));
      }
    }
    env.putAll(contract);
    spec.env().forEach((k, v) -> env.put(k, substitute(v, contract)));
    spec.workingDirectory().ifPresent(dir -> pb.directory(dir.toFile()));
    pb.redirectErrorStream(true);
    pb.redirectOutput(log.toFile());
    try {
      return pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start " + spec + ": " + e.getMessage() + " (is '"
          + spec.commandLine().get(0) + "' installed and on the PATH the harness passes on: " + env.get("PATH") + "?)", e);
    }
  }

  /** Replaces {@code ${NAME}} with the contract variable's value (e.g. {@code CACHE_URL=${REDIS_URL}}). */
  static String substitute(String value, Map<String, String> contract) {
    String out = value;
    for (Map.Entry<String, String> e : contract.entrySet()) {
      out = out.replace("${" + e.getKey() + "}", e.getValue());
    }
    return out;
  }

  /**
   * SIGTERM (a guarded worker drains and prints its ledger summary), SIGKILL after 10 s, told to
   * {@code onEvent}; then kills whatever the process started. Null does nothing.
   */
  static void stop(Process p, String name, Consumer<String> onEvent) {
    if (p == null) {
      return;
    }
    if (p.isAlive()) {
      p.destroy();
      try {
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
          onEvent.accept(name + " ignored SIGTERM for 10 s: killing it");
          p.destroyForcibly();
          p.waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    p.descendants().forEach(ProcessHandle::destroyForcibly);
  }

  /** The exit code of an ended process; empty while it runs or when it never started. */
  static Optional<Integer> exit(Process p) {
    return p == null || p.isAlive() ? Optional.empty() : Optional.of(p.exitValue());
  }
}
