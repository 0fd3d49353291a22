package dev.guard.drain;

/**
 * Runs one job. Long jobs call {@link Drain#checkpoint()} between steps (never inside one): it
 * throws {@link HandBack} once the drain deadline has passed, and the loop hands the job back.
 *
 * @param <J> the job type
 */
@FunctionalInterface
public interface JobHandler<J> {

    void handle(J job, Drain drain) throws Exception;
}
