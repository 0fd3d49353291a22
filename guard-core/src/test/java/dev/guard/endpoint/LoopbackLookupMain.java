package dev.guard.endpoint;

/** Child-JVM helper for {@link EndpointsTest}: prints {@code name lookup=<isLoopback>} per argument. */
public final class LoopbackLookupMain {

    private LoopbackLookupMain() {}

    public static void main(String[] args) {
        // generous bound: the machine may be loaded; a slow answer must not turn into "not loopback"
        System.out.println("all lookup=" + Loopback.hosts(java.util.List.of(args), java.time.Duration.ofSeconds(30))
                .stream().sorted().toList());
        for (String name : args) {
            if (Loopback.withoutLookup(name) != null) {
                throw new IllegalStateException(name + " was decided without a lookup");
            }
            System.out.println(name + " lookup=" + Loopback.isLoopback(name, java.time.Duration.ofSeconds(30)));
        }
    }
}
