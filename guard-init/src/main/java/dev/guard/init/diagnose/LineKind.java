package dev.guard.init.diagnose;

/**
 * What a line of an application log is, decided before its words are read: only an
 * {@link #EVENT}'s words can name a failure. A Kafka client's configuration dump says
 * {@code socket.connection.setup.timeout.ms = 10000} at every start, and a Celery traceback quotes
 * {@code self.drain_events(timeout=self.connect_timeout)}; neither is a timeout that happened.
 */
enum LineKind {
    /** A line that reports something: a message, an exception, a chain's {@code Caused by:}. */
    EVENT,
    /** A setting printed at start: {@code \tsasl.login.connect.timeout.ms = null} (kafka-clients' {@code ConsumerConfig values:}). */
    SETTING,
    /**
     * Where a stack trace or traceback was: {@code \tat ...}, {@code ... 6 more}, {@code   File "x.py", line 3, in f},
     * {@code     at f (x.js:1:2)}, {@code /x.rb:12:in 'm'}, {@code #0 /x.php(12): f()}, {@code \t/x.go:12 +0x1d}.
     */
    FRAME,
    /** The code a traceback quotes under a frame ({@code     sock = self._connect()}), and its {@code ^^^^} marks. */
    SOURCE;

    /** True for the lines that only say where an error was: they count as one with the error for {@link ChainWindow}. */
    boolean trace() {
        return this == FRAME || this == SOURCE;
    }
}
