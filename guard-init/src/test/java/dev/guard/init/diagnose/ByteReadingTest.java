package dev.guard.init.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the reading thread does on a line's bytes before it is decoded (newlines eight bytes at a
 * time, the RFC 3339 prefix with its remembered second, the words) gives what the same reading
 * of the decoded text gives; and the thread hands over every line in order, or the failure.
 * Pure logic: each byte-level reading is checked against a plain one, on the capture corpus's own
 * lines and on random bytes.
 */
class ByteReadingTest {

    @Test
    void newlinesAndAsciiAreFoundAsByteByByte() {
        Random r = new Random(7);
        for (int round = 0; round < 2_000; round++) {
            byte[] b = new byte[r.nextInt(80)];
            int newlineEvery = 1 + r.nextInt(40);
            for (int i = 0; i < b.length; i++) {
                int k = r.nextInt(newlineEvery + 8);
                b[i] = k == 0 ? (byte) '\n' : k == 1 ? (byte) (0x80 + r.nextInt(128)) : (byte) (' ' + r.nextInt(95));
            }
            int from = b.length == 0 ? 0 : r.nextInt(b.length);
            int to = from + r.nextInt(b.length - from + 1);
            int expected = -1;
            boolean ascii = true;
            for (int i = from; i < to; i++) {
                if (expected < 0 && b[i] == '\n') {
                    expected = i;
                }
                ascii &= b[i] >= 0;
            }
            assertEquals(expected, LineInput.newline(b, from, to), () -> "round with " + b.length + " bytes");
            assertEquals(ascii, LineInput.ascii(b, from, to));
        }
    }

    @Test
    void wordsReadOnBytesAreTheWordsOfTheDecodedText() throws IOException {
        List<String> lines = corpusLines();
        assertTrue(lines.size() > 10_000, "corpus lines: " + lines.size());
        Random r = new Random(11);
        int withWords = 0;
        for (String l : lines) {
            // the line as captured, in upper case, and with characters beyond ASCII and stray bytes inside a word
            String upper = l.toUpperCase(java.util.Locale.ROOT);
            int at = l.isEmpty() ? 0 : r.nextInt(l.length());
            String accented = l.substring(0, at) + (r.nextBoolean() ? "\u00e9" : "\u4e2d") + l.substring(at);
            for (String t : List.of(l, upper, accented)) {
                byte[] b = t.getBytes(StandardCharsets.UTF_8);
                assertSameWords(t, Words.in(t), t);
                assertSameWords(t, Words.in(b, 0, b.length), t);
            }
            byte[] stray = l.getBytes(StandardCharsets.UTF_8);
            if (stray.length > 0) {
                stray[r.nextInt(stray.length)] = (byte) 0xC3; // a UTF-8 lead byte without its continuation
                String decoded = new String(stray, StandardCharsets.UTF_8);
                assertSameWords(decoded, Words.in(stray, 0, stray.length), l);
                assertSameWords(decoded, Words.in(decoded), l);
            }
            withWords += Words.in(l).none() ? 0 : 1;
        }
        assertTrue(withWords > 1_000, "lines with words: " + withWords);
        assertSame(Words.NONE, Words.in(new byte[] {'o', 'k'}, 0, 2), "a line without words allocates nothing");
    }

    /** The words found are those a plain search finds in the text with its ASCII letters in lower case. */
    private static void assertSameWords(String text, Words.Found found, String line) {
        StringBuilder lower = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            lower.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
        }
        for (Word w : Word.values()) {
            assertEquals(lower.indexOf(w.text) >= 0, found.has(w), () -> w + " in " + line);
        }
    }

    /** Every distinct line of the capture corpus, its docker/kubectl time prefix taken off. */
    private static List<String> corpusLines() throws IOException {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        try (Stream<Path> files = Files.walk(CorpusScenariosTest.root())) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                for (String l : new String(Files.readAllBytes(f), StandardCharsets.UTF_8).split("\n", -1)) {
                    Stamps.Stamp s = Stamps.prefix(l);
                    out.add(s == null ? l : l.substring(s.length() + 1));
                }
            }
        }
        return new ArrayList<>(out);
    }

    /** What the prefix was before it was read on bytes: RFC 3339 by pattern, its time by java.time. */
    private static final Pattern RFC3339 = Pattern.compile(
            "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:\\d{2})");

    @Test
    void prefixesReadInSequenceMatchJavaTime() {
        Random r = new Random(3);
        Stamps.Reader reader = new Stamps.Reader();
        Instant t = Instant.parse("2026-11-30T23:59:58Z");
        int utc = 0;
        int other = 0;
        for (int i = 0; i < 50_000; i++) {
            t = t.plusNanos(r.nextInt(3) == 0 ? r.nextInt(2_000_000_000) : r.nextInt(1_000));
            String stamp = variant(t.toString(), r);
            String line = stamp + " job " + i + " received";
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            Stamps.Stamp s = reader.prefix(b, 0, b.length);
            Instant expected = utcForm(stamp);
            if (expected != null) {
                assertNotNull(s, stamp);
                assertEquals(expected.getEpochSecond() * 1_000_000_000L + expected.getNano(), s.nanos(), stamp);
                assertEquals(stamp.length(), s.length());
                utc++;
            } else if (stamp.length() <= 40 && RFC3339.matcher(stamp).matches()) {
                assertNotNull(s, stamp);
                assertEquals(Long.MIN_VALUE, s.nanos(), stamp);
                assertEquals(stamp, s.text());
                other++;
            } else {
                assertNull(s, stamp);
            }
            // the String form reads the same (kubectl's prefix, the sample lines)
            Stamps.Stamp viaString = Stamps.prefix(line);
            assertEquals(s, viaString, line);
        }
        assertTrue(utc > 20_000 && other > 1_000, utc + " utc, " + other + " other");
    }

    /** Docker's stamp, or one changed as a capture may have it: fraction length, offsets, broken digits. */
    private static String variant(String iso, Random r) {
        String base = iso.substring(0, 19);
        String fraction = iso.length() > 20 ? iso.substring(19, iso.length() - 1) : "";
        return switch (r.nextInt(12)) {
            case 0 -> base + "Z";
            case 1 -> base + (fraction.isEmpty() ? ".5" : fraction.substring(0, Math.min(fraction.length(), 1 + r.nextInt(9)))) + "Z";
            case 2 -> base + ".1234567891Z"; // ten digits
            case 3 -> base + ".Z";
            case 4 -> base + fraction + "+01:00";
            case 5 -> base.substring(0, 8) + "30T" + base.substring(11) + "Z"; // 30th of any month (February: none)
            case 6 -> base.substring(0, 17) + "61Z";
            case 7 -> base + ".12a4Z";
            case 8 -> base.substring(0, 13) + ":" + base.substring(14) + "Z"; // a colon where the minute's first digit is
            default -> base + (fraction.isEmpty() ? ".000000000" : fraction + "000000000".substring(fraction.length() - 1)) + "Z";
        };
    }

    private static Instant utcForm(String stamp) {
        if (!stamp.endsWith("Z") || !RFC3339.matcher(stamp).matches() || stamp.length() > 30) {
            return null;
        }
        try {
            return Instant.parse(stamp);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * The reading thread leaves a batch's words to the parsing when the parsing waits: which lines
     * come with words depends on timing, so every corpus worker log is read both ways here (words
     * and line kinds told, as the reading thread tells them, or left to the parsing), and the
     * reports must be the same.
     */
    @Test
    void wordsAndKindsFoundByEitherThreadGiveTheSameReport() throws IOException {
        int logs = 0;
        try (Stream<Path> files = Files.walk(CorpusScenariosTest.root())) {
            for (Path f : files.filter(p -> p.getFileName().toString().equals("worker.log")).toList()) {
                List<String> lines = java.util.Arrays.asList(Files.readString(f, StandardCharsets.UTF_8).split("\n", -1));
                String given = DiagnosisReport.human(readWithWords(lines, true));
                String found = DiagnosisReport.human(readWithWords(lines, false));
                assertEquals(given, found, f.toString());
                logs++;
            }
        }
        assertTrue(logs > 300, "worker logs: " + logs);
    }

    private static Diagnosis readWithWords(List<String> lines, boolean given) {
        Intake in = new Intake();
        Intake.Scan scan = in.scan("worker.log", null, LogKind.APPLICATION, false);
        LineKinds kinds = new LineKinds();
        int number = 0;
        for (String l : lines) {
            Stamps.Stamp s = Stamps.prefix(l);
            String text = s == null ? l : l.substring(s.length() + 1);
            scan.line(++number, s, text, given ? Words.in(text) : null, given ? kinds.of(text) : null);
        }
        scan.end();
        return Rules.decide(in, new KnownEndpoints());
    }

    @Test
    void serviceNamesThatStartAlikeStayApartAndManyServicesAreAllRead() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            text.append("worker  | 2026-11-30T02:00:01.000000001Z job a").append(i).append(" received\n");
            text.append("worker-1  | 2026-11-30T02:00:01.000000002Z job b").append(i).append(" received\n");
            // more services than the reader keeps decoded names for
            text.append("svc").append(i).append("-x  | 2026-11-30T02:00:01.000000003Z job c").append(i).append(" received\n");
        }
        Intake in = new Intake();
        LogReader.read(text.toString(), "compose.log", in);
        assertEquals(102, in.files().size());
        assertEquals(200, in.groups().get("worker").received.count, "worker and worker-1 are one group, 100 jobs each");
        assertEquals(2, in.files().stream().filter(f -> f.service().startsWith("worker")).count());
        assertEquals(1, in.groups().get("svc99-x").received.count);
        assertEquals("job c99 received", in.groups().get("svc99-x").received.first(in.groups().get("svc99-x")).s().line().text());
    }

    @Test
    void theReadingThreadHandsOverEveryLineInOrderThenItsFailure() {
        int lines = ReadAhead.BATCHES * ReadAhead.BATCH_LINES * 5 + 17;
        List<Integer> seen = new ArrayList<>();
        IOException thrown = assertThrows(IOException.class, () -> {
            try (ReadAhead ahead = new ReadAhead("t", out -> {
                for (int i = 1; i <= lines; i++) {
                    out.line(i, null, null, "line " + i, null, LineKind.EVENT);
                }
                throw new IOException("disk gone");
            })) {
                ahead.drain((n, service, stamp, text, words, kind) -> {
                    assertEquals("line " + n, text);
                    seen.add(n);
                });
            }
        });
        assertEquals("disk gone", thrown.getMessage());
        assertEquals(lines, seen.size());
        for (int i = 0; i < lines; i++) {
            assertEquals(i + 1, seen.get(i));
        }
    }

    @Test
    void aFailureOfTheParsingStopsTheReadingThread() throws Exception {
        Thread[] reading = new Thread[1];
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
            try (ReadAhead ahead = new ReadAhead("t", out -> {
                reading[0] = Thread.currentThread();
                for (int i = 1; ; i++) {
                    out.line(i, null, null, "line " + i, null, LineKind.EVENT); // endless: only a stop ends it
                }
            })) {
                ahead.drain((n, service, stamp, text, words, kind) -> {
                    if (n == 5_000) {
                        throw new IllegalStateException("parser bug at line " + n);
                    }
                });
            }
        });
        assertEquals("parser bug at line 5000", e.getMessage());
        reading[0].join(5_000);
        assertFalse(reading[0].isAlive(), "the reading thread ended");
    }
}
