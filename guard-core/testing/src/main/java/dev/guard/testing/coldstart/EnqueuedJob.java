package dev.guard.testing.coldstart;

import java.util.Objects;

/**
 * One job a {@link Producer} enqueued: its id and, for a job with schema skew, how it is skewed
 * (such a job must be rejected, i.e. end in the dead-letter store).
 */
public record EnqueuedJob(String id, String skew) {

  public EnqueuedJob {
    Objects.requireNonNull(id, "id");
    if (id.isBlank() || id.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("a job id must be non-blank without whitespace (it is a manifest token), was '"
          + id + "'");
    }
  }

  /** A job the worker must process. */
  public static EnqueuedJob ok(String id) {
    return new EnqueuedJob(id, null);
  }

  /** A job with schema skew, e.g. {@code skewed(id, "renamed-id")}, that the worker must reject. */
  public static EnqueuedJob skewed(String id, String how) {
    return new EnqueuedJob(id, Objects.requireNonNull(how, "how"));
  }

  /** True iff it carries schema skew. */
  public boolean isSkewed() {
    return skew != null;
  }

  /** Its manifest line: {@code <id> ok} or {@code <id> skew:<how>}. */
  String manifestLine() {
    return id + (skew == null ? " ok" : " skew:" + skew.replaceAll("\\s+", "-"));
  }
}
