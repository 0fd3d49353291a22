package dev.guard.schema.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.schema.Schemas;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * guard's own {@code date-time}, {@code date}, {@code time} and {@code email} checks, with cases written
 * here from RFC 3339 section 5.6 (and its section 5.7 on leap seconds) and RFC 5321 section 4.1.2.
 */
class FormatsTest {

    @Test
    void dateTimeIsRfc3339() {
        for (String yes : List.of("2026-12-01T16:36:06Z", "2026-12-01t16:36:06z", "2026-12-01T16:36:06.123456789+05:30",
                "2024-02-29T00:00:00-00:00", "2016-12-31T23:59:60Z", "2017-01-01T00:59:60+01:00", "2016-12-31T18:59:60.5-05:00",
                "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z")) {
            assertTrue(Formats.dateTime(yes), yes);
        }
        for (String no : List.of("2026-12-01 16:36:06Z", "2026-12-01T16:36:06", "2026-12-01T16:36Z", "2026-12-01T24:00:00Z",
                "2026-12-01T16:60:00Z", "2026-12-01T16:36:61Z", "2016-12-31T23:58:60Z", "2016-12-31T22:59:60Z",
                "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z",
                "2026-00-10T00:00:00Z", "2026-12-00T00:00:00Z", "2026-12-01T16:36:06.Z", "2026-12-01T16:36:06+0530",
                "2026-12-01T16:36:06+24:00", "2026-12-01T16:36:06+05:60", "2026-12-01T16:36:06Z ", "2026-12-01T16:36:06ZZ",
                "2026-12-1T16:36:06Z", "+2026-12-01T16:36:06Z", "2026-12-01T1\u0663:36:06Z", "2026-12-01T16:36:06+05")) {
            assertFalse(Formats.dateTime(no), no);
        }
    }

    @Test
    void dateAndTimeAlone() {
        Schemas s = Schemas.builder().fromJson("t", "{\"properties\": {\"d\": {\"format\": \"date\"}, \"t\": {\"format\": \"time\"}}}").build();
        assertTrue(s.validate("t", "{\"d\": \"2024-02-29\", \"t\": \"23:59:60Z\"}").accepted());
        for (String bad : List.of("{\"d\": \"2024-02-30\"}", "{\"d\": \"2024-02-29T00:00:00Z\"}", "{\"t\": \"12:00:00\"}",
                "{\"t\": \"23:59:60+01:00\"}", "{\"d\": \"24-02-29\"}")) {
            assertFalse(s.validate("t", bad).accepted(), bad);
        }
        assertTrue(s.validate("t", "{\"d\": 20240229}").accepted(), "a format applies to strings only");
    }

    @Test
    void emailIsAnRfc5321Mailbox() {
        for (String yes : List.of("a@example.com", "first.last@sub.example.co.uk", "x+tag@example.com", "!#$%&'*+-/=?^_`{|}~@example.com",
                "\"with space\"@example.com", "\"quoted\\\"quote\"@example.com", "user@localhost", "u@[192.168.0.1]",
                "u@[IPv6:2001:db8::1]", "u@[IPv6:::ffff:192.0.2.1]", "a@b-c.d", "o'reilly@example.ie", "1@2.3")) {
            assertTrue(Formats.email(yes), yes);
        }
        for (String no : List.of("", "plain", "@example.com", "a@", "a@@example.com", ".a@example.com", "a.@example.com",
                "a..b@example.com", "a b@example.com", "a@-example.com", "a@example-.com", "a@exa_mple.com", "a@example..com",
                "a@.example.com", "a@example.com.", "a@[300.1.1.1]", "a@[1.2.3]", "a@[IPv6:1::2::3]", "\"unterminated@example.com",
                "a@example.com, b@example.com", "\u00e9@example.com", "a@ex\u00e4mple.com", "x".repeat(65) + "@example.com",
                "a@" + "l".repeat(64) + ".com")) {
            assertFalse(Formats.email(no), no);
        }
    }

    @Test
    void eachValidatorNamesItsFormat() {
        assertEquals(List.of("date-time", "date", "time", "email"), Formats.validators().stream().map(v -> v.formatName()).toList());
        assertEquals("[x] is not a valid email address (RFC 5321 mailbox)", Formats.validators().get(3).validate("x").orElseThrow());
    }
}
