package dev.guard.init.diagnose;

import java.util.List;

/** Turns one line of a known kind into what it says. One implementation per client family. */
interface LineParser {

    /**
     * The signals this line carries, in order; empty when it says nothing this parser knows.
     * {@code words} are the {@link Word}s the line holds (parsers of server logs and status read
     * none, and may be given null).
     */
    List<Signal> parse(LogLine line, Words.Found words);
}
