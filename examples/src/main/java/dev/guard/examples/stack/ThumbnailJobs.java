package dev.guard.examples.stack;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The jobs the backend enqueues: thumbnail jobs {@code {"job_id","type","image","width"}}, some
 * with the schema skew of the write-ups: {@code job_id} renamed to {@code id} on the producer
 * side, or {@code width} sent as a string ({@code "320px"}) instead of an integer.
 */
public final class ThumbnailJobs {
  /** How a job's payload differs from the contract. */
  public enum Skew {
    /** As the contract says. */
    NONE("ok"),
    /** {@code job_id} renamed to {@code id}. */
    RENAMED_ID("skew:renamed-id"),
    /** {@code width} is a string, not an integer. */
    WIDTH_AS_STRING("skew:width-as-string");

    private final String label;

    Skew(String label) {
      this.label = label;
    }

    /** The word used in the manifest. */
    public String label() {
      return label;
    }
  }

  /** One job: its id, its skew and its payload. */
  public record Job(String id, Skew skew, String json) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private ThumbnailJobs() {}

  /**
   * {@code count} jobs with ids {@code <runId>-000...}; {@code skewed} of them, spread over the
   * run by a generator seeded from the run id, carry skew (alternating renamed id / width type).
   */
  public static List<Job> generate(String runId, int count, int skewed) {
    if (skewed > count) {
      throw new IllegalArgumentException("skewed (" + skewed + ") > count (" + count + ")");
    }
    List<Integer> positions = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      positions.add(i);
    }
    Collections.shuffle(positions, new Random(runId.hashCode()));
    List<Integer> skewedAt = positions.subList(0, skewed);
    List<Job> jobs = new ArrayList<>(count);
    int nth = 0;
    for (int i = 0; i < count; i++) {
      String id = String.format("%s-%03d", runId, i);
      Skew skew = Skew.NONE;
      if (skewedAt.contains(i)) {
        skew = (nth++ % 3 == 2) ? Skew.WIDTH_AS_STRING : Skew.RENAMED_ID;
      }
      jobs.add(new Job(id, skew, payload(id, i, skew)));
    }
    return jobs;
  }

  static String payload(String id, int n, Skew skew) {
    ObjectNode node = JSON.createObjectNode();
    node.put(skew == Skew.RENAMED_ID ? "id" : "job_id", id);
    node.put("type", "thumbnail");
    node.put("image", String.format("images/%05d.png", n));
    if (skew == Skew.WIDTH_AS_STRING) {
      node.put("width", (160 + n % 4 * 80) + "px");
    } else {
      node.put("width", 160 + n % 4 * 80);
    }
    return node.toString();
  }
}
