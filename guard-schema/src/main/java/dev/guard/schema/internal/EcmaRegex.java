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
                } else if ((n == 'p' || n == 'P') && ecma.startsWith("{", i + 1) && ecma.indexOf('}', i + 2) > 0) {
                    int close = ecma.indexOf('}', i + 2);
                    out.append('\\').append(n).append('{').append(property(ecma.substring(i + 2, close))).append('}');
                    i = close;
                } else if (n == 'u' && ecma.startsWith("{", i + 1) && ecma.indexOf('}', i + 2) > 0) {
                    int close = ecma.indexOf('}', i + 2);
                    out.append("\\x{").append(ecma, i + 2, close).append('}'); // a code point beyond 4 hex digits
                    i = close;
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

    /** ECMA 262 {@code General_Category} long names (Unicode's PropertyValueAliases) and the short ones Java knows. */
    private static final java.util.Map<String, String> CATEGORIES = categories(
            "Letter L", "Cased_Letter LC", "Uppercase_Letter Lu", "Lowercase_Letter Ll", "Titlecase_Letter Lt",
            "Modifier_Letter Lm", "Other_Letter Lo", "Mark M", "Combining_Mark M", "Nonspacing_Mark Mn", "Spacing_Mark Mc",
            "Enclosing_Mark Me", "Number N", "Decimal_Number Nd", "digit Nd", "Letter_Number Nl", "Other_Number No",
            "Punctuation P", "punct P", "Connector_Punctuation Pc", "Dash_Punctuation Pd", "Open_Punctuation Ps",
            "Close_Punctuation Pe", "Initial_Punctuation Pi", "Final_Punctuation Pf", "Other_Punctuation Po", "Symbol S",
            "Math_Symbol Sm", "Currency_Symbol Sc", "Modifier_Symbol Sk", "Other_Symbol So", "Separator Z",
            "Space_Separator Zs", "Line_Separator Zl", "Paragraph_Separator Zp", "Other C", "Control Cc", "cntrl Cc",
            "Format Cf", "Surrogate Cs", "Private_Use Co", "Unassigned Cn");

    private static java.util.Map<String, String> categories(String... pairs) {
        java.util.Map<String, String> m = new java.util.HashMap<>();
        for (String p : pairs) {
            m.put(p.substring(0, p.indexOf(' ')), p.substring(p.indexOf(' ') + 1));
        }
        return m;
    }

    /**
     * An ECMA 262 Unicode property ({@code \p{Letter}}, {@code \p{gc=Lu}}, {@code \p{Script=Greek}},
     * {@code \p{Alphabetic}}) as Java writes it ({@code L}, {@code Lu}, {@code sc=Greek},
     * {@code IsAlphabetic}); one Java does not know is passed on, and the schema's check at boot names it.
     */
    static String property(String ecma) {
        int eq = ecma.indexOf('=');
        if (eq > 0) {
            String key = ecma.substring(0, eq);
            String value = ecma.substring(eq + 1);
            switch (key) {
                case "General_Category", "gc":
                    return CATEGORIES.getOrDefault(value, value);
                case "Script", "sc":
                    return "sc=" + value;
                default:
                    return ecma; // Script_Extensions: java.util.regex has none
            }
        }
        String category = CATEGORIES.get(ecma);
        if (category != null) {
            return category;
        }
        if (CATEGORIES.containsValue(ecma) || ecma.equals("ASCII")) {
            return ecma;
        }
        return "Is" + ecma; // a binary property: Alphabetic, White_Space, Emoji, ...
    }

    /** The factory to give everit's loader. */
    public static RegexpFactory factory() {
        return Handler::new;
    }

    /** The same translation for networknt's validator (2019-09 and 2020-12): an unanchored search. */
    public static com.networknt.schema.regex.RegularExpressionFactory networknt() {
        return ecma -> {
            Pattern pattern = Pattern.compile(toJava(ecma));
            return input -> pattern.matcher(input).find();
        };
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
