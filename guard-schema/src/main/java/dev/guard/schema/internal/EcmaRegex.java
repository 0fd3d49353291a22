package dev.guard.schema.internal;

import java.util.Optional;
import java.util.regex.Pattern;
import org.everit.json.schema.regexp.JavaUtilRegexpFactory;
import org.everit.json.schema.regexp.Regexp;
import org.everit.json.schema.regexp.RegexpFactory;
import org.everit.json.schema.regexp.RegexpMatchingFailure;

/**
 * {@code pattern} and {@code patternProperties} as JSON Schema defines them (ECMA 262 regular
 * expressions, unanchored search), run on java.util.regex. Three constructs mean something else in
 * Java and are translated: {@code $} (outside a class) is the end of the input, not also the
 * position before a final line break ({@code "abc\n"} does not match {@code ^abc$}); {@code \s} and
 * {@code \S} include the Unicode spaces ECMA 262 lists (NO-BREAK SPACE, EM SPACE, LINE SEPARATOR,
 * BOM, ...); {@code \cx} with a lower-case letter is the control character of that letter. Everything
 * else is passed to Java as it is.
 */
public final class EcmaRegex {

    /** ECMA 262 WhiteSpace and LineTerminator code points, as members of a character class. */
    private static final String SPACES = "\\t\\n\\u000B\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF";

    private EcmaRegex() {}

    /** The Java regular expression for an ECMA 262 one. */
    public static String toJava(String ecma) {
        StringBuilder out = new StringBuilder(ecma.length() + 8);
        boolean inClass = false;
        for (int i = 0; i < ecma.length(); i++) {
            char c = ecma.charAt(i);
            if (c == '\\' && i + 1 < ecma.length()) {
                char n = ecma.charAt(i + 1);
                i++;
                if (n == 's') {
                    out.append(inClass ? SPACES : "[" + SPACES + "]");
                } else if (n == 'S') {
                    out.append("[^").append(SPACES).append(']');
                } else if (n == 'c' && i + 1 < ecma.length() && Character.isLetter(ecma.charAt(i + 1)) && ecma.charAt(i + 1) < 128) {
                    out.append("\\c").append(Character.toUpperCase(ecma.charAt(++i)));
                } else {
                    out.append(c).append(n);
                }
            } else if (inClass) {
                if (c == ']') {
                    inClass = false;
                } else if (c == '[') {
                    out.append('\\'); // a literal '[' in ECMA; Java would open a nested class
                } else if (c == '&' && i + 1 < ecma.length() && ecma.charAt(i + 1) == '&') {
                    out.append('\\'); // "&&" is intersection in Java, two characters in ECMA
                }
                out.append(c);
            } else if (c == '[') {
                if (ecma.startsWith("[]", i)) {
                    out.append("(?!)"); // matches nothing in ECMA; Java would read ']' as a member
                    i += 1;
                } else if (ecma.startsWith("[^]", i)) {
                    out.append("[\\s\\S]"); // any character in ECMA
                    i += 2;
                } else {
                    inClass = true;
                    out.append(c);
                    if (i + 1 < ecma.length() && ecma.charAt(i + 1) == '^') {
                        out.append('^');
                        i++;
                    }
                }
            } else if (c == '$') {
                out.append("\\z");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** The factory to give everit's loader. */
    public static RegexpFactory factory() {
        return Handler::new;
    }

    /** everit's failure value has no public constructor; one instance is taken from everit itself (it holds no state). */
    private static final RegexpMatchingFailure FAILURE =
            new JavaUtilRegexpFactory().createHandler("a").patternMatchingFailure("b").orElseThrow();

    private static final class Handler implements Regexp {
        private final String ecma;
        private final Pattern pattern;

        Handler(String ecma) {
            this.ecma = ecma;
            this.pattern = Pattern.compile(toJava(ecma));
        }

        @Override
        public Optional<RegexpMatchingFailure> patternMatchingFailure(String input) {
            return pattern.matcher(input).find() ? Optional.empty() : Optional.of(FAILURE);
        }

        @Override
        public String toString() {
            return ecma;
        }
    }
}
