package dev.guard.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigResolveOptions;
import com.typesafe.config.ConfigResolver;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import dev.guard.config.internal.Names;
import dev.guard.config.internal.Placeholders;
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
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private static final Logger LOG = LoggerFactory.getLogger(ConfigGuard.class);
    private static final Pattern SUBSTITUTION = Pattern.compile("\\$\\{(\\??)\\s*\"?([^}\"]+?)\"?\\s*}");
    private static final Pattern DESCRIPTION_LINE = Pattern.compile("^(.*?)(?:: (\\d+))?$");
    private static final String ENV_ORIGIN = "env variables";

    private enum Kind { ENV, PATH }

    private record Requirement(Kind kind, String name, SettingType type) {}

    private final List<Requirement> requirements;
    private final Set<String> mustComeFromEnv;
    private final Map<String, String> envHints;
    private final boolean allowLoopback;
    private final Map<String, String> environment;
    private final Config config;
    private final Boolean inContainer;
    private final BooleanSupplier containerDetector;
    private final Duration lookupTimeout;

    private ConfigGuard(Builder b) {
        this.requirements = List.copyOf(b.requirements.values());
        this.mustComeFromEnv = Set.copyOf(b.mustComeFromEnv);
        this.envHints = Map.copyOf(b.envHints);
        this.allowLoopback = b.allowLoopback;
        this.environment = b.environment == null ? null : Map.copyOf(b.environment);
        this.config = b.config;
        this.inContainer = b.inContainer;
        this.containerDetector = b.containerDetector;
        this.lookupTimeout = b.lookupTimeout;
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
        boolean container;
        try {
            container = inContainer != null ? inContainer
                    : containerDetector != null ? containerDetector.getAsBoolean() : defaultInContainer(env);
        } catch (RuntimeException e) {
            container = false;
        }
        try {
            return new Run(env, container).run();
        } catch (RuntimeException e) {
            Violation v = new Violation("config guard", Violation.MALFORMED, Severity.ERROR, "config guard", "an internal error",
                    "the config guard could not finish its checks: " + Redaction.maskText(e.getClass().getSimpleName()),
                    "report this as a bug in guard, with the stack trace of ConfigGuard.check()");
            return new ConfigReport(List.of(), List.of(v), container, allowLoopback);
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

    private static boolean defaultInContainer(Map<String, String> env) {
        String k8s = env.get("KUBERNETES_SERVICE_HOST");
        return (k8s != null && !k8s.isBlank()) || Files.exists(Path.of("/.dockerenv"))
                || Files.exists(Path.of("/run/.containerenv"));
    }

    /** Declares settings and how to check them. Not thread-safe; {@link #build()} copies everything. */
    public static final class Builder {
        private final Map<String, Requirement> requirements = new LinkedHashMap<>();
        private final Set<String> mustComeFromEnv = new LinkedHashSet<>();
        private final Map<String, String> envHints = new LinkedHashMap<>();
        private boolean allowLoopback;
        private Map<String, String> environment;
        private Config config;
        private Boolean inContainer;
        private BooleanSupplier containerDetector;
        private Duration lookupTimeout = Endpoints.DEFAULT_LOOKUP_TIMEOUT;

        Builder() {}

        /** An environment variable that must be set, non-blank and not a placeholder. */
        public Builder requireEnv(String name) {
            return requireEnv(name, SettingType.STRING);
        }

        /** An environment variable that must be set and parse as {@code type}. */
        public Builder requireEnv(String name, SettingType type) {
            requireName(name);
            requirements.put("env:" + name, new Requirement(Kind.ENV, name, Objects.requireNonNull(type, "type")));
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
         * or written in a config file, is a {@link Violation#DEFAULTED} error. Declares the path
         * as a {@link SettingType#STRING} if it was not declared. The environment variable is
         * found from the config's own {@code ${?VAR}} substitution.
         */
        public Builder mustComeFromEnv(String configPath) {
            requireName(configPath);
            mustComeFromEnv.add(configPath);
            requirements.putIfAbsent("path:" + configPath, new Requirement(Kind.PATH, configPath, SettingType.STRING));
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

        /** Allows loopback hosts (local development only). Default false. In a container it still warns. */
        public Builder allowLoopback(boolean allow) {
            this.allowLoopback = allow;
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

        /** Bound on each host-name lookup of the loopback rule. Default {@link Endpoints#DEFAULT_LOOKUP_TIMEOUT}. */
        public Builder lookupTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("lookupTimeout must be positive, was " + timeout);
            }
            this.lookupTimeout = timeout;
            return this;
        }

        /** An immutable guard with a copy of this builder's declarations. */
        public ConfigGuard build() {
            return new ConfigGuard(this);
        }

        private static void requireName(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a setting name must not be blank");
            }
        }
    }

    // ------------------------------------------------------------------------------------------

    private record OriginInfo(String text, Setting.Source source, String envName) {}

    /** Loaded config: resolved values plus the unresolved tree for substitution hints. */
    private record Loaded(Config resolved, Config raw, String unresolvedProblem, String unresolvedOrigin) {}

    /** One run of the checks; collects settings and violations. */
    private final class Run {
        private final Map<String, String> env;
        private final boolean container;
        private final List<Setting> settings = new ArrayList<>();
        private final List<Violation> violations = new ArrayList<>();
        private final Set<String> envNamesSeen = new LinkedHashSet<>();
        /** How the config writes each substitution it was found in: ${?REDIS_URL} or ${REDIS_URL}. */
        private final Map<String, String> substitutions = new LinkedHashMap<>();
        private boolean reportedUnresolved;

        Run(Map<String, String> env, boolean container) {
            this.env = env;
            this.container = container;
        }

        ConfigReport run() {
            Loaded loaded = null;
            boolean needsConfig = requirements.stream().anyMatch(r -> r.kind() == Kind.PATH);
            if (needsConfig) {
                loaded = load();
            }
            for (Requirement r : requirements) {
                if (r.kind() == Kind.ENV) {
                    envNamesSeen.add(r.name());
                    checkEnv(r.name(), r.type());
                } else {
                    checkPath(r.name(), r.type(), loaded);
                }
            }
            if (loaded != null && loaded.unresolvedProblem() != null && !reportedUnresolved) {
                add(new Violation("config", Violation.PLACEHOLDER, Severity.ERROR, loaded.unresolvedOrigin(), "an unresolved substitution",
                        "the config has an unresolved substitution: " + loaded.unresolvedProblem(),
                        "set the environment variable it names, or make the substitution optional (${?VAR}) over a default"));
            }
            checkConflicts();
            List<Violation> sorted = new ArrayList<>(violations);
            sorted.sort(Comparator.comparing(Violation::severity));
            return new ConfigReport(settings, sorted, container, allowLoopback);
        }

        private void add(Violation v) {
            violations.add(v);
        }

        // ---- environment variables ----

        private void checkEnv(String name, SettingType type) {
            String value = env.get(name);
            String origin = "env " + name;
            if (value == null) {
                settings.add(new Setting(name, origin + " (unset)", null, type, Setting.Source.UNSET));
                if (!drift(name, origin + " (unset)", null)) {
                    add(new Violation(name, Violation.MISSING, Severity.ERROR, origin + " (unset)", "unset",
                            name + " is not set",
                            "set " + name + " in this worker's environment (Kubernetes env/valueFrom, Compose environment:)"
                                    + example(name, type)));
                }
                return;
            }
            boolean secret = Redaction.isSecretName(name);
            settings.add(new Setting(name, origin, mask(value, secret), type, Setting.Source.ENV));
            checkValue(name, name, value, type, origin, secret);
        }

        /** Reports NAME_DRIFT for an unset {@code name} if near names are set; true when it did. */
        private boolean drift(String name, String origin, String readBy) {
            List<String> candidates = Names.driftCandidates(name, env);
            if (candidates.isEmpty()) {
                return false;
            }
            boolean family = Names.familyOf(name).stream().anyMatch(candidates::contains);
            String sets = candidates.stream()
                    .map(c -> c + " is set (" + mask(env.get(c), Redaction.isSecretName(c)) + ")")
                    .collect(Collectors.joining("; "));
            String why = family ? "the backend and this worker disagree on the name"
                    : "a misspelling, or the backend and this worker disagree on the name";
            String first = candidates.get(0);
            add(new Violation(name, Violation.NAME_DRIFT, Severity.ERROR, origin, "unset",
                    name + " is not set" + (readBy == null ? "" : " (read by " + readBy + ")") + "; " + sets + ": " + why,
                    "set " + name + " where this worker's environment is defined, to the same value as " + first
                            + ", or make both sides use one name"));
            return true;
        }

        // ---- config paths ----

        private Loaded load() {
            Config raw;
            try {
                raw = config != null ? config
                        : ConfigFactory.defaultOverrides().withFallback(ConfigFactory.defaultApplication())
                        .withFallback(ConfigFactory.defaultReferenceUnresolved());
            } catch (ConfigException e) {
                add(configBroken(e));
                return null;
            }
            if (raw.isResolved()) {
                return new Loaded(raw, null, null, null);
            }
            ConfigResolveOptions options = environment == null ? ConfigResolveOptions.defaults()
                    : ConfigResolveOptions.noSystem().appendResolver(new EnvResolver(env));
            try {
                return new Loaded(raw.resolve(options), raw, null, null);
            } catch (ConfigException.UnresolvedSubstitution e) {
                try {
                    return new Loaded(raw.resolve(options.setAllowUnresolved(true)), raw,
                            Redaction.maskText(e.getMessage()), e.origin() == null ? "config" : location(e.origin()));
                } catch (ConfigException again) {
                    add(configBroken(again));
                    return null;
                }
            } catch (ConfigException e) {
                add(configBroken(e));
                return null;
            }
        }

        private Violation configBroken(ConfigException e) {
            String origin = e.origin() == null ? "config" : location(e.origin());
            return new Violation("config", Violation.MALFORMED, Severity.ERROR, origin, "a config that does not load",
                    "the config does not load: " + withoutQuotedText(e.getMessage()),
                    "fix the config file at " + origin + "; no config path can be checked until it loads");
        }

        private void checkPath(String path, SettingType type, Loaded loaded) {
            if (loaded == null) {
                settings.add(new Setting(path, "config (did not load)", null, type, Setting.Source.UNSET));
                return;
            }
            List<String> hints = hints(path, loaded);
            envNamesSeen.addAll(hints);
            String hint = hints.isEmpty() ? null : hints.get(0);
            String written = hint == null ? null : substitutions.getOrDefault(hint, "${?" + hint + "}");
            String via = hint == null ? "" : " via " + written;
            Config c = loaded.resolved();
            ConfigValue value;
            try {
                if (!c.hasPathOrNull(path) || c.getIsNull(path)) {
                    String origin = "config " + path + via + " (unset)";
                    settings.add(new Setting(path, origin, null, type, Setting.Source.UNSET));
                    String problem = hint == null
                            ? path + " is not set in the config"
                            : path + " is not set: the config reads it from " + written + " and " + hint + " is not set";
                    String action = hint == null
                            ? "set " + path + " in application.conf, or read it from the environment with " + path + " = ${?VAR}"
                            : "set " + hint + " in this worker's environment" + example(hint, type);
                    add(new Violation(path, Violation.MISSING, Severity.ERROR, origin, "unset", problem, action));
                    driftForUnsetHints(hints, path);
                    return;
                }
                value = c.getValue(path);
            } catch (ConfigException.NotResolved e) {
                String origin = "config " + path + via + " (unresolved)";
                settings.add(new Setting(path, origin, null, type, Setting.Source.UNSET));
                reportedUnresolved = true;
                String names = hints.isEmpty() ? "the variable it names" : String.join(", ", hints);
                add(new Violation(path, Violation.PLACEHOLDER, Severity.ERROR, origin, "an unresolved substitution",
                        path + " is an unresolved substitution" + (hint == null ? "" : " " + written)
                                + ": " + names + " is not set",
                        "set " + names + " in this worker's environment, or make the substitution optional (${?VAR}) over a default"));
                driftForUnsetHints(hints, path);
                return;
            } catch (ConfigException e) {
                settings.add(new Setting(path, "config " + path, null, type, Setting.Source.UNSET));
                add(new Violation(path, Violation.MALFORMED, Severity.ERROR, "config " + path, "a bad path",
                        path + " cannot be read: " + Redaction.maskText(e.getMessage()),
                        "declare a valid typesafe-config path (dotted keys, quote keys with special characters)"));
                return;
            }
            String text = text(value);
            OriginInfo origin = describe(value.origin(), hints, text, path);
            boolean secret = Redaction.isSecretName(path) || (origin.envName() != null && Redaction.isSecretName(origin.envName()));
            settings.add(new Setting(path, origin.text(), text == null ? "(" + value.valueType().name().toLowerCase(Locale.ROOT) + ")"
                    : mask(text, secret), type, origin.source()));
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
                        : "set " + hint + " in this worker's environment" + example(hint, type) + "; the config reads it as " + written;
                add(new Violation(path, Violation.DEFAULTED, Severity.ERROR, origin.text(), text == null ? "an object" : mask(text, secret),
                        problem, action));
                driftForUnsetHints(hints, path);
            }
            if (text == null) {
                add(new Violation(path, Violation.MALFORMED, Severity.ERROR, origin.text(), "an " + value.valueType().name().toLowerCase(Locale.ROOT),
                        path + " is an " + value.valueType().name().toLowerCase(Locale.ROOT) + ", not a " + typeWord(type),
                        "set " + path + " to a single value" + example(path, type)));
                return;
            }
            checkValue(path, hint == null ? path : hint, text, type, origin.text(), secret);
        }

        private void driftForUnsetHints(List<String> hints, String path) {
            for (String h : hints) {
                if (env.get(h) == null) {
                    drift(h, "env " + h + " (unset)", path);
                }
            }
        }

        /** The value as text: scalars as written, lists joined with commas; null for an object. */
        private String text(ConfigValue value) {
            if (value.valueType() == ConfigValueType.OBJECT) {
                return null;
            }
            if (value.valueType() == ConfigValueType.LIST) {
                return ((ConfigList) value).stream().map(v -> String.valueOf(v.unwrapped())).collect(Collectors.joining(","));
            }
            return String.valueOf(value.unwrapped());
        }

        /** Environment variable names the unresolved config substitutes at {@code path}, plus any declared hint. */
        private List<String> hints(String path, Loaded loaded) {
            Set<String> out = new LinkedHashSet<>();
            String declared = envHints.get(path);
            if (declared != null) {
                out.add(declared);
            }
            if (loaded.raw() != null) {
                try {
                    ConfigValue raw = navigate(loaded.raw().root(), ConfigUtil.splitPath(path));
                    if (raw != null) {
                        Matcher m = SUBSTITUTION.matcher(raw.render(ConfigRenderOptions.concise()));
                        while (m.find()) {
                            String name = m.group(2).trim();
                            if (!isConfigPath(loaded.resolved(), name)) {
                                out.add(name);
                                substitutions.putIfAbsent(name, "${" + m.group(1) + name + "}");
                            }
                        }
                    }
                } catch (ConfigException | ClassCastException e) {
                    // no hint: the origin is still reported, only the variable name is unknown
                }
            }
            return List.copyOf(out);
        }

        private boolean isConfigPath(Config resolved, String name) {
            try {
                return resolved.hasPathOrNull(name);
            } catch (ConfigException e) {
                return false;
            }
        }

        private ConfigValue navigate(ConfigObject root, List<String> keys) {
            ConfigObject o = root;
            for (int i = 0; i < keys.size() - 1; i++) {
                ConfigValue v = o.get(keys.get(i));
                if (!(v instanceof ConfigObject)) {
                    return null;
                }
                o = (ConfigObject) v;
            }
            return o.get(keys.get(keys.size() - 1));
        }

        private OriginInfo describe(ConfigOrigin o, List<String> hints, String text, String path) {
            String desc = o.description() == null ? "" : o.description();
            if (desc.contains(ENV_ORIGIN)) {
                List<String> names = hints.stream().filter(h -> text != null && text.equals(env.get(h))).toList();
                if (names.isEmpty() && text != null) {
                    names = new ArrayList<>(new TreeSet<>(env.entrySet().stream()
                            .filter(e -> text.equals(e.getValue())).map(Map.Entry::getKey).toList()));
                }
                if (names.size() == 1) {
                    return new OriginInfo("env " + names.get(0), Setting.Source.ENV, names.get(0));
                }
                if (!names.isEmpty() && names.size() <= 3) {
                    return new OriginInfo("env " + String.join(" or ", names), Setting.Source.ENV, names.get(0));
                }
                return new OriginInfo("env (variable not identified)", Setting.Source.ENV, null);
            }
            if (desc.contains("system properties")) {
                return new OriginInfo("system property " + path, Setting.Source.SYSTEM_PROPERTY, null);
            }
            String loc = location(o);
            String file = o.resource() != null ? o.resource() : o.filename() != null ? o.filename()
                    : o.url() != null ? o.url().getPath() : DESCRIPTION_LINE.matcher(desc).replaceFirst("$1");
            if (file != null && (file.equals("reference.conf") || file.endsWith("/reference.conf"))) {
                return new OriginInfo("default (" + loc + ")", Setting.Source.DEFAULT, null);
            }
            boolean isFile = o.resource() != null || o.filename() != null || o.url() != null
                    || file.matches(".*\\.(conf|json|properties)");
            return new OriginInfo(loc, isFile ? Setting.Source.FILE : Setting.Source.OTHER, null);
        }

        // ---- value rules ----

        /**
         * Blank, placeholder, type and loopback rules for one value.
         *
         * @param name     the setting
         * @param setName  the name to tell the user to set (the env variable behind a config path)
         */
        private void checkValue(String name, String setName, String value, SettingType type, String origin, boolean secret) {
            String found = mask(value, secret);
            if (value.isEmpty()) {
                add(new Violation(name, Violation.BLANK, Severity.ERROR, origin, "an empty value", name + " is set but empty",
                        "give " + setName + " a real value" + example(setName, type) + ", or remove it so nothing pretends it is set"));
                return;
            }
            if (value.isBlank()) {
                add(new Violation(name, Violation.BLANK, Severity.ERROR, origin, "only whitespace",
                        name + " is set but blank (only whitespace)",
                        "give " + setName + " a real value" + example(setName, type)));
                return;
            }
            String placeholder = Placeholders.describe(value);
            if (placeholder != null) {
                add(new Violation(name, Violation.PLACEHOLDER, Severity.ERROR, origin, found,
                        name + " holds " + (secret ? "a placeholder, not a real value" : placeholder),
                        "replace it with the real value: whatever fills " + setName
                                + " (Helm values, .env file, Secret, CI variable) left the placeholder in"));
                return;
            }
            String trimmed = value.trim();
            List<HostPort> endpoints = null;
            String malformed = null;
            switch (type) {
                case URL, HOST_LIST -> {
                    try {
                        endpoints = Endpoints.parse(trimmed);
                        if (type == SettingType.URL) {
                            for (HostPort hp : endpoints) {
                                if (hp.scheme() == null) {
                                    malformed = "'" + hp + "' has no scheme";
                                    break;
                                }
                            }
                        }
                    } catch (IllegalArgumentException e) {
                        malformed = e.getMessage();
                    }
                }
                case INT -> {
                    try {
                        Integer.parseInt(trimmed);
                    } catch (NumberFormatException e) {
                        malformed = "'" + trimmed + "' is not a whole number";
                    }
                }
                case PORT -> {
                    try {
                        int p = Integer.parseInt(trimmed);
                        if (p < 1 || p > 65535) {
                            malformed = "port " + p + " is out of range 1-65535";
                        }
                    } catch (NumberFormatException e) {
                        malformed = "'" + trimmed + "' is not a port number";
                    }
                }
                case DURATION -> malformed = durationProblem(trimmed);
                case STRING -> {
                    if (trimmed.contains("://")) {
                        try {
                            endpoints = Endpoints.parse(trimmed);
                        } catch (IllegalArgumentException e) {
                            endpoints = null; // any string is a valid STRING
                        }
                    }
                }
            }
            if (malformed != null) {
                add(new Violation(name, Violation.MALFORMED, Severity.ERROR, origin, found,
                        name + " is not a valid " + typeWord(type) + ": " + (secret ? "the value does not parse (not shown: it is a secret)"
                                : Redaction.maskText(malformed)),
                        "fix " + setName + example(setName, type)));
                return;
            }
            if (endpoints != null) {
                checkLoopback(name, setName, type, endpoints, origin, found, secret);
            }
        }

        private void checkLoopback(String name, String setName, SettingType type, List<HostPort> endpoints, String origin, String found, boolean secret) {
            Set<String> loopHosts = Endpoints.loopbackHosts(endpoints.stream().map(HostPort::host).toList(), lookupTimeout);
            List<String> loop = endpoints.stream().filter(hp -> loopHosts.contains(hp.host()))
                    .map(HostPort::toString).distinct().toList();
            if (loop.isEmpty() || (allowLoopback && !container)) {
                return;
            }
            String what = secret ? "a loopback address" : (loop.size() == 1 ? "the loopback address " : "loopback addresses ")
                    + String.join(", ", loop);
            String service = service(setName);
            if (container) {
                add(new Violation(name, Violation.LOOPBACK, allowLoopback ? Severity.WARNING : Severity.ERROR, origin, found,
                        name + " points at " + what + ", but this runs in a container: there localhost is the pod/container itself,"
                                + " not the " + service + ", so every connection will fail",
                        "set " + setName + " to the service's DNS name or IP (the Kubernetes Service or Compose service name, e.g. "
                                + exampleValue(setName, type == SettingType.HOST_LIST ? type : SettingType.URL, "scheme://service-name:port") + ")"
                                + (allowLoopback ? "; allowLoopback(true) is on, but it cannot make localhost reach another container" : "")));
            } else {
                add(new Violation(name, Violation.LOOPBACK, Severity.ERROR, origin, found,
                        name + " points at " + what + ", which only reaches a server on this same machine",
                        "set " + setName + " to the " + service + "'s host name or IP; for local development only,"
                                + " allow loopback explicitly with ConfigGuard.builder().allowLoopback(true)"));
            }
        }

        // ---- conflicts between names of one family ----

        private void checkConflicts() {
            Set<List<String>> families = new LinkedHashSet<>();
            for (String n : envNamesSeen) {
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
                String setting = envNamesSeen.stream().filter(family::contains).findFirst().orElse(family.get(0));
                List<String> names = List.copyOf(hosts.keySet());
                String pointing = hosts.entrySet().stream()
                        .map(e -> e.getKey() + " -> " + String.join(",", e.getValue())).collect(Collectors.joining("; "));
                add(new Violation(setting, Violation.CONFLICT, Severity.WARNING,
                        names.stream().map(n -> "env " + n).collect(Collectors.joining(", ")),
                        names.stream().map(n -> n + "=" + mask(env.get(n), Redaction.isSecretName(n))).collect(Collectors.joining(", ")),
                        and(names) + " are both set but point at different hosts (" + pointing
                                + "): the backend and this worker may be talking to different servers",
                        "use one name for this endpoint on both sides, or point " + and(names) + " at the same server"));
            }
        }
    }

    // ---- helpers ----

    private static String mask(String value, boolean secret) {
        if (value == null) {
            return null;
        }
        return secret ? Redaction.MASK : Redaction.maskText(value);
    }

    /**
     * A typesafe-config error message without the file text it quotes: a parse error can quote
     * the token it choked on, which may be an unterminated secret.
     */
    private static String withoutQuotedText(String message) {
        if (message == null) {
            return "(no detail)";
        }
        return Redaction.maskText(message.replaceAll("'[^'\\n]*'?", "'…'").replaceAll("\"[^\"\\n]*\"?", "\"…\""));
    }

    /** "A and B", "A, B and C". */
    private static String and(List<String> names) {
        if (names.size() < 2) {
            return String.join("", names);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }

    private static String location(ConfigOrigin o) {
        String loc = o.resource() != null ? o.resource() : o.filename();
        int line = o.lineNumber();
        if (loc == null) {
            String desc = o.description() == null ? "config" : o.description();
            int at = desc.indexOf(" @ ");
            Matcher m = DESCRIPTION_LINE.matcher(desc);
            if (m.matches()) {
                loc = at >= 0 ? desc.substring(0, at) : m.group(1);
                if (line <= 0 && m.group(2) != null) {
                    line = Integer.parseInt(m.group(2));
                }
            } else {
                loc = desc;
            }
        }
        return line > 0 ? loc + ":" + line : loc;
    }

    private static String durationProblem(String value) {
        try {
            Durations.parse(value);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static String typeWord(SettingType type) {
        return switch (type) {
            case STRING -> "string";
            case URL -> "URL";
            case HOST_LIST -> "host list";
            case INT -> "integer";
            case DURATION -> "duration";
            case PORT -> "port";
        };
    }

    private static String service(String name) {
        String n = name.toUpperCase(Locale.ROOT);
        if (n.contains("REDIS") || n.contains("CACHE")) {
            return "Redis service";
        }
        if (n.contains("KAFKA") || n.contains("BOOTSTRAP")) {
            return "Kafka brokers";
        }
        if (n.contains("AMQP") || n.contains("RABBIT")) {
            return "RabbitMQ service";
        }
        if (n.contains("NATS")) {
            return "NATS service";
        }
        return "service it names";
    }

    private static String example(String name, SettingType type) {
        String v = exampleValue(name, type, null);
        return v == null ? "" : " (e.g. " + v + ")";
    }

    /** An example value for a message; never for a secret, and URL-shaped only for endpoint settings. */
    private static String exampleValue(String name, SettingType type, String fallback) {
        if (Redaction.isSecretName(name)) {
            return null;
        }
        switch (type) {
            case PORT:
                return "6379";
            case INT:
                return "4";
            case DURATION:
                return "30s";
            case URL:
            case HOST_LIST:
                break;
            default:
                if (!name.toUpperCase(Locale.ROOT).matches(".*(URL|URI|ADDR|ADDRESS|ADDRESSES|SERVERS|BROKERS|HOST)S?$")) {
                    return fallback;
                }
        }
        String n = name.toUpperCase(Locale.ROOT);
        if (n.contains("REDIS") || n.contains("CACHE")) {
            return "redis://redis:6379";
        }
        if (n.contains("KAFKA") || n.contains("BOOTSTRAP")) {
            return type == SettingType.URL ? "kafka://kafka-0.kafka:9092,kafka://kafka-1.kafka:9092" : "kafka-0.kafka:9092,kafka-1.kafka:9092";
        }
        if (n.contains("AMQP") || n.contains("RABBIT")) {
            return "amqp://rabbitmq:5672";
        }
        if (n.contains("NATS")) {
            return "nats://nats:4222";
        }
        return fallback;
    }

    /** Resolves {@code ${?VAR}} against an injected environment, with the origin a real one has. */
    private static final class EnvResolver implements ConfigResolver {
        private final Map<String, String> env;
        private final ConfigResolver fallback;

        EnvResolver(Map<String, String> env) {
            this(env, null);
        }

        private EnvResolver(Map<String, String> env, ConfigResolver fallback) {
            this.env = env;
            this.fallback = fallback;
        }

        @Override
        public ConfigValue lookup(String path) {
            String v = env.get(path);
            if (v != null) {
                return ConfigValueFactory.fromAnyRef(v, ENV_ORIGIN);
            }
            return fallback == null ? null : fallback.lookup(path);
        }

        @Override
        public ConfigResolver withFallback(ConfigResolver next) {
            return next == null ? this : new EnvResolver(env, fallback == null ? next : fallback.withFallback(next));
        }
    }
}
