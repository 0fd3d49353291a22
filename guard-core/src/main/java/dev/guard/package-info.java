/**
 * What every part of guard shares: {@link dev.guard.ExitCodes}, the one table of exit codes the
 * CLI, a booting worker and a drain receipt use (sysexits: 69 unavailable, 77 no permission,
 * 78 configuration, 70 a job may be lost).
 */
package dev.guard;
