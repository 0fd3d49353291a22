package dev.guard.init.diagnose;

import java.util.List;

/** Turns one line of a known kind into what it says. One implementation per client family. */
interface LineParser {

    /** The signals this line carries, in order; empty when it says nothing this parser knows. */
    List<Signal> parse(LogLine line);
}
