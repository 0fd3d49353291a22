/**
 * Reads captured worker, dependency and platform logs and names why jobs went missing: the
 * runbook's discriminating checks (which host each connection error names, whether the errors
 * stop, whether Redis said it was loading, was something killed, received versus processed) as
 * code.
 *
 * <p>The way through: {@link dev.guard.init.diagnose.LogReader} streams each file (kind and
 * compose/kubectl layout from its first lines) into the {@code Intake}, whose parsers turn lines
 * into {@link dev.guard.init.diagnose.Signal}s: {@code Words} finds the literals every parser
 * needs in one pass, {@code ConnectionShape} reads a failure from its shape for any client, the
 * client parsers refine it, {@code ChainWindow} makes one attempt's lines one error. Each
 * {@code Group} (worker type, backend, dependency) keeps counts, first and last lines and a
 * bounded timeline, never the lines. {@code Rules} then asks each {@code CauseRule} its question
 * and {@code FixOrder} puts the answers in the order to fix them.
 */
package dev.guard.init.diagnose;
