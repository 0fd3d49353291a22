/** Implementation details of the config guard (name drift, placeholders, origins); not API. */
package dev.guard.config.internal;
