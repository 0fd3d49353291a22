package dev.guard.init.diagnose;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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

    /** Receives each line, numbered from 1: its bytes {@code buf[from, to)} without the line end, valid only during the call. */
    interface Sink {
        void line(int number, byte[] buf, int from, int to);
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
            for (int i = newline(buf, scanFrom, end); i >= 0; i = newline(buf, i + 1, end)) {
                if (!skipping) {
                    if (i - start > MAX_LINE) {
                        emit(sink, ++number, start, start + MAX_LINE);
                        cut++;
                    } else {
                        emit(sink, ++number, start, i);
                    }
                }
                skipping = false;
                start = i + 1;
            }
            if (!skipping && end - start > MAX_LINE) {
                // a line longer than the limit: keep its start, skip to its end
                emit(sink, ++number, start, start + MAX_LINE);
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
            emit(sink, ++number, start, Math.min(end, start + MAX_LINE));
        }
        return number;
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;

    /**
     * The index of the first {@code \n} in {@code b[from, to)}, or -1: eight bytes at a time (a byte
     * is {@code \n} where {@code x ^ 0x0A..} has a zero byte, found by the usual bit trick), the
     * rest one by one. Most of a capture's bytes are looked at here.
     */
    static int newline(byte[] b, int from, int to) {
        int i = from;
        for (int last = to - 8; i <= last; i += 8) {
            long y = (long) LONGS.get(b, i) ^ NEWLINES;
            long zero = (y - ONES) & ~y & HIGHS;
            if (zero != 0) {
                return i + (Long.numberOfTrailingZeros(zero) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** True when every byte of {@code b[from, to)} is below 0x80: then each is one character. */
    static boolean ascii(byte[] b, int from, int to) {
        int i = from;
        long high = 0;
        for (int last = to - 8; i <= last; i += 8) {
            high |= (long) LONGS.get(b, i);
        }
        for (; i < to; i++) {
            high |= b[i];
        }
        return (high & HIGHS) == 0;
    }

    private void emit(Sink sink, int number, int from, int to) {
        if (to > from && buf[to - 1] == '\r') {
            to--;
        }
        sink.line(number, buf, from, to);
    }

    /** The text of {@code b[from, to)}: each byte a character when they are all ASCII, else decoded as UTF-8. */
    static String text(byte[] b, int from, int to) {
        return new String(b, from, to - from, ascii(b, from, to) ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
    }
}
