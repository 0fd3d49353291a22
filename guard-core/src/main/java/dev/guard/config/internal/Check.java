package dev.guard.config.internal;

import dev.guard.config.SettingType;

/**
 * What a setting is checked as: a declared type, or one inferred from the setting's name or value.
 *
 * @param type    the type
 * @param because why it was inferred ({@code the name ends in _BROKERS}), {@code null} when declared
 */
public record Check(SettingType type, String because) {

    /** A declared type. */
    public static Check declared(SettingType type) {
        return new Check(type, null);
    }

    /** True when inferred. */
    public boolean inferred() {
        return because != null;
    }
}
