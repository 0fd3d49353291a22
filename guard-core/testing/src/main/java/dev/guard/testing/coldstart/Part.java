package dev.guard.testing.coldstart;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** One started part of a run that the harness watches and stops: a process, or a {@link Producer}'s thread. */
interface Part {

  boolean isAlive();

  /** Its exit code once ended (a producer: 0 when it returned, 1 when it threw); empty while it runs. */
  Optional<Integer> exit();

  /** For the narration: {@code pid 4242}, {@code thread coldstart-producer-r1}. */
  String describe();

  /** Stops it (a process: SIGTERM, then SIGKILL after 10 s), telling {@code say} what it had to do. */
  void stop(String name, Consumer<String> say);

  /** Starts {@code spec}: a container for an image, else a process ({@link ChildProcesses#start}). */
  static Part start(ProcessSpec spec, Map<String, String> contract, Path log) {
    return spec.image().isPresent() ? ContainerPart.start(spec, contract, log)
        : of(ChildProcesses.start(spec, contract, log));
  }

  /** A process started by {@link ChildProcesses#start}. */
  static Part of(Process process) {
    return new Part() {
      @Override
      public boolean isAlive() {
        return process.isAlive();
      }

      @Override
      public Optional<Integer> exit() {
        return ChildProcesses.exit(process);
      }

      @Override
      public String describe() {
        return "pid " + process.pid();
      }

      @Override
      public void stop(String name, Consumer<String> say) {
        ChildProcesses.stop(process, name, say);
      }
    };
  }

  /**
   * Runs {@code producer} on its own thread; what it returns becomes the run's manifest, what it
   * logs and throws goes to {@code log}.
   */
  static Part producer(Producer producer, Map<String, String> contract, int jobs, int skewed, Path manifest, Path log) {
    return new ProducerThread(producer, new Producer.Run(contract, jobs, skewed, line -> append(log, line)), manifest, log);
  }

  private static void append(Path log, String line) {
    try {
      Files.writeString(log, Instant.now() + " " + line + System.lineSeparator(), StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("could not write the producer's log " + log, e);
    }
  }

  /** A producer callback on its own thread. */
  final class ProducerThread implements Part {
    private final Thread thread;
    private volatile Integer exit;

    ProducerThread(Producer producer, Producer.Run run, Path manifest, Path log) {
      this.thread = new Thread(() -> {
        try {
          List<EnqueuedJob> sent = producer.produce(run);
          if (sent == null) {
            throw new IllegalStateException("the producer returned null instead of the jobs it enqueued");
          }
          StringBuilder lines = new StringBuilder();
          sent.forEach(job -> lines.append(job.manifestLine()).append('\n'));
          Files.writeString(manifest, lines, StandardCharsets.UTF_8);
          append(log, "producer returned " + sent.size() + " enqueued jobs, "
              + sent.stream().filter(EnqueuedJob::isSkewed).count() + " with schema skew");
          exit = 0;
        } catch (Throwable e) {
          java.io.StringWriter trace = new java.io.StringWriter();
          e.printStackTrace(new java.io.PrintWriter(trace));
          append(log, "producer threw: " + trace);
          exit = 1;
        }
      }, "coldstart-producer");
      thread.setDaemon(true);
      thread.start();
    }

    @Override
    public boolean isAlive() {
      return exit == null && thread.isAlive();
    }

    @Override
    public Optional<Integer> exit() {
      return isAlive() ? Optional.empty() : Optional.of(exit == null ? 1 : exit);
    }

    @Override
    public String describe() {
      return "thread " + thread.getName();
    }

    @Override
    public void stop(String name, Consumer<String> say) {
      if (!thread.isAlive()) {
        return;
      }
      thread.interrupt();
      try {
        thread.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (thread.isAlive()) {
        say.accept(name + " ignored the interrupt for 10 s: the thread is left behind (a daemon)");
      }
    }
  }
}
