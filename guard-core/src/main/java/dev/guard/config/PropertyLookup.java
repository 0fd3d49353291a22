package dev.guard.config;

import java.util.List;
import java.util.Objects;

/**
 * Settings held by a framework's own property sources (Spring's {@code Environment}), for
 * {@link ConfigGuard.Builder#requireProperty(String)}. The framework resolves each value and says
 * where it came from; the guard checks it as it checks an environment variable.
 */
@FunctionalInterface
public interface PropertyLookup {

    /** The property as the framework resolves it, or {@code null} when no source holds it. Never throws. */
    Found find(String name);

    /**
     * One property as found.
     *
     * @param value      the resolved value; {@code null} when a placeholder in it cannot be resolved
     * @param origin     where the framework says it came from, as it prints it
     *                   ({@code System Environment Property "REDIS_URL"},
     *                   {@code class path resource [application.yml] - 3:12})
     * @param source     the kind of place it came from: {@link Setting.Source#DEFAULT} when a placeholder
     *                   fell back to its default ({@code ${CACHE_URL:redis://localhost:6379}} with
     *                   {@code CACHE_URL} unset) or the framework's own default applies
     * @param reads      the environment variables the value's placeholders read, in order
     *                   ({@code ${CACHE_URL:...}} reads {@code CACHE_URL}); empty when none
     * @param unresolved the framework's message when a placeholder could not be resolved, else {@code null}
     */
    record Found(String value, String origin, Setting.Source source, List<String> reads, String unresolved) {
        public Found {
            Objects.requireNonNull(origin, "origin");
            Objects.requireNonNull(source, "source");
            reads = reads == null ? List.of() : List.copyOf(reads);
            if (value == null && unresolved == null) {
                throw new IllegalArgumentException("a found property has a value or an unresolved placeholder");
            }
        }
    }
}
