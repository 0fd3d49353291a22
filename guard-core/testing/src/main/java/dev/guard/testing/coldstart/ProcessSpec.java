package dev.guard.testing.coldstart;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How to start one process of the stack: a Java main class on a class path, JVM flags and extra
 * environment. Immutable; {@code with...} methods return copies.
 *
 * <p>The class path defaults to this JVM's: system property {@value #CLASSPATH_PROPERTY}, else
 * Surefire's {@code surefire.test.class.path}, else {@code java.class.path}.
 */
public final class ProcessSpec {
  /** System property that overrides the class path child processes get. */
  public static final String CLASSPATH_PROPERTY = "guard.coldstart.classpath";
  /** JVM flags for a fast start: C1 only, serial GC, class-data sharing, small heap. */
  public static final List<String> FAST_START_FLAGS =
      List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xmx128m");

  private final String name;
  private final String mainClass;
  private final List<String> jvmArgs;
  private final Map<String, String> env;
  private final String classpath;

  private ProcessSpec(String name, String mainClass, List<String> jvmArgs, Map<String, String> env, String classpath) {
    this.name = name;
    this.mainClass = mainClass;
    this.jvmArgs = List.copyOf(jvmArgs);
    this.env = Map.copyOf(env);
    this.classpath = classpath;
  }

  /** A Java process running {@code mainClass} with the fast-start flags. */
  public static ProcessSpec java(Class<?> mainClass) {
    return java(mainClass.getName());
  }

  /** A Java process running the main class of that name with the fast-start flags. */
  public static ProcessSpec java(String mainClass) {
    Objects.requireNonNull(mainClass, "mainClass");
    String simple = mainClass.substring(mainClass.lastIndexOf('.') + 1);
    return new ProcessSpec(simple, mainClass, FAST_START_FLAGS, Map.of(), null);
  }

  /** Adds one environment variable (on top of the harness's contract variables). */
  public ProcessSpec withEnv(String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(env);
    copy.put(key, value);
    return new ProcessSpec(name, mainClass, jvmArgs, copy, classpath);
  }

  /** Replaces the JVM flags. */
  public ProcessSpec withJvmArgs(List<String> args) {
    return new ProcessSpec(name, mainClass, args, env, classpath);
  }

  /** Uses this class path instead of the current JVM's. */
  public ProcessSpec withClasspath(String path) {
    return new ProcessSpec(name, mainClass, jvmArgs, env, path);
  }

  /** A short name for logs (the main class's simple name unless renamed). */
  public ProcessSpec named(String newName) {
    return new ProcessSpec(newName, mainClass, jvmArgs, env, classpath);
  }

  public String name() {
    return name;
  }

  public String mainClass() {
    return mainClass;
  }

  public Map<String, String> env() {
    return env;
  }

  /** The command line: {@code <java> <flags> -cp <classpath> <main>}. */
  public List<String> command() {
    List<String> cmd = new ArrayList<>();
    cmd.add(javaBinary());
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(classpath != null ? classpath : currentClasspath());
    cmd.add(mainClass);
    return cmd;
  }

  static String javaBinary() {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    return Files.isExecutable(java) ? java.toString() : "java";
  }

  static String currentClasspath() {
    String cp = System.getProperty(CLASSPATH_PROPERTY);
    if (cp == null || cp.isBlank()) {
      cp = System.getProperty("surefire.test.class.path");
    }
    if (cp == null || cp.isBlank()) {
      cp = System.getProperty("java.class.path");
    }
    return cp.replace(':', File.pathSeparatorChar);
  }

  @Override
  public String toString() {
    return name + "(" + mainClass + ")";
  }
}
