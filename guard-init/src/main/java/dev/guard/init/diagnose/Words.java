package dev.guard.init.diagnose;

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
    private static final int[] DELTA;
    private static final long[] OUT;
    private static final boolean[] HAS_OUT;

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
        DELTA = delta;
        OUT = new long[n * LONGS];
        HAS_OUT = new boolean[n];
        for (int s = 0; s < n; s++) {
            for (int i = 0; i < LONGS; i++) {
                OUT[s * LONGS + i] = out.get(s)[i];
                HAS_OUT[s] |= out.get(s)[i] != 0;
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

    static Found in(String t) {
        long[] bits = new long[LONGS];
        int[] delta = DELTA;
        int s = 0;
        for (int i = 0, n = t.length(); i < n; i++) {
            char c = t.charAt(i);
            if (c >= 128) {
                s = 0;
                continue;
            }
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            s = delta[s << 7 | c];
            if (HAS_OUT[s]) {
                for (int k = 0; k < LONGS; k++) {
                    bits[k] |= OUT[s * LONGS + k];
                }
            }
        }
        return new Found(bits);
    }
}
