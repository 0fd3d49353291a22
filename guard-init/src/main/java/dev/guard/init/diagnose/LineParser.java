package dev.guard.init.diagnose;

import java.util.List;

/** Turns one line of a known kind into what it says. One implementation per client family. */
interface LineParser {

    /**
     * The signals this line carries, in order; empty when it says nothing this parser knows.
     * {@code words} are the {@link Word}s the line holds (null for a parser of server logs or
     * status, which needs none).
     */
    List<Signal> parse(LogLine line, Words.Found words);
}
