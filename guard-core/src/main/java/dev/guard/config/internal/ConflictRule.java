package dev.guard.config.internal;

import dev.guard.config.Redaction;
import dev.guard.config.Severity;
import dev.guard.config.Violation;
import dev.guard.endpoint.Endpoints;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/** CONFLICT: two names of one family ({@link Names#FAMILIES}) are both set and point at different hosts. */
public final class ConflictRule {

    private ConflictRule() {}

    /** Checks the family of every name in {@code namesSeen}. */
    public static void check(Collection<String> namesSeen, Map<String, String> env, Consumer<Violation> out) {
        Set<List<String>> families = new LinkedHashSet<>();
        for (String n : namesSeen) {
            List<String> f = Names.familyOf(n);
            if (!f.isEmpty()) {
                families.add(f);
            }
        }
        for (List<String> family : families) {
            Map<String, Set<String>> hosts = new LinkedHashMap<>();
            for (String member : family) {
                String v = env.get(member);
                if (v == null || v.isBlank()) {
                    continue;
                }
                try {
                    hosts.put(member, Endpoints.parse(v.trim()).stream()
                            .map(hp -> hp.host().toLowerCase(Locale.ROOT).replaceAll("\\.+$", ""))
                            .collect(Collectors.toCollection(TreeSet::new)));
                } catch (IllegalArgumentException e) {
                    // a malformed member is reported by its own rule when declared
                }
            }
            if (hosts.size() < 2 || hosts.values().stream().distinct().count() < 2) {
                continue;
            }
            String setting = namesSeen.stream().filter(family::contains).findFirst().orElse(family.get(0));
            List<String> names = List.copyOf(hosts.keySet());
            String pointing = hosts.entrySet().stream()
                    .map(e -> e.getKey() + " -> " + String.join(",", e.getValue())).collect(Collectors.joining("; "));
            out.accept(new Violation(setting, Violation.Rule.CONFLICT, Severity.WARNING,
                    names.stream().map(n -> "env " + n).collect(Collectors.joining(", ")),
                    names.stream().map(n -> n + "=" + Wording.mask(env.get(n), Redaction.isSecretName(n))).collect(Collectors.joining(", ")),
                    Wording.and(names) + " are both set but point at different hosts (" + pointing
                            + "): the backend and this worker may be talking to different servers",
                    "use one name for this endpoint on both sides, or point " + Wording.and(names) + " at the same server"));
        }
    }
}
