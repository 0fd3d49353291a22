package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;

class NoLeakedProcessesTest {

    @Test
    void aChildStillAliveAfterTheClassFailsItAndIsKilled() throws Exception {
        NoLeakedProcesses extension = new NoLeakedProcesses(Duration.ofMillis(300));
        ExtensionContext context = fakeContext();
        extension.beforeAll(context);
        Process leaked = new ProcessBuilder("sleep", "60").start();
        try {
            AssertionError error = assertThrows(AssertionError.class, () -> extension.afterAll(context));
            assertTrue(error.getMessage().startsWith("LeakyTest leaked 1 child process(es), still alive 300 ms after"),
                    error.getMessage());
            assertTrue(error.getMessage().contains(leaked.pid() + " "), error.getMessage());
            assertTrue(error.getMessage().contains("sleep 60"), error.getMessage());
            leaked.waitFor();
            assertFalse(leaked.isAlive(), "the extension kills what leaked");
        } finally {
            leaked.destroyForcibly();
        }
    }

    @Test
    void aStoppedServerIsNotALeak() throws Exception {
        NoLeakedProcesses extension = new NoLeakedProcesses(Patience.WAIT);
        ExtensionContext context = fakeContext();
        extension.beforeAll(context);
        RedisServer.builder().build().start().close();
        assertDoesNotThrow(() -> extension.afterAll(context));
    }

    /** Just enough ExtensionContext for the extension: a display name and a store. */
    private static ExtensionContext fakeContext() {
        Map<Object, Object> values = new HashMap<>();
        ExtensionContext.Store store = (ExtensionContext.Store) Proxy.newProxyInstance(
                ExtensionContext.Store.class.getClassLoader(), new Class<?>[] {ExtensionContext.Store.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "put" -> values.put(args[0], args[1]);
                    case "get" -> values.get(args[0]);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return (ExtensionContext) Proxy.newProxyInstance(ExtensionContext.class.getClassLoader(),
                new Class<?>[] {ExtensionContext.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getStore" -> store;
                    case "getDisplayName" -> "LeakyTest";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
