package dev.guard.init.diagnose;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Names why a worker drops jobs, from the files captured before anyone restarted anything.
 *
 * <pre>{@code
 * Diagnosis d = Diagnoser.builder().endpoint("redis:6379").build()
 *         .diagnose(List.of(Path.of("worker.log"), Path.of("redis.log")));
 * d.causeLine();   // "cause: startup-race"
 * }</pre>
 */
public final class Diagnoser {
    private final List<String> endpoints;

    Diagnoser(Builder b) {
        this.endpoints = List.copyOf(b.endpoints);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Reads the files (their kind is told from their content) and decides. */
    public Diagnosis diagnose(List<Path> files) throws DiagnoseInputException {
        Intake intake = new Intake();
        for (Path f : previousFirst(files, p -> p.toString())) {
            LogReader.read(f, f.toString(), intake);
        }
        return decide(intake);
    }

    /** Decides from texts already in memory: name to content, in order. */
    public Diagnosis diagnoseTexts(java.util.Map<String, String> texts) {
        Intake intake = new Intake();
        for (String name : previousFirst(new ArrayList<>(texts.keySet()), n -> n)) {
            LogReader.read(texts.get(name), name, intake);
        }
        return decide(intake);
    }

    /** A --previous capture's lines come before the current ones: it is read first. */
    private static <T> List<T> previousFirst(List<T> inputs, java.util.function.Function<T, String> name) {
        List<T> ordered = new ArrayList<>(inputs);
        ordered.sort(java.util.Comparator.comparing(i -> !LogReader.isPrevious(name.apply(i))));
        return ordered;
    }

    private Diagnosis decide(Intake intake) {
        KnownEndpoints known = new KnownEndpoints();
        for (String e : endpoints) {
            known.add(e, "--endpoint");
        }
        return Rules.decide(intake, known);
    }

    /** Builds a {@link Diagnoser}. */
    public static final class Builder {
        private final List<String> endpoints = new ArrayList<>();

        Builder() {}

        /** A host the workers should reach: {@code HOST}, {@code HOST:PORT}, a URL or a list of them (e.g. {@code redis:6379}). */
        public Builder endpoint(String hostPort) {
            if (hostPort == null || hostPort.isBlank()) {
                throw new IllegalArgumentException("endpoint must be HOST or HOST:PORT, got '" + hostPort + "'");
            }
            try {
                dev.guard.endpoint.Endpoints.parse(hostPort.trim());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("endpoint must be HOST, HOST:PORT or a URL: " + e.getMessage());
            }
            endpoints.add(hostPort.trim());
            return this;
        }

        public Builder endpoints(List<String> hostPorts) {
            hostPorts.forEach(this::endpoint);
            return this;
        }

        public Diagnoser build() {
            return new Diagnoser(this);
        }
    }
}
