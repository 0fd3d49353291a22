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
 * How to start one process of the stack: a Java main class on a class path with JVM flags
 * ({@link #java}), or any command ({@link #command}: a Python worker, a shell script, a binary),
 * with extra environment and a working directory. Immutable; {@code with...} methods return copies.
 *
 * <p>A Java process's class path defaults to this JVM's: system property
 * {@value #CLASSPATH_PROPERTY}, else Surefire's {@code surefire.test.class.path}, else
 * {@code java.class.path}.
 */
public final class ProcessSpec {
  /** System property that overrides the class path child processes get. */
  public static final String CLASSPATH_PROPERTY = "guard.coldstart.classpath";
  /** JVM flags for a fast start: C1 only, serial GC, class-data sharing, small heap. */
  public static final List<String> FAST_START_FLAGS =
      List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xmx128m");

  private final String name;
  /** The main class of a Java process; null for a command. */
  private final String mainClass;
  /** JVM flags of a Java process; the whole command line of a command. */
  private final List<String> args;
  private final Map<String, String> env;
  private final String classpath;
  private final Path workingDirectory;

  private ProcessSpec(String name, String mainClass, List<String> args, Map<String, String> env, String classpath,
      Path workingDirectory) {
    this.name = name;
    this.mainClass = mainClass;
    this.args = List.copyOf(args);
    this.env = Map.copyOf(env);
    this.classpath = classpath;
    this.workingDirectory = workingDirectory;
  }

  /** A Java process running {@code mainClass} with the fast-start flags. */
  public static ProcessSpec java(Class<?> mainClass) {
    return java(mainClass.getName());
  }

  /** A Java process running the main class of that name with the fast-start flags. */
  public static ProcessSpec java(String mainClass) {
    Objects.requireNonNull(mainClass, "mainClass");
    String simple = mainClass.substring(mainClass.lastIndexOf('.') + 1);
    return new ProcessSpec(simple, mainClass, FAST_START_FLAGS, Map.of(), null, null);
  }

  /**
   * Any command, e.g. {@code command("python3", "worker.py")}: it gets the contract's variables in
   * its environment like a Java process. Its name for logs is the first argument that is not an
   * interpreter's option, without its directory ({@code worker.py}).
   */
  public static ProcessSpec command(String... argv) {
    return command(List.of(argv));
  }

  /** {@link #command(String...)} with a list. */
  public static ProcessSpec command(List<String> argv) {
    if (argv.isEmpty() || argv.stream().anyMatch(a -> a == null || a.isEmpty())) {
      throw new IllegalArgumentException("a command needs a program and no empty argument, was " + argv);
    }
    String named = argv.stream().skip(1).filter(a -> !a.startsWith("-")).findFirst().orElse(argv.get(0));
    return new ProcessSpec(Path.of(named).getFileName().toString(), null, argv, Map.of(), null, null);
  }

  /** Adds one environment variable (on top of the harness's contract variables). */
  public ProcessSpec withEnv(String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(env);
    copy.put(key, value);
    return new ProcessSpec(name, mainClass, args, copy, classpath, workingDirectory);
  }

  /** Replaces the JVM flags of a Java process. */
  public ProcessSpec withJvmArgs(List<String> jvmArgs) {
    requireJava("withJvmArgs");
    return new ProcessSpec(name, mainClass, jvmArgs, env, classpath, workingDirectory);
  }

  /** Uses this class path instead of the current JVM's, for a Java process. */
  public ProcessSpec withClasspath(String path) {
    requireJava("withClasspath");
    return new ProcessSpec(name, mainClass, args, env, path, workingDirectory);
  }

  /** Starts the process in this directory (default: the harness's). */
  public ProcessSpec withWorkingDirectory(Path dir) {
    return new ProcessSpec(name, mainClass, args, env, classpath, Objects.requireNonNull(dir, "dir"));
  }

  /** A short name for logs (the main class's simple name, or the script's, unless renamed). */
  public ProcessSpec named(String newName) {
    return new ProcessSpec(newName, mainClass, args, env, classpath, workingDirectory);
  }

  public String name() {
    return name;
  }

  /** The main class of a Java process; empty for a command. */
  public java.util.Optional<String> mainClass() {
    return java.util.Optional.ofNullable(mainClass);
  }

  /** The working directory, if one was set. */
  public java.util.Optional<Path> workingDirectory() {
    return java.util.Optional.ofNullable(workingDirectory);
  }

  public Map<String, String> env() {
    return env;
  }

  /** The command line: the command as given, or {@code <java> <flags> -cp <classpath> <main>}. */
  public List<String> commandLine() {
    if (mainClass == null) {
      return args;
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(javaBinary());
    cmd.addAll(args);
    cmd.add("-cp");
    cmd.add(classpath != null ? classpath : currentClasspath());
    cmd.add(mainClass);
    return cmd;
  }

  private void requireJava(String what) {
    if (mainClass == null) {
      throw new IllegalStateException(what + " is for a Java process; " + this + " is a command");
    }
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
    return name + "(" + (mainClass != null ? mainClass : String.join(" ", args)) + ")";
  }
}
