package dev.guard.testing.coldstart;

/**
 * Adjusts the harness for {@link ColdStartTest} beyond what the annotation says (a custom
 * {@link StackServices}, timeouts, a fixed order). Needs a public no-argument constructor.
 */
public interface ColdStartConfigurer {
  /** Called with a builder already holding the annotation's settings. */
  void configure(ColdStart.Builder builder);

  /** Changes nothing (the annotation's default). */
  final class None implements ColdStartConfigurer {
    @Override
    public void configure(ColdStart.Builder builder) {}
  }
}
