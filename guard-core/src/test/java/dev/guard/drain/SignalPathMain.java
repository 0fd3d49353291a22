package dev.guard.drain;

import java.time.Duration;

/**
 * The child of {@link SignalPathProcessTest}: prints what {@link SignalPath} finds, installs a
 * drain, and prints when a stop reaches it (or gives up after 30 s).
 */
public final class SignalPathMain {

    private SignalPathMain() {}

    public static void main(String[] args) throws InterruptedException {
        SignalPath path = SignalPath.inspect();
        System.out.println("kind=" + path.kind());
        System.out.println("describe=" + path.describe());
        Drain drain = Drain.install(DrainConfig.builder().gracePeriod(Duration.ofSeconds(2))
                .safetyMargin(Duration.ofMillis(500)).build());
        System.out.println("drain installed");
        System.out.flush();
        if (drain.awaitStop(Duration.ofSeconds(30))) {
            System.out.println("stop requested: " + drain.receipt().reason());
        } else {
            System.out.println("no stop within 30 s");
        }
        drain.finish();
        System.out.flush();
    }
}
