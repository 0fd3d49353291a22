package dev.guard.init.diagnose;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds every {@link Word} in a line in one pass, case-insensitive: an Aho-Corasick automaton over
 * ASCII, built once. A parser asks {@link Found#any} before it runs a regular expression, so a
 * line of noise costs one pass instead of dozens of searches.
 */
final class Words {
    private static final int WORDS = Word.values().length;
    private static final int LONGS = (WORDS + 63) / 64;
    /**
     * The automaton over bytes: for each state 256 entries, the next state times 256, negative when
     * that state ends a word. Upper case steps as lower case; a byte of 0x80 or more (and so any
     * character beyond ASCII) goes back to the start, since no word holds one.
     */
    private static final int[] STEP;
    private static final long[] OUT;

    static {
        List<int[]> children = new ArrayList<>();
        List<long[]> out = new ArrayList<>();
        children.add(new int[128]);
        out.add(new long[LONGS]);
        for (Word w : Word.values()) {
            int s = 0;
            for (char c : w.text.toCharArray()) {
                if (c >= 128 || Character.isUpperCase(c)) {
                    throw new IllegalStateException("word '" + w.text + "' must be lower-case ASCII");
                }
                if (children.get(s)[c] == 0) {
                    children.add(new int[128]);
                    out.add(new long[LONGS]);
                    children.get(s)[c] = children.size() - 1;
                }
                s = children.get(s)[c];
            }
            out.get(s)[w.ordinal() >>> 6] |= 1L << (w.ordinal() & 63);
        }
        int n = children.size();
        int[] fail = new int[n];
        int[] delta = new int[n * 128];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int c = 0; c < 128; c++) {
            int child = children.get(0)[c];
            delta[c] = child;
            if (child != 0) {
                queue.add(child);
            }
        }
        while (!queue.isEmpty()) {
            int s = queue.poll();
            long[] o = out.get(s);
            long[] fo = out.get(fail[s]);
            for (int i = 0; i < LONGS; i++) {
                o[i] |= fo[i];
            }
            for (int c = 0; c < 128; c++) {
                int child = children.get(s)[c];
                if (child != 0) {
                    fail[child] = delta[fail[s] * 128 + c];
                    delta[s * 128 + c] = child;
                    queue.add(child);
                } else {
                    delta[s * 128 + c] = delta[fail[s] * 128 + c];
                }
            }
        }
        OUT = new long[n * LONGS];
        boolean[] hasOut = new boolean[n];
        for (int s = 0; s < n; s++) {
            for (int i = 0; i < LONGS; i++) {
                OUT[s * LONGS + i] = out.get(s)[i];
                hasOut[s] |= out.get(s)[i] != 0;
            }
        }
        STEP = new int[n * 256];
        for (int s = 0; s < n; s++) {
            for (int c = 0; c < 256; c++) {
                int lower = c >= 'A' && c <= 'Z' ? c + 32 : c;
                int next = c >= 128 ? 0 : delta[s * 128 + lower];
                STEP[s << 8 | c] = hasOut[next] ? -(next << 8) : next << 8;
            }
        }
    }

    private Words() {}

    /** The words a line holds. */
    static final class Found {
        private final long[] bits;

        private Found(long[] bits) {
            this.bits = bits;
        }

        boolean has(Word w) {
            return (bits[w.ordinal() >>> 6] & 1L << (w.ordinal() & 63)) != 0;
        }

        /** True when the line holds at least one word of {@code mask}. */
        boolean any(long[] mask) {
            for (int i = 0; i < LONGS; i++) {
                if ((bits[i] & mask[i]) != 0) {
                    return true;
                }
            }
            return false;
        }

        boolean none() {
            for (long b : bits) {
                if (b != 0) {
                    return false;
                }
            }
            return true;
        }
    }

    /** A set of words to test with {@link Found#any}. */
    static long[] mask(Word... words) {
        long[] m = new long[LONGS];
        for (Word w : words) {
            m[w.ordinal() >>> 6] |= 1L << (w.ordinal() & 63);
        }
        return m;
    }

    /** No word at all: shared, since most lines of a large capture are such. */
    static final Found NONE = new Found(new long[LONGS]);

    static Found in(String t) {
        byte[] b = t.getBytes(StandardCharsets.UTF_8);
        return in(b, 0, b.length);
    }

    /**
     * The words of the UTF-8 text {@code b[from, to)}, read on its bytes: every byte of a character
     * beyond ASCII is 0x80 or more, and such a character breaks a word either way, so this finds
     * what a search of the decoded text finds.
     */
    static Found in(byte[] b, int from, int to) {
        long[] bits = null;
        int[] step = STEP;
        int state = 0;
        for (int i = from; i < to; i++) {
            int e = step[state | b[i] & 0xFF];
            if (e >= 0) {
                state = e;
            } else {
                state = -e;
                bits = found(bits, state >>> 8);
            }
        }
        return bits == null ? NONE : new Found(bits);
    }

    private static long[] found(long[] bits, int state) {
        long[] b = bits == null ? new long[LONGS] : bits;
        for (int k = 0; k < LONGS; k++) {
            b[k] |= OUT[state * LONGS + k];
        }
        return b;
    }
}
