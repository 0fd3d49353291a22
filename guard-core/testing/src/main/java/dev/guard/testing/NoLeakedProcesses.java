package dev.guard.testing;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit extension ({@code @ExtendWith(NoLeakedProcesses.class)}): fails the test class if a
 * child process of the test JVM started during the class is still alive after it (given
 * 5 s to exit), naming each leaked process and its command line.
 */
public final class NoLeakedProcesses implements BeforeAllCallback, AfterAllCallback {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(NoLeakedProcesses.class);

    private final java.time.Duration grace;

    /** Gives leftover children 30 s to exit (a hang guard; it returns as soon as they are gone). */
    public NoLeakedProcesses() {
        this(java.time.Duration.ofSeconds(30)); // bounded wait for children to exit; a dying JVM on a busy machine can take seconds
    }

    NoLeakedProcesses(java.time.Duration grace) {
        this.grace = grace;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NS).put("before", descendantPids());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        @SuppressWarnings("unchecked")
        Set<Long> before = context.getStore(NS).get("before", Set.class);
        long deadline = System.nanoTime() + grace.toNanos();
        List<ProcessHandle> leaked;
        do {
            leaked = ProcessHandle.current().descendants()
                    .filter(ProcessHandle::isAlive)
                    .filter(p -> before == null || !before.contains(p.pid()))
                    .toList();
            if (leaked.isEmpty()) {
                return;
            }
            Children.sleep(100);
        } while (System.nanoTime() < deadline);
        String described = leaked.stream()
                .map(p -> p.pid() + " " + p.info().commandLine().orElse(p.info().command().orElse("?")))
                .collect(Collectors.joining("\n  "));
        leaked.forEach(ProcessHandle::destroyForcibly);
        throw new AssertionError(context.getDisplayName() + " leaked " + leaked.size()
                + " child process(es), still alive " + grace.toMillis() + " ms after the class ended (now killed):\n  " + described
                + "\nStop every server a test starts (try-with-resources or @AfterAll close()).");
    }

    /** PIDs of the test JVM's live descendants. */
    static Set<Long> descendantPids() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .map(ProcessHandle::pid).collect(Collectors.toSet());
    }
}
