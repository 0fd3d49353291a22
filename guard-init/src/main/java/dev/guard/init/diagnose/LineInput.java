package dev.guard.init.diagnose;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Splits a byte stream into lines (LF or CRLF, UTF-8; bytes that are not UTF-8 read as U+FFFD)
 * without ever holding more than one buffer, and no line longer than {@link #MAX_LINE} bytes: the
 * rest of a longer line is skipped and counted. A capture with no log rotation can be gigabytes,
 * and one "line" of it a binary blob.
 */
final class LineInput {
    /** Bytes of a line that are kept; a connection error's text is far shorter. */
    static final int MAX_LINE = 16 * 1024;

    /** Receives each line, numbered from 1. */
    interface Sink {
        void line(int number, String text);
    }

    private final InputStream in;
    private final byte[] buf = new byte[64 * 1024];
    private int cut;

    LineInput(InputStream in) {
        this.in = in;
    }

    /** Lines longer than {@link #MAX_LINE} seen so far. */
    int cutLines() {
        return cut;
    }

    /** Feeds every line to {@code sink}; returns how many there were. */
    int forEach(Sink sink) throws IOException {
        int number = 0;
        int start = 0;
        int end = 0;
        boolean skipping = false;
        while (true) {
            int n = in.read(buf, end, buf.length - end);
            if (n < 0) {
                break;
            }
            int scanFrom = end;
            end += n;
            for (int i = scanFrom; i < end; i++) {
                if (buf[i] != '\n') {
                    continue;
                }
                if (!skipping) {
                    if (i - start > MAX_LINE) {
                        sink.line(++number, text(start, start + MAX_LINE));
                        cut++;
                    } else {
                        sink.line(++number, text(start, i));
                    }
                }
                skipping = false;
                start = i + 1;
            }
            if (!skipping && end - start > MAX_LINE) {
                // a line longer than the limit: keep its start, skip to its end
                sink.line(++number, text(start, start + MAX_LINE));
                cut++;
                skipping = true;
                start = end;
            }
            if (skipping) {
                start = end;
            }
            if (start > 0) {
                System.arraycopy(buf, start, buf, 0, end - start);
                end -= start;
                start = 0;
            }
        }
        if (!skipping && end > start) {
            sink.line(++number, text(start, Math.min(end, start + MAX_LINE)));
        }
        return number;
    }

    private String text(int from, int to) {
        if (to > from && buf[to - 1] == '\r') {
            to--;
        }
        return new String(buf, from, to - from, StandardCharsets.UTF_8);
    }
}
