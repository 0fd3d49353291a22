/**
 * The config guard: declared settings checked at boot (missing, placeholder, defaulted, loopback,
 * malformed, name drift), reported with their origin and with secrets masked.
 */
package dev.guard.config;
