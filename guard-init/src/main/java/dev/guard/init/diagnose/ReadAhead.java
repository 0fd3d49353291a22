package dev.guard.init.diagnose;

import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads a file's lines on a thread of its own, beside the parsing: splitting the bytes into lines,
 * taking the prefixes off, decoding, finding the words and telling the lines' kinds
 * ({@link LogReader.Prefixes}) is about half the work of a large capture, and the image's
 * container has two cores. Lines pass in order,
 * in batches; at most {@link #BATCHES} batches of at most {@link #BATCH_LINES} lines or about
 * {@link #BATCH_CHARS} characters exist at once, so memory stays bounded whatever the file's size.
 *
 * <p>The two threads share the words' search: a batch begun while at most one full batch waits
 * (the parsing keeps up) goes without its words, which the parsing then finds itself, line by
 * line, where it needs them; so neither thread idles long while the other has work it could take.
 */
final class ReadAhead implements AutoCloseable {
    static final int BATCHES = 4;
    static final int BATCH_LINES = 256;
    static final int BATCH_CHARS = 16 * 1024;

    /** What the reading thread runs: it hands every line to {@code out}. */
    interface Reading {
        void run(LogReader.Prefixed out) throws IOException;
    }

    /** What the reading thread hands over, and whether it finds the words of the batch it fills. */
    private final class Out implements LogReader.Prefixed {
        boolean words = true;

        @Override
        public void line(int number, String service, Stamps.Stamp stamp, String text, Words.Found found, LineKind kind) {
            add(number, service, stamp, text, found, kind, this);
        }

        @Override
        public boolean wantsWords() {
            return words;
        }
    }

    private static final class Batch {
        final int[] number = new int[BATCH_LINES];
        final String[] service = new String[BATCH_LINES];
        final Stamps.Stamp[] stamp = new Stamps.Stamp[BATCH_LINES];
        final String[] text = new String[BATCH_LINES];
        final Words.Found[] words = new Words.Found[BATCH_LINES];
        final LineKind[] kind = new LineKind[BATCH_LINES];
        int size;
        int chars;
        boolean last;
        Throwable failure;
    }

    /** The reading thread was told to stop: the parsing failed. */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super(null, null, false, false);
        }
    }

    private final BlockingQueue<Batch> full = new ArrayBlockingQueue<>(BATCHES);
    private final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(BATCHES);
    private final Thread thread;
    private Batch filling;

    ReadAhead(String name, Reading reading) {
        for (int i = 0; i < BATCHES; i++) {
            free.add(new Batch());
        }
        thread = new Thread(() -> run(reading), "guard-diagnose-read " + name);
        thread.setDaemon(true);
        thread.start();
    }

    private void run(Reading reading) {
        Throwable failure = null;
        try {
            reading.run(new Out());
        } catch (Stopped e) {
            return;
        } catch (Throwable t) {
            failure = t;
        }
        try {
            Batch b = filling != null ? filling : free.take();
            b.last = true;
            b.failure = failure;
            full.put(b);
        } catch (InterruptedException e) {
            // stopped while handing over the end: nobody waits for it
        }
    }

    private void add(int number, String service, Stamps.Stamp stamp, String text, Words.Found words, LineKind kind, Out out) {
        Batch b = filling;
        if (b == null) {
            try {
                b = free.take();
            } catch (InterruptedException e) {
                throw new Stopped();
            }
            filling = b;
            // this batch's words: found here while the parsing lags (two batches or more wait), else left to it
            out.words = full.size() > 1;
        }
        int i = b.size++;
        b.number[i] = number;
        b.service[i] = service;
        b.stamp[i] = stamp;
        b.text[i] = text;
        b.words[i] = words;
        b.kind[i] = kind;
        b.chars += text.length();
        if (b.size == BATCH_LINES || b.chars >= BATCH_CHARS) {
            filling = null;
            try {
                full.put(b);
            } catch (InterruptedException e) {
                throw new Stopped();
            }
        }
    }

    /** Hands every line to {@code to}, in order, on the calling thread; rethrows what the reading failed with. */
    void drain(LogReader.Prefixed to) throws IOException {
        while (true) {
            Batch b;
            try {
                b = full.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while reading", e);
            }
            for (int i = 0; i < b.size; i++) {
                to.line(b.number[i], b.service[i], b.stamp[i], b.text[i], b.words[i], b.kind[i]);
                b.service[i] = null;
                b.stamp[i] = null;
                b.text[i] = null;
                b.words[i] = null;
            }
            if (b.last) {
                Throwable f = b.failure;
                if (f instanceof IOException e) {
                    throw e;
                } else if (f instanceof RuntimeException e) {
                    throw e;
                } else if (f instanceof Error e) {
                    throw e;
                }
                return;
            }
            b.size = 0;
            b.chars = 0;
            free.add(b);
        }
    }

    /** Stops the reading thread when the parsing ended early (it failed), and waits a moment for it. */
    @Override
    public void close() {
        if (thread.isAlive()) {
            thread.interrupt();
            try {
                thread.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
