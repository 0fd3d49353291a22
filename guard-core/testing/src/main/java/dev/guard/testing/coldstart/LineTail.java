package dev.guard.testing.coldstart;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads the new complete lines of a growing file (a process's log), keeping a partial last line for the next read. */
final class LineTail {
  private final Path file;
  private long offset;
  private String partial = "";

  LineTail(Path file) {
    this.file = file;
  }

  /** The lines completed since the last call; none when the file does not exist yet or cannot be read. */
  List<String> next() {
    if (!Files.exists(file)) {
      return List.of();
    }
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      long length = raf.length();
      if (length <= offset) {
        return List.of();
      }
      byte[] bytes = new byte[(int) (length - offset)];
      raf.seek(offset);
      raf.readFully(bytes);
      offset = length;
      String text = partial + new String(bytes, StandardCharsets.UTF_8);
      int lastNewline = text.lastIndexOf('\n');
      if (lastNewline < 0) {
        partial = text;
        return List.of();
      }
      partial = text.substring(lastNewline + 1);
      return List.of(text.substring(0, lastNewline).split("\n", -1));
    } catch (IOException e) {
      return List.of();
    }
  }
}
