package dev.guard.testing.coldstart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One run's directory ({@code <series>/run-NN}): the backend's manifest, each process's log and, for
 * a run that failed (or when told to keep logs), Redis's log and the reconciliation. A passed run's
 * directory is deleted; a series' directory goes when it is left empty.
 */
final class RunDirectory {
  private final Path dir;

  private RunDirectory(Path dir) {
    this.dir = dir;
  }

  static RunDirectory create(Path series, int run) {
    Path dir = series.resolve(String.format(Locale.ROOT, "run-%02d", run));
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("could not create the run directory " + dir, e);
    }
    return new RunDirectory(dir);
  }

  Path path() {
    return dir;
  }

  /** Where the backend writes the id and kind of each job it enqueues. */
  Path manifest() {
    return dir.resolve("manifest.txt");
  }

  Path workerLog() {
    return dir.resolve("worker.log");
  }

  Path backendLog() {
    return dir.resolve("backend.log");
  }

  /** The manifest's ids and kinds ({@code ok}, {@code skew...}); empty before the backend wrote it. */
  Map<String, String> manifestIds() {
    return Reconciler.parseManifest(lines(manifest()));
  }

  List<String> workerLines() {
    return lines(workerLog());
  }

  List<String> backendLines() {
    return lines(backendLog());
  }

  /** Keeps the directory, with a copy of Redis's log and the reconciliation; or deletes it. */
  void keepOrDelete(boolean keep, Path redisLog, String reconciliation) {
    if (!keep) {
      deleteTree(dir);
      return;
    }
    if (redisLog != null && Files.exists(redisLog)) {
      try {
        Files.copy(redisLog, dir.resolve("redis.log"), StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        // the run's verdict does not depend on the copy
      }
    }
    try {
      Files.writeString(dir.resolve("reconciliation.txt"), reconciliation, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + dir.resolve("reconciliation.txt"), e);
    }
  }

  /** Deletes a series' directory when no run kept anything in it. */
  static void deleteIfEmpty(Path series) {
    try (Stream<Path> list = Files.exists(series) ? Files.list(series) : Stream.empty()) {
      if (Files.exists(series) && list.findAny().isEmpty()) {
        Files.delete(series);
      }
    } catch (IOException e) {
      // nothing to clean
    }
  }

  private static List<String> lines(Path file) {
    try {
      return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + file, e);
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // leftover files of a passed run are harmless
    }
  }
}
