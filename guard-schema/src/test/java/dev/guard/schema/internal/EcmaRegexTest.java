package dev.guard.schema.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.schema.Schemas;
import org.everit.json.schema.regexp.Regexp;
import org.junit.jupiter.api.Test;

/** ECMA 262 pattern semantics on java.util.regex; cases written here from ECMA-262 sections 22.2.2 (patterns) and 12.2/12.3 (white space, line terminators). */
class EcmaRegexTest {

    static boolean matches(String ecma, String input) {
        Regexp r = EcmaRegex.factory().createHandler(ecma);
        return r.patternMatchingFailure(input).isEmpty();
    }

    @Test
    void dollarIsTheEndOfTheInputOnly() {
        assertTrue(matches("^abc$", "abc"));
        assertFalse(matches("^abc$", "abc\n"), "Java's $ would also match before a final line break");
        assertFalse(matches("^[a-z0-9-]+$", "order-confirmation\n"));
        assertTrue(matches("\\$5", "costs $5"), "an escaped $ is a dollar sign");
        assertTrue(matches("^[$]+$", "$$"), "a $ in a class is a dollar sign");
    }

    @Test
    void whiteSpaceIsEcmaWhiteSpace() {
        for (String space : new String[] {" ", "\t", "\u00a0", "\u2003", "\u2028", "\u2029", "\ufeff", "\u3000", "\u000b"}) {
            assertTrue(matches("^\\s$", space), Integer.toHexString(space.charAt(0)));
            assertFalse(matches("^\\S$", space), Integer.toHexString(space.charAt(0)));
            assertTrue(matches("^[\\sx]$", space) && !matches("^[^\\s]$", space));
        }
        assertTrue(matches("^\\S$", "x") && matches("^[a\\S]$", "y") && !matches("^\\s$", "x"));
    }

    @Test
    void controlEscapesAndClassesThatJavaReadsDifferently() {
        assertTrue(matches("^\\cc$", "\u0003") && matches("^\\cC$", "\u0003"));
        assertFalse(matches("[]", "a"), "[] matches nothing");
        assertTrue(matches("^[^]$", "\n"), "[^] matches any character");
        assertTrue(matches("^[a&&b]+$", "a&b"), "&& is two characters, not an intersection");
        assertTrue(matches("^[[]$", "["), "[ inside a class is a literal");
        assertEquals("^abc\\z", EcmaRegex.toJava("^abc$"));
    }

    @Test
    void schemasUseTheseSemanticsAndMessagesShowThePatternAsWritten() {
        Schemas s = Schemas.builder().fromJson("t", "{\"properties\": {\"t\": {\"pattern\": \"^[a-z-]+$\"}}, "
                + "\"patternProperties\": {\"^x-[a-z]+$\": {\"type\": \"integer\"}}}").build();
        assertTrue(s.validate("t", "{\"t\": \"a-b\", \"x-n\": 1, \"x-n\\n\": \"not matched by ^x-[a-z]+$\"}").accepted());
        String d = s.validate("t", "{\"t\": \"a-b\\n\"}").describe();
        assertTrue(d.contains("does not match pattern ^[a-z-]+$"), d);
    }
}
