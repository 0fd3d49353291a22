package dev.guard.init.lint;

import dev.guard.config.GuardSettings;
import dev.guard.endpoint.Broker;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Env var drift between services (the seeds' {@code REDIS_URL} set, {@code CACHE_URL} read): a
 * name a container must read, by its own declaration ({@code GUARD_REQUIRE}, {@code guard-init
 * check-env --require}), that its environment does not set, with the names the other containers
 * set for the same broker. Containers whose environment also comes from somewhere the input does
 * not show ({@code env_file}, an {@code envFrom} not in the input) are not judged.
 */
final class Drift {

    private Drift() {}

    static List<Finding> check(List<Container> containers) {
        List<Finding> out = new ArrayList<>();
        for (Container c : containers) {
            if (c.envIncomplete) {
                continue;
            }
            for (String name : required(c)) {
                if (c.env.containsKey(name)) {
                    continue;
                }
                Optional<Broker> broker = Broker.ofName(name);
                Set<String> others = new LinkedHashSet<>();
                for (Container o : containers) {
                    for (Container.Env e : o.env.values()) {
                        if (!e.name().equals(name) && broker.isPresent() && Broker.ofName(e.name()).equals(broker)
                                && !e.name().startsWith("GUARD_") && Container.namesAnAddress(e.name())) {
                            others.add(e.name() + " (" + o.where + ")");
                        }
                    }
                }
                Container.Env declared = c.env.get(GuardSettings.ENV_REQUIRE);
                out.add(new Finding(c.file, declared != null ? declared.line() : c.argvLine > 0 ? c.argvLine : c.node.line(), "env-drift", Finding.Severity.ERROR,
                        c.where + ": requires " + name + ", and its environment does not set it"
                                + (others.isEmpty() ? "" : "; set for the same broker: " + String.join(", ", others)),
                        "the check-env step stops the container with 78 (or, without it, the worker falls back to its"
                                + " default, localhost: inside a container, itself), while the value sits under another"
                                + " name" + (others.isEmpty() ? " or nowhere" : ""),
                        "set " + name + " in this container's environment"
                                + (others.isEmpty() ? "" : " (from the same source as " + others.iterator().next().replaceAll(" .*", "")
                                + "), or read that name")));
            }
        }
        return out;
    }

    /** The names {@code c} declares it reads. */
    static Set<String> required(Container c) {
        Set<String> out = new LinkedHashSet<>();
        String env = c.envValue(GuardSettings.ENV_REQUIRE);
        if (env != null) {
            GuardSettings.splitNames(env).forEach(n -> out.add(nameOf(n)));
        }
        for (List<String> w : Shell.commandsOf(c.argv).stream().map(Shell.Command::words).toList()) {
            int at = w.indexOf("check-env");
            if (at < 0) {
                continue;
            }
            for (int i = at + 1; i < w.size(); i++) {
                String a = w.get(i);
                String value = a.startsWith("--require=") ? a.substring(10)
                        : a.equals("--require") && i + 1 < w.size() ? w.get(++i) : null;
                if (value != null) {
                    for (String n : value.split(",")) {
                        if (!n.isBlank() && !n.contains("$")) {
                            out.add(nameOf(n.trim()));
                        }
                    }
                }
            }
        }
        return out;
    }

    private static String nameOf(String requirement) {
        int colon = requirement.indexOf(':');
        return colon < 0 ? requirement : requirement.substring(0, colon);
    }
}
