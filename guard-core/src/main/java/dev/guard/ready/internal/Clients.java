package dev.guard.ready.internal;

/** Checks that an optional broker client library is on the classpath. */
public final class Clients {

    private Clients() {}

    /** True when {@code className} can be loaded by guard's class loader. */
    public static boolean present(String className) {
        try {
            Class.forName(className, false, Clients.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The message for a missing client: {@code add io.lettuce:lettuce-core to use redis:// targets}. */
    public static String missingMessage(String artifact, String schemes) {
        return "add " + artifact + " to use " + schemes + " targets (it is an optional dependency of guard-core"
                + " and is not on the classpath)";
    }

    /** Throws IllegalStateException with {@link #missingMessage} when the class is absent. */
    public static void require(String className, String artifact, String schemes) {
        if (!present(className)) {
            throw new IllegalStateException(missingMessage(artifact, schemes));
        }
    }
}
