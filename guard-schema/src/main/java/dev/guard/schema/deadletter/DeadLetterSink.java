package dev.guard.schema.deadletter;

/**
 * Where rejected and failed jobs go. {@link #write(DeadLetter)} returns only once the destination
 * has the letter (acknowledged by the server where the protocol allows); otherwise it throws, and the
 * caller must not acknowledge the original message.
 */
@FunctionalInterface
public interface DeadLetterSink {

    /**
     * Stores one dead letter.
     *
     * @throws DeadLetterException when the destination did not confirm the write
     */
    void write(DeadLetter letter) throws DeadLetterException;
}
