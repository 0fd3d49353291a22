package dev.guard.schema.deadletter;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/** A dead-letter sink in memory, for tests; can be told to fail. */
public final class InMemoryDeadLetters implements DeadLetterSink {

    private final List<DeadLetter> letters = new CopyOnWriteArrayList<>();
    private final AtomicBoolean failing = new AtomicBoolean();

    @Override
    public void write(DeadLetter letter) {
        if (failing.get()) {
            throw new DeadLetterException("in-memory sink told to fail (job " + letter.jobId() + ")");
        }
        letters.add(letter);
    }

    public void failing(boolean fail) {
        failing.set(fail);
    }

    public List<DeadLetter> letters() {
        return List.copyOf(letters);
    }
}
