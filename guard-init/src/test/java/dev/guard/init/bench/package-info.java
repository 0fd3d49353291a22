/**
 * The CLI's start-up benchmark (a main, not a test): {@code java -jar guard-init.jar} beside
 * {@code java -version}; see {@link dev.guard.init.bench.CliStartBench} and guard-init/README.md.
 */
package dev.guard.init.bench;
