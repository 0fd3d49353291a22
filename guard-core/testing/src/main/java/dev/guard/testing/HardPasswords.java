package dev.guard.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Passwords that are hard to mask, for the property tests of guard's redaction (issue 39): each
 * holds the characters that end or split a URL's parts when written raw ({@code / ? # @ : % [ ]},
 * a space, a comma, a semicolon, quotes, {@code = &}), ASCII letters and digits, and letters of
 * other scripts. A letter of another script sits at every other position, so each 4-character
 * substring of a password holds two of them: no text of guard's own (all ASCII) can contain one
 * by chance, and {@link #leak} can look for every fragment.
 */
public final class HardPasswords {

    /** What the issue names, and what else splits a value: each appears in every set {@link #generate} returns. */
    public static final String RESERVED = "/?#@:%[] ,;\"'=&";

    private static final String OTHER_SCRIPTS = "жшщэюяøåéßλπ中文字ñ";
    private static final String ASCII = "abcXYZ0189-_.";

    private HardPasswords() {}

    /**
     * {@code count} passwords from {@code seed} (print the seed to reproduce a failure). The first
     * {@link #RESERVED}{@code .length()} passwords each lead with one reserved character, so every
     * character is tried at the start and inside, where parsers cut.
     */
    public static List<String> generate(long seed, int count) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>(count);
        for (int n = 0; n < count; n++) {
            int length = 6 + r.nextInt(11);
            StringBuilder pw = new StringBuilder();
            for (int i = 0; i < length; i++) {
                if (i % 2 == 1) {
                    pw.append(OTHER_SCRIPTS.charAt(r.nextInt(OTHER_SCRIPTS.length())));
                } else if (i == 0 && n < RESERVED.length()) {
                    pw.append(RESERVED.charAt(n));
                } else {
                    String pool = r.nextInt(3) == 0 ? ASCII : RESERVED;
                    pw.append(pool.charAt(r.nextInt(pool.length())));
                }
            }
            if (pw.length() % 2 == 1) {
                pw.append(OTHER_SCRIPTS.charAt(r.nextInt(OTHER_SCRIPTS.length())));
            }
            out.add(pw.toString());
        }
        return out;
    }

    /** The first 4-character substring of {@code password} found in {@code output}, or null when none is. */
    public static String leak(String output, String password) {
        if (output == null) {
            return null;
        }
        for (int i = 0; i + 4 <= password.length(); i++) {
            String fragment = password.substring(i, i + 4);
            if (output.contains(fragment)) {
                return fragment;
            }
        }
        return null;
    }

    /** A message for a failed check: the fragment, the password escaped, where it was seen. */
    public static String describe(String where, String password, String output) {
        String fragment = leak(output, password);
        int at = output.indexOf(fragment);
        String around = output.substring(Math.max(0, at - 80), Math.min(output.length(), at + 80));
        return where + ": fragment '" + fragment + "' of password '" + password + "' printed: ..." + around + "...";
    }
}
