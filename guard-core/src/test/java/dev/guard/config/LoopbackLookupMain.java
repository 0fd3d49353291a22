package dev.guard.config;

/** Child-JVM helper for {@link EndpointsTest}: prints {@code name lookup=<isLoopback>} per argument. */
public final class LoopbackLookupMain {

    private LoopbackLookupMain() {}

    public static void main(String[] args) {
        for (String name : args) {
            if (Endpoints.loopbackWithoutLookup(name) != null) {
                throw new IllegalStateException(name + " was decided without a lookup");
            }
            System.out.println(name + " lookup=" + Endpoints.isLoopback(name));
        }
    }
}
