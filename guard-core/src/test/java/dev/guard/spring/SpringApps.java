package dev.guard.spring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Starts real Spring Boot applications in this JVM, as a worker's {@code main} would: the
 * auto-configuration from its registration file, an {@code application.yml} read from a file,
 * and a process environment of the test's choosing (Spring reads it from its
 * {@code systemEnvironment} source, which the test replaces: the JVM's own cannot be changed).
 */
public final class SpringApps {

    /** A worker with nothing of its own but what the test adds. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Worker {}

    private SpringApps() {}

    /** The Spring Boot major version on the class path, checked against the build's expectation. */
    public static String bootVersion() {
        return SpringBootVersion.getVersion();
    }

    /**
     * Fails unless the Spring Boot on the class path is the major version this build tests
     * (system property {@code guard.spring.expectBoot}, 3 unless the Boot 4 module sets it).
     */
    public static void assertBootUnderTest() {
        String expected = System.getProperty("guard.spring.expectBoot", "3");
        if (!bootVersion().startsWith(expected + ".")) {
            throw new AssertionError("Spring Boot " + bootVersion() + " on the class path; this build tests Boot " + expected);
        }
    }

    /** An application starting in a thread of its own, as a worker's {@code main} would; the test watches it wait. */
    public static final class Starting {
        private final Thread main;
        private final AtomicReference<Object> outcome = new AtomicReference<>();

        private Starting(String yaml, Class<?> source) {
            main = new Thread(() -> {
                try {
                    outcome.set(run(Map.of(), yaml, List.of(source)));
                } catch (Throwable t) {
                    outcome.set(t);
                }
            }, "spring-main");
            main.start();
        }

        /** Whether the start has ended, started or failed. */
        public boolean done() {
            return !main.isAlive();
        }

        /** Waits until {@code condition} holds, the start ends, or {@code timeout} passes; then tells whether it holds. */
        public boolean await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
            long until = System.nanoTime() + timeout.toNanos();
            while (!condition.getAsBoolean() && System.nanoTime() < until && main.isAlive()) {
                Thread.sleep(10);
            }
            return condition.getAsBoolean();
        }

        /** The started application; fails if it is still starting after {@code timeout} or failed to start. */
        public ConfigurableApplicationContext awaitStarted(Duration timeout, Object context) throws InterruptedException {
            main.join(timeout.toMillis());
            if (main.isAlive()) {
                throw new AssertionError("the application had not started " + timeout.toSeconds() + " s later: " + context);
            }
            if (outcome.get() instanceof Throwable t) {
                throw new AssertionError("the application failed to start: " + context, t);
            }
            return (ConfigurableApplicationContext) outcome.get();
        }

        @Override
        public String toString() {
            return main.isAlive() ? "starting" : String.valueOf(outcome.get());
        }
    }

    /** Starts {@code source} with an {@code application.yml} of {@code yaml} in a thread of its own. */
    public static Starting start(String yaml, Class<?> source) {
        return new Starting(yaml, source);
    }

    /**
     * A worker process: {@code java} running {@code main} on this test's class path with
     * {@code args}, both output streams written to {@code out}. Not started: the caller may
     * change its environment first.
     */
    public static ProcessBuilder process(Class<?> main, Path out, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
    }

    /**
     * Runs {@code sources} as one application with the given process environment, an
     * {@code application.yml} of {@code yaml}, and {@code args} on its command line.
     */
    public static ConfigurableApplicationContext run(Map<String, String> env, String yaml, List<Class<?>> sources, String... args) {
        Path dir;
        try {
            dir = Files.createTempDirectory("guard-spring-");
            Files.writeString(dir.resolve("application.yml"), yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Class<?>> all = new ArrayList<>();
        all.add(Worker.class);
        all.addAll(sources);
        SpringApplication app = new SpringApplication(all.toArray(Class<?>[]::new));
        app.setWebApplicationType(WebApplicationType.NONE);
        app.setBannerMode(org.springframework.boot.Banner.Mode.OFF);
        app.setEnvironment(new StandardEnvironment() {
            @Override
            protected void customizePropertySources(MutablePropertySources sources) {
                super.customizePropertySources(sources);
                sources.replace(SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        new SystemEnvironmentPropertySource(SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new java.util.HashMap<String, Object>(env)));
            }
        });
        // this machine may itself run in a container: the test's environment decides, as KUBERNETES_SERVICE_HOST would
        List<String> all2 = new ArrayList<>(List.of("--spring.config.location=file:" + dir.resolve("application.yml"),
                "--guard.config.in-container=" + env.containsKey("KUBERNETES_SERVICE_HOST")));
        all2.addAll(List.of(args));
        return app.run(all2.toArray(String[]::new));
    }
}
