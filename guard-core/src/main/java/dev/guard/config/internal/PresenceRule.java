package dev.guard.config.internal;

import dev.guard.config.Setting;
import dev.guard.config.SettingType;
import dev.guard.config.Severity;
import dev.guard.config.Violation;
import java.util.function.Consumer;

/** MISSING and BLANK: the setting must be set, to something other than white space. */
public final class PresenceRule {

    private PresenceRule() {}

    /** An unset environment variable (after {@link DriftRule} found no near name). */
    public static Violation missingEnv(String name, SettingType type) {
        return new Violation(name, Violation.Rule.MISSING, Severity.ERROR, "env " + name + " (unset)", "unset",
                name + " is not set",
                "set " + name + " in this worker's environment (Kubernetes env/valueFrom, Compose environment:)"
                        + Wording.example(name, type));
    }

    /** Reports BLANK for an empty or white-space value; true when it did (no other rule applies then). */
    public static boolean blank(Subject s, Consumer<Violation> out) {
        SettingType type = s.check().type();
        if (s.value().isEmpty()) {
            out.accept(new Violation(s.name(), Violation.Rule.BLANK, Severity.ERROR, s.origin(), "an empty value",
                    s.name() + " is set but empty",
                    "give " + s.setName() + " a real value" + Wording.example(s.setName(), type)
                            + ", or remove it so nothing pretends it is set"));
            return true;
        }
        if (s.value().isBlank()) {
            out.accept(new Violation(s.name(), Violation.Rule.BLANK, Severity.ERROR, s.origin(), "only whitespace",
                    s.name() + " is set but blank (only whitespace)",
                    "give " + s.setName() + " a real value" + Wording.example(s.setName(), type)));
            return true;
        }
        return false;
    }

    /** The report line of an unset setting. */
    public static Setting unset(String name, String origin, Check check) {
        return new Setting(name, origin, null, check.type(), Setting.Source.UNSET, check.because());
    }
}
