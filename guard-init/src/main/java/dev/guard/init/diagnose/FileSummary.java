package dev.guard.init.diagnose;

/**
 * One input file's part (a whole file, or one compose service in it) and what it was read as.
 *
 * @param file the file
 * @param service the compose service / kubectl prefix, or null
 * @param kind what its content was recognised as
 * @param lines how many lines
 * @param timestamps how many lines carried a timestamp
 */
public record FileSummary(String file, String service, String kind, int lines, int timestamps) {}
