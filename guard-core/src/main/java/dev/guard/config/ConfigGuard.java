package dev.guard.config;

import dev.guard.GuardLog;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigValue;
import dev.guard.config.internal.Check;
import dev.guard.config.internal.ConfigLoading;
import dev.guard.config.internal.ConflictRule;
import dev.guard.config.internal.DriftRule;
import dev.guard.config.internal.Inference;
import dev.guard.config.internal.LoopbackRule;
import dev.guard.config.internal.Names;
import dev.guard.config.internal.Origins;
import dev.guard.config.internal.PlaceholderRule;
import dev.guard.config.internal.PresenceRule;
import dev.guard.config.internal.Subject;
import dev.guard.config.internal.TypeRule;
import dev.guard.config.internal.Wording;
import dev.guard.endpoint.Endpoint;
import dev.guard.endpoint.Loopback;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;

/**
 * Checks a worker's declared settings at boot, before any connection is attempted: missing,
 * blank, placeholder, defaulted where it must come from the environment, loopback, malformed,
 * and drifted names (the backend sets {@code REDIS_URL}, the worker reads {@code CACHE_URL}).
 *
 * <pre>{@code
 * ConfigGuard.builder()
 *     .requireEnv("REDIS_URL", SettingType.URL)
 *     .requirePath("redis.url", SettingType.URL)
 *     .mustComeFromEnv("redis.url")
 *     .build()
 *     .verify();   // throws ConfigViolationException listing every violation
 * }</pre>
 *
 * <p>Immutable and thread-safe once built. {@link #check()} never throws; {@link #verify()} throws
 * one exception carrying every violation. Nothing printed carries a secret: values go through
 * {@link Redaction}.
 */
public final class ConfigGuard {

    private static final Logger LOG = GuardLog.logger(ConfigGuard.class);

    private enum Kind { ENV, PATH, PROPERTY }

    /** A declared setting; {@code type} {@code null} means inferred. */
    private record Requirement(Kind kind, String name, SettingType type) {}

    private final List<Requirement> requirements;
    private final Set<String> mustComeFromEnv;
    private final Map<String, String> envHints;
    private final Set<String> loopbackAllowed;
    private final String loopbackAllowance;
    private final BiPredicate<String, Integer> loopbackAnswers;
    private final Map<String, String> environment;
    private final Config config;
    private final Boolean inContainer;
    private final BooleanSupplier containerDetector;
    private final Duration lookupTimeout;
    private final PropertyLookup properties;

    private ConfigGuard(Builder b) {
        this.requirements = List.copyOf(b.requirements.values());
        this.mustComeFromEnv = Set.copyOf(b.mustComeFromEnv);
        this.envHints = Map.copyOf(b.envHints);
        this.loopbackAllowed = Set.copyOf(b.loopbackAllowed);
        this.loopbackAllowance = b.loopbackAllowance;
        this.loopbackAnswers = b.loopbackAnswers;
        this.environment = b.environment == null ? null : Map.copyOf(b.environment);
        this.config = b.config;
        this.inContainer = b.inContainer;
        this.containerDetector = b.containerDetector;
        this.lookupTimeout = b.lookupTimeout;
        this.properties = b.properties;
    }

    /** A builder with no declared settings, loopback rejected, the real environment and {@code ConfigFactory.load()} semantics. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs every check and returns the report. Never throws: an unexpected failure inside the
     * guard is itself reported as a violation.
     */
    public ConfigReport check() {
        Map<String, String> env = environment != null ? environment : System.getenv();
        String container;
        try {
            container = inContainer != null ? (inContainer ? "declared so in its settings" : null)
                    : containerDetector != null ? (containerDetector.getAsBoolean() ? "the container detector says so" : null)
                    : containerEvidence(env).orElse(null);
        } catch (RuntimeException e) {
            container = null;
        }
        try {
            return new Run(env, container).run();
        } catch (RuntimeException e) {
            Violation v = new Violation("config guard", Violation.Rule.MALFORMED, Severity.ERROR, "config guard", "an internal error",
                    "the config guard could not finish its checks: " + Redaction.maskText(e.getClass().getSimpleName()),
                    "report this as a bug in guard, with the stack trace of ConfigGuard.check()");
            return new ConfigReport(List.of(), List.of(v), container, List.copyOf(loopbackAllowed));
        }
    }

    /**
     * Runs {@link #check()}, logs the boot report through SLF4J (INFO, one line per setting;
     * violations at WARN/ERROR; all redacted) and throws if any {@link Severity#ERROR} was found.
     *
     * @return the report, which may contain warnings
     * @throws ConfigViolationException carrying every violation when at least one is an error
     */
    public ConfigReport verify() {
        ConfigReport report = check();
        for (Setting s : report.settings()) {
            LOG.info("config {} = {} (from {})", s.name(), s.redactedValue() == null ? "(unset)" : s.redactedValue(), s.origin());
        }
        for (Violation v : report.violations()) {
            if (v.severity() == Severity.ERROR) {
                LOG.error("config {} {}: {}", v.severity(), v.rule(), v.message());
            } else {
                LOG.warn("config {} {}: {}", v.severity(), v.rule(), v.message());
            }
        }
        if (!report.ok()) {
            throw new ConfigViolationException(report);
        }
        return report;
    }

    /**
     * Whether this process runs in a container, as the guard decides by default:
     * {@code KUBERNETES_SERVICE_HOST} set in {@code env}, or {@code /.dockerenv} or
     * {@code /run/.containerenv} present.
     */
    public static boolean detectContainer(Map<String, String> env) {
        return containerEvidence(env).isPresent();
    }

    /** What {@link #detectContainer} goes by, as words for a message ({@code /.dockerenv exists}); empty outside a container. */
    public static Optional<String> containerEvidence(Map<String, String> env) {
        String k8s = env.get("KUBERNETES_SERVICE_HOST");
        if (k8s != null && !k8s.isBlank()) {
            return Optional.of("KUBERNETES_SERVICE_HOST is set");
        }
        for (String marker : List.of("/.dockerenv", "/run/.containerenv")) {
            if (Files.exists(Path.of(marker))) {
                return Optional.of(marker + " exists");
            }
        }
        return Optional.empty();
    }

    /** Declares settings and how to check them. Not thread-safe; {@link #build()} copies everything. */
    public static final class Builder {
        private final Map<String, Requirement> requirements = new LinkedHashMap<>();
        private final Set<String> mustComeFromEnv = new LinkedHashSet<>();
        private final Map<String, String> envHints = new LinkedHashMap<>();
        private final Set<String> loopbackAllowed = new LinkedHashSet<>();
        private String loopbackAllowance = "ConfigGuard.builder().allowLoopback(\"{name}\")";
        private BiPredicate<String, Integer> loopbackAnswers =
                (host, port) -> Loopback.answers(host, port, LoopbackRule.ANSWER_TIMEOUT);
        private Map<String, String> environment;
        private Config config;
        private Boolean inContainer;
        private BooleanSupplier containerDetector;
        private Duration lookupTimeout = Loopback.DEFAULT_LOOKUP_TIMEOUT;
        private PropertyLookup properties;

        Builder() {}

        /**
         * An environment variable that must be set, non-blank and not a placeholder, checked as
         * what its name or value says it is:
         * <ul>
         * <li>{@code *_URL}, {@code *_URI}, {@code *_DSN}: a URL of any scheme;</li>
         * <li>{@code *_BROKERS}, {@code *_SERVERS}, {@code *_HOSTS}, {@code *_NODES},
         *     {@code *_ADDRS}, {@code *_ADDR}, {@code *BOOTSTRAP*}: a host list;</li>
         * <li>{@code *_HOST}: a host; {@code *_PORT}: a port; a secret's name: a string;</li>
         * <li>otherwise {@code scheme://...} is a URL, {@code host:port[,host:port]} a host list,
         *     anything else a string.</li>
         * </ul>
         * The report says what was inferred and why. {@link #requireEnv(String, SettingType)}
         * declares the type instead.
         */
        public Builder requireEnv(String name) {
            requireName(name);
            requirements.put("env:" + name, new Requirement(Kind.ENV, name, null));
            return this;
        }

        /** An environment variable that must be set and parse as {@code type} (no inference). */
        public Builder requireEnv(String name, SettingType type) {
            requireName(name);
            requirements.put("env:" + name, new Requirement(Kind.ENV, name, Objects.requireNonNull(type, "type")));
            return this;
        }

        /** A typesafe-config path that must be set, checked as what its name or value says it is (see {@link #requireEnv(String)}). */
        public Builder requirePath(String configPath) {
            requireName(configPath);
            requirements.put("path:" + configPath, new Requirement(Kind.PATH, configPath, null));
            return this;
        }

        /** A typesafe-config path that must be set and parse as {@code type}. */
        public Builder requirePath(String configPath, SettingType type) {
            requireName(configPath);
            requirements.put("path:" + configPath, new Requirement(Kind.PATH, configPath, Objects.requireNonNull(type, "type")));
            return this;
        }

        /**
         * The config path must take its value from the environment: a value from reference.conf,
         * or written in a config file, is a {@link Violation.Rule#DEFAULTED} error. Declares the path
         * (type inferred, as {@link #requirePath(String)}) if it was not declared. The environment variable is
         * found from the config's own {@code ${?VAR}} substitution.
         */
        public Builder mustComeFromEnv(String configPath) {
            requireName(configPath);
            mustComeFromEnv.add(configPath);
            requirements.putIfAbsent("path:" + configPath, new Requirement(Kind.PATH, configPath, null));
            return this;
        }

        /**
         * As {@link #mustComeFromEnv(String)}, naming the environment variable that should feed
         * the path (useful when the config given is already resolved).
         */
        public Builder mustComeFromEnv(String configPath, String envName) {
            requireName(envName);
            envHints.put(configPath, envName);
            return mustComeFromEnv(configPath);
        }

        /**
         * A property of a framework's own sources ({@link #properties(PropertyLookup)}, e.g. Spring's
         * {@code spring.data.redis.url}) that must be set, checked as what its name or value says
         * it is (see {@link #requireEnv(String)}). An environment variable its placeholders read
         * that is unset while a near name is set is a {@link Violation.Rule#NAME_DRIFT} error, even
         * when the placeholder has a default.
         */
        public Builder requireProperty(String name) {
            requireName(name);
            requirements.put("property:" + name, new Requirement(Kind.PROPERTY, name, null));
            return this;
        }

        /** A framework property that must be set and parse as {@code type}. */
        public Builder requireProperty(String name, SettingType type) {
            requireName(name);
            requirements.put("property:" + name, new Requirement(Kind.PROPERTY, name, Objects.requireNonNull(type, "type")));
            return this;
        }

        /**
         * The framework property must take its value from the environment: a value written in a
         * file, or a placeholder's default, is a {@link Violation.Rule#DEFAULTED} error. Declares it
         * (type inferred) if it was not declared.
         */
        public Builder propertyFromEnv(String name) {
            requireName(name);
            mustComeFromEnv.add("property:" + name);
            requirements.putIfAbsent("property:" + name, new Requirement(Kind.PROPERTY, name, null));
            return this;
        }

        /** Where {@link #requireProperty(String)} settings are looked up; required when any is declared. */
        public Builder properties(PropertyLookup lookup) {
            this.properties = Objects.requireNonNull(lookup, "lookup");
            return this;
        }

        /**
         * Says that loopback is meant for every setting (true) or for none (false, the default).
         * See {@link #allowLoopback(String...)}.
         */
        public Builder allowLoopback(boolean allow) {
            if (allow) {
                loopbackAllowed.add("*");
            } else {
                loopbackAllowed.remove("*");
            }
            return this;
        }

        /**
         * Says that loopback is meant for these settings (a sidecar in the same pod, host
         * networking, local development); {@code "*"} means every setting. Without it, a loopback
         * value where nothing answers is an error and one where something answers a warning; with
         * it, the first is a warning in a container (the readiness wait decides) and the second
         * passes.
         */
        public Builder allowLoopback(String... names) {
            for (String n : names) {
                requireName(n);
                loopbackAllowed.add(n.trim());
            }
            return this;
        }

        /**
         * How a user allows loopback where this guard runs, for messages; {@code {name}} stands for
         * the setting. Default {@code ConfigGuard.builder().allowLoopback("{name}")}; the CLI, the
         * {@code Guard} facade and the Spring integration name their own flag, variable and property.
         */
        public Builder loopbackAllowance(String how) {
            this.loopbackAllowance = Objects.requireNonNull(how, "how");
            return this;
        }

        /**
         * How the loopback rule learns whether something answers at a loopback host and port.
         * Default: a TCP connection, bounded by {@link LoopbackRule#ANSWER_TIMEOUT} (a loopback
         * connection is accepted or refused at once). Replace it where guard must not connect
         * at all, or in a test of the rule's wording.
         */
        public Builder loopbackAnswers(BiPredicate<String, Integer> answers) {
            this.loopbackAnswers = Objects.requireNonNull(answers, "answers");
            return this;
        }

        /** The environment to check; default {@code System.getenv()}. Also what {@code ${?VAR}} resolves against. */
        public Builder environment(Map<String, String> environment) {
            this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
            return this;
        }

        /**
         * The config to check. Default: what {@code ConfigFactory.load()} builds (system
         * properties over application.conf over reference.conf). Pass it unresolved to let the
         * guard name the environment variable behind each {@code ${?VAR}}; it is then resolved
         * against {@link #environment(Map)}.
         */
        public Builder config(Config config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** Says whether this runs in a container; {@code null} means detect. */
        public Builder inContainer(Boolean inContainer) {
            this.inContainer = inContainer;
            return this;
        }

        /** How to detect a container; default: {@code KUBERNETES_SERVICE_HOST} set, or {@code /.dockerenv} exists. */
        public Builder containerDetector(BooleanSupplier detector) {
            this.containerDetector = Objects.requireNonNull(detector, "detector");
            return this;
        }

        /** Bound on each host-name lookup of the loopback rule. Default {@link Loopback#DEFAULT_LOOKUP_TIMEOUT}. */
        public Builder lookupTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("lookupTimeout must be positive, was " + timeout);
            }
            this.lookupTimeout = timeout;
            return this;
        }

        /** An immutable guard with a copy of this builder's declarations. */
        public ConfigGuard build() {
            if (properties == null && requirements.values().stream().anyMatch(r -> r.kind() == Kind.PROPERTY)) {
                throw new IllegalStateException("requireProperty needs properties(PropertyLookup): where to look them up");
            }
            return new ConfigGuard(this);
        }

        private static void requireName(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a setting name must not be blank");
            }
        }
    }

    // ------------------------------------------------------------------------------------------

    /** One run of the checks: loads, resolves origins, applies the rules in order, collects the report. */
    private final class Run {
        private final Map<String, String> env;
        private final String container;
        private final List<Setting> settings = new ArrayList<>();
        private final List<Violation> violations = new ArrayList<>();
        private final Set<String> envNamesSeen = new LinkedHashSet<>();
        /** Every name a message may tell the user to allow: each value's setting and the name to set. */
        private final Set<String> namesChecked = new LinkedHashSet<>();
        private final Origins origins;
        private final LoopbackRule loopback;
        private boolean reportedUnresolved;

        Run(Map<String, String> env, String container) {
            this.env = env;
            this.container = container;
            this.origins = new Origins(env, envHints);
            this.loopback = new LoopbackRule(loopbackAllowed, loopbackAllowance, loopbackAnswers, container, lookupTimeout);
        }

        ConfigReport run() {
            ConfigLoading.Loaded loaded = null;
            if (requirements.stream().anyMatch(r -> r.kind() == Kind.PATH)) {
                loaded = ConfigLoading.load(config, environment != null, env, violations::add);
            }
            for (Requirement r : requirements) {
                if (r.kind() == Kind.ENV) {
                    envNamesSeen.add(r.name());
                    checkEnv(r.name(), r.type());
                } else if (r.kind() == Kind.PROPERTY) {
                    checkProperty(r.name(), r.type());
                } else {
                    checkPath(r.name(), r.type(), loaded);
                }
            }
            if (loaded != null && loaded.unresolvedProblem() != null && !reportedUnresolved) {
                violations.add(new Violation("config", Violation.Rule.PLACEHOLDER, Severity.ERROR, loaded.unresolvedOrigin(),
                        "an unresolved substitution", "the config has an unresolved substitution: " + loaded.unresolvedProblem(),
                        "set the environment variable it names, or make the substitution optional (${?VAR}) over a default"));
            }
            ConflictRule.check(envNamesSeen, env, violations::add);
            checkAllowedNames();
            List<Violation> sorted = new ArrayList<>(violations);
            sorted.sort(Comparator.comparing(Violation::severity));
            return new ConfigReport(settings, sorted, container, List.copyOf(loopbackAllowed));
        }

        /**
         * A loopback allowance that names no setting under check allows nothing: a misspelt
         * {@code REDIS_ULR}, or a word meant as a boolean ({@code maybe}). An error, so that
         * the allowance the user wrote is not silently void.
         */
        private void checkAllowedNames() {
            Set<String> known = new LinkedHashSet<>();
            requirements.forEach(r -> known.add(r.name()));
            known.addAll(envHints.values());
            known.addAll(namesChecked);
            for (String allowed : loopbackAllowed) {
                boolean matches = allowed.equals("*") || known.stream().anyMatch(k -> k.equals(allowed)
                        || allowed.startsWith(k + ".") || k.startsWith(allowed + "."));
                if (!matches) {
                    violations.add(new Violation(allowed, Violation.Rule.MALFORMED, Severity.ERROR, "the loopback allowance",
                            allowed, "loopback is allowed for '" + allowed + "', which is not a setting this check reads ("
                                    + String.join(", ", known) + "), so it allows nothing",
                            "name one of those settings, or true for every setting"));
                }
            }
        }

        private Check check(String name, SettingType declared, String value) {
            return declared != null ? Check.declared(declared) : Inference.infer(name, value);
        }

        // ---- environment variables ----

        private void checkEnv(String name, SettingType declared) {
            String value = env.get(name);
            Check check = check(name, declared, value);
            String origin = "env " + name;
            if (value == null) {
                settings.add(PresenceRule.unset(name, origin + " (unset)", check));
                if (!DriftRule.check(name, origin + " (unset)", null, env, violations::add)) {
                    violations.add(PresenceRule.missingEnv(name, check.type()));
                }
                return;
            }
            boolean secret = Redaction.isSecretName(name);
            settings.add(new Setting(name, origin, Wording.mask(value, secret), check.type(), Setting.Source.ENV, check.because()));
            checkValue(new Subject(name, name, value, check, origin, secret));
        }

        // ---- a framework's properties ----

        private void checkProperty(String name, SettingType declared) {
            PropertyLookup.Found found;
            try {
                found = properties.find(name);
            } catch (RuntimeException e) {
                settings.add(PresenceRule.unset(name, "property " + name + " (lookup failed)", check(name, declared, null)));
                violations.add(new Violation(name, Violation.Rule.MALFORMED, Severity.ERROR, "property " + name, "a failed lookup",
                        name + " could not be looked up: " + Redaction.maskText(e.toString()), "report this as a bug in guard"));
                return;
            }
            if (found == null) {
                Check check = check(name, declared, null);
                String origin = "property " + name + " (unset)";
                settings.add(PresenceRule.unset(name, origin, check));
                String envName = Names.envForm(name);
                if (!DriftRule.check(envName, origin, name, env, violations::add)) {
                    violations.add(new Violation(name, Violation.Rule.MISSING, Severity.ERROR, origin, "unset",
                            name + " is not set in any property source",
                            "set " + name + " in application.yml or application.properties, or set " + envName
                                    + " in this worker's environment" + Wording.example(envName, check.type())));
                }
                return;
            }
            envNamesSeen.addAll(found.reads());
            List<String> unsetReads = found.reads().stream().filter(r -> env.get(r) == null).toList();
            for (String r : unsetReads) {
                DriftRule.check(r, "env " + r + " (unset)", name, env, violations::add);
            }
            String hint = found.reads().isEmpty() ? null : found.reads().get(0);
            boolean secret = Redaction.isSecretName(name) || found.reads().stream().anyMatch(Redaction::isSecretName);
            if (found.value() == null) {
                String origin = found.origin() + " (unresolved)";
                settings.add(PresenceRule.unset(name, origin, check(name, declared, null)));
                String names = found.reads().isEmpty() ? "the variable it names" : Wording.and(found.reads());
                violations.add(new Violation(name, Violation.Rule.PLACEHOLDER, Severity.ERROR, origin, "an unresolved placeholder",
                        name + " has a placeholder that cannot be resolved: " + Redaction.maskText(found.unresolved()),
                        "set " + names + " in this worker's environment, or give the placeholder a default (${VAR:default})"));
                return;
            }
            String value = found.value();
            String origin = found.origin();
            Check check = check(name, declared, value);
            settings.add(new Setting(name, origin, Wording.mask(value, secret), check.type(), found.source(), check.because()));
            if (mustComeFromEnv.contains("property:" + name) && found.source() != Setting.Source.ENV
                    && found.source() != Setting.Source.SYSTEM_PROPERTY) {
                String problem = name + (found.source() == Setting.Source.DEFAULT ? " fell back to a default (" + origin + ")"
                        : " came from " + origin + ", a value written in a file,") + " instead of from the environment"
                        + (unsetReads.isEmpty() ? "" : " (" + Wording.and(unsetReads) + (unsetReads.size() == 1 ? " is" : " are")
                        + " not set)");
                String action = hint == null
                        ? "set " + Names.envForm(name) + " in this worker's environment" + Wording.example(Names.envForm(name), check.type())
                        : "set " + hint + " in this worker's environment" + Wording.example(hint, check.type());
                violations.add(new Violation(name, Violation.Rule.DEFAULTED, Severity.ERROR, origin, Wording.mask(value, secret),
                        problem, action));
            }
            checkValue(new Subject(name, hint == null ? name : hint, value, check, origin, secret,
                    found.source() == Setting.Source.DEFAULT));
        }

        // ---- config paths ----

        private void checkPath(String path, SettingType declared, ConfigLoading.Loaded loaded) {
            if (loaded == null) {
                settings.add(PresenceRule.unset(path, "config (did not load)", check(path, declared, null)));
                return;
            }
            List<String> hints = origins.hints(path, loaded);
            envNamesSeen.addAll(hints);
            String hint = hints.isEmpty() ? null : hints.get(0);
            String written = hint == null ? null : origins.written(hint);
            String via = hint == null ? "" : " via " + written;
            Config c = loaded.resolved();
            ConfigValue value;
            try {
                if (!c.hasPathOrNull(path) || c.getIsNull(path)) {
                    Check check = check(path, declared, null);
                    String origin = "config " + path + via + " (unset)";
                    settings.add(PresenceRule.unset(path, origin, check));
                    String problem = hint == null
                            ? path + " is not set in the config"
                            : path + " is not set: the config reads it from " + written + " and " + hint + " is not set";
                    String action = hint == null
                            ? "set " + path + " in application.conf, or read it from the environment with " + path + " = ${?VAR}"
                            : "set " + hint + " in this worker's environment" + Wording.example(hint, check.type());
                    violations.add(new Violation(path, Violation.Rule.MISSING, Severity.ERROR, origin, "unset", problem, action));
                    driftForUnsetHints(hints, path);
                    return;
                }
                value = c.getValue(path);
            } catch (ConfigException.NotResolved e) {
                String origin = "config " + path + via + " (unresolved)";
                settings.add(PresenceRule.unset(path, origin, check(path, declared, null)));
                reportedUnresolved = true;
                String names = hints.isEmpty() ? "the variable it names" : String.join(", ", hints);
                violations.add(new Violation(path, Violation.Rule.PLACEHOLDER, Severity.ERROR, origin, "an unresolved substitution",
                        path + " is an unresolved substitution" + (hint == null ? "" : " " + written) + ": " + names + " is not set",
                        "set " + names + " in this worker's environment, or make the substitution optional (${?VAR}) over a default"));
                driftForUnsetHints(hints, path);
                return;
            } catch (ConfigException e) {
                settings.add(PresenceRule.unset(path, "config " + path, check(path, declared, null)));
                violations.add(new Violation(path, Violation.Rule.MALFORMED, Severity.ERROR, "config " + path, "a bad path",
                        path + " cannot be read: " + Redaction.maskText(e.getMessage()),
                        "declare a valid typesafe-config path (dotted keys, quote keys with special characters)"));
                return;
            }
            String text = Origins.text(value);
            Check check = check(path, declared, text);
            Origins.Origin origin = origins.describe(value.origin(), hints, text, path);
            boolean secret = Redaction.isSecretName(path) || (origin.envName() != null && Redaction.isSecretName(origin.envName()));
            settings.add(new Setting(path, origin.text(), text == null ? "(" + value.valueType().name().toLowerCase(Locale.ROOT) + ")"
                    : Wording.mask(text, secret), check.type(), origin.source(), check.because()));
            if (mustComeFromEnv.contains(path) && origin.source() != Setting.Source.ENV
                    && origin.source() != Setting.Source.SYSTEM_PROPERTY) {
                String unsetHint = hints.stream().filter(h -> env.get(h) == null).findFirst().orElse(null);
                String where = origin.source() == Setting.Source.DEFAULT
                        ? "fell back to its default from " + origin.text().replaceFirst("^default \\((.*)\\)$", "$1")
                        : "came from " + origin.text() + ", a value written in the config,";
                String problem = path + " " + where + " instead of from the environment"
                        + (unsetHint == null ? "" : " (" + unsetHint + " is not set)");
                String action = hint == null
                        ? "set the environment variable that feeds " + path + " in this worker's environment, and read it in application.conf with "
                                + path + " = ${?VAR}"
                        : "set " + hint + " in this worker's environment" + Wording.example(hint, check.type()) + "; the config reads it as " + written;
                violations.add(new Violation(path, Violation.Rule.DEFAULTED, Severity.ERROR, origin.text(),
                        text == null ? "an object" : Wording.mask(text, secret), problem, action));
                driftForUnsetHints(hints, path);
            }
            if (text == null) {
                String kind = value.valueType().name().toLowerCase(Locale.ROOT);
                violations.add(new Violation(path, Violation.Rule.MALFORMED, Severity.ERROR, origin.text(), "an " + kind,
                        path + " is an " + kind + ", not a " + check.type().word(),
                        "set " + path + " to a single value" + Wording.example(path, check.type())));
                return;
            }
            checkValue(new Subject(path, hint == null ? path : hint, text, check, origin.text(), secret,
                    origin.source() == Setting.Source.DEFAULT));
        }

        private void driftForUnsetHints(List<String> hints, String path) {
            for (String h : hints) {
                if (env.get(h) == null) {
                    DriftRule.check(h, "env " + h + " (unset)", path, env, violations::add);
                }
            }
        }

        /** The value rules, in order: blank, placeholder, type, then placeholders inside URLs and loopback. */
        private void checkValue(Subject s) {
            namesChecked.add(s.name());
            namesChecked.add(s.setName());
            if (PresenceRule.blank(s, violations::add) || PlaceholderRule.whole(s, violations::add)) {
                return;
            }
            List<Endpoint> endpoints = TypeRule.check(s, violations::add);
            if (endpoints != null) {
                PlaceholderRule.parts(s, endpoints, violations::add);
                loopback.check(s, endpoints, violations::add);
            }
        }
    }
}
