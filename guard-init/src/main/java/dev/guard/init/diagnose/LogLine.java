package dev.guard.init.diagnose;

import java.time.Instant;

/**
 * One line of a captured file, with its compose/kubectl prefix and leading timestamp taken off.
 *
 * @param file the file name as given on the command line
 * @param number 1-based line number in that file
 * @param service the compose service (or kubectl prefix) the line came from, or null
 * @param time the leading timestamp, or null when the line has none
 * @param text the line without prefix, timestamp and carriage return
 */
public record LogLine(String file, int number, String service, Instant time, String text) {

    /** {@code file:line}, the form the report cites. */
    public String where() {
        return file + ":" + number;
    }
}
