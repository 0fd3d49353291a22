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
 * ({@link #java}), any command ({@link #command}: a Python worker, a shell script, a binary), or a
 * container image ({@link #container}), with extra environment. Immutable; {@code with...} methods
 * return copies.
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
  /** The image of a container; null for a process. */
  private final String image;

  private ProcessSpec(String name, String mainClass, List<String> args, Map<String, String> env, String classpath,
      Path workingDirectory) {
    this(name, mainClass, null, args, env, classpath, workingDirectory);
  }

  private ProcessSpec(String name, String mainClass, String image, List<String> args, Map<String, String> env,
      String classpath, Path workingDirectory) {
    this.name = name;
    this.mainClass = mainClass;
    this.image = image;
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

  /**
   * A container of {@code image}, with {@code command} as its command (none: the image's own), run
   * through Testcontainers on the host's network, so the run's {@code 127.0.0.1} URLs reach the
   * servers. It gets the run's variables and its own {@link #withEnv} ones, nothing of the
   * harness's environment; its output goes to its log like a process's; stopping it is SIGTERM,
   * then SIGKILL after 10 s. The image must be on the engine already or pullable.
   */
  public static ProcessSpec container(String image, String... command) {
    Objects.requireNonNull(image, "image");
    String repository = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
    int slash = repository.lastIndexOf('/');
    int colon = repository.lastIndexOf(':');
    String named = repository.substring(slash + 1, colon > slash ? colon : repository.length());
    return new ProcessSpec(named, null, image, List.of(command), Map.of(), null, null);
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
    return new ProcessSpec(name, mainClass, image, args, copy, classpath, workingDirectory);
  }

  /** Replaces the JVM flags of a Java process. */
  public ProcessSpec withJvmArgs(List<String> jvmArgs) {
    requireJava("withJvmArgs");
    return new ProcessSpec(name, mainClass, image, jvmArgs, env, classpath, workingDirectory);
  }

  /** Uses this class path instead of the current JVM's, for a Java process. */
  public ProcessSpec withClasspath(String path) {
    requireJava("withClasspath");
    return new ProcessSpec(name, mainClass, image, args, env, path, workingDirectory);
  }

  /** Starts the process in this directory (default: the harness's). */
  public ProcessSpec withWorkingDirectory(Path dir) {
    if (image != null) {
      throw new IllegalStateException("withWorkingDirectory is for a process; " + this + " is a container");
    }
    return new ProcessSpec(name, mainClass, image, args, env, classpath, Objects.requireNonNull(dir, "dir"));
  }

  /** A short name for logs (the main class's simple name, or the script's, unless renamed). */
  public ProcessSpec named(String newName) {
    return new ProcessSpec(newName, mainClass, image, args, env, classpath, workingDirectory);
  }

  public String name() {
    return name;
  }

  /** The main class of a Java process; empty for a command. */
  public java.util.Optional<String> mainClass() {
    return java.util.Optional.ofNullable(mainClass);
  }

  /** The image of a container; empty for a process. */
  public java.util.Optional<String> image() {
    return java.util.Optional.ofNullable(image);
  }

  /** The working directory, if one was set. */
  public java.util.Optional<Path> workingDirectory() {
    return java.util.Optional.ofNullable(workingDirectory);
  }

  public Map<String, String> env() {
    return env;
  }

  /**
   * The command line: the command as given, {@code <java> <flags> -cp <classpath> <main>}, or for
   * a container its command (empty: the image's own).
   */
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
      throw new IllegalStateException(what + " is for a Java process; " + this + " is "
          + (image != null ? "a container" : "a command"));
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
    if (image != null) {
      return name + "(container " + image + (args.isEmpty() ? "" : " " + String.join(" ", args)) + ")";
    }
    return name + "(" + (mainClass != null ? mainClass : String.join(" ", args)) + ")";
  }
}
