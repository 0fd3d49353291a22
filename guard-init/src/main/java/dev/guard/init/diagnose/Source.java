package dev.guard.init.diagnose;

import java.util.List;

/**
 * One captured file, or one service's part of a {@code docker compose logs} file, with its kind.
 *
 * @param file the file name as given
 * @param service the compose service or kubectl pod prefix, or null for a whole file
 * @param kind what it holds
 * @param lines its lines
 * @param previous true for a {@code --previous} capture (its lines come before the current ones)
 */
record Source(String file, String service, LogKind kind, List<LogLine> lines, boolean previous) {}
