package dev.guard.config.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises values that were never filled in, by how templates are written rather than by a
 * list of spellings: words that mean "nothing here" ({@code None}, {@code null}, {@code todo}),
 * instruction phrases ({@code changeme}, {@code put_your_api_key_here},
 * {@code generate-with-openssl-rand-hex-32}, {@code PleaseUpdateThisSecret}), runs of one
 * character ({@code xxx}, {@code ghp_xxxxxxxxxxxx}), template tokens anywhere in the value
 * ({@code <redis-url>}, {@code /srv/<BUCKET>/data}, {@code {region}}), substitutions nothing
 * expanded ({@code ${VAR}}, {@code $(VAR)}, {@code {{ .Values.x }}}, a bare {@code $VAR} in a
 * Kubernetes env value). {@link #describe(String, boolean)} checks a whole value,
 * {@link #isWord(String)} one part of a URL (its user, password or host).
 *
 * <p>Measured on settings of public projects' shipped templates by
 * {@code guard-core/src/test/corpus/env-settings/measure.sh} (precision and recall in
 * guard-core/README.md); the cases it learned from are written out in {@code PlaceholdersTest}.
 */
public final class Placeholders {

    /** Whole values that mean "nothing here", compared in lower case. */
    private static final Set<String> WORDS = Set.of(
            "none", "null", "nil", "undefined", "changeit", "todo", "tbd", "fixme", "placeholder", "<nil>", "<none>", "nan",
            "secret-here", "password-here", "insert-here");

    /** Words that start a placeholder, compared without separators: change-me-in-cluster, CHANGE_ME_PLEASE, replace-me. */
    private static final Pattern PREFIXES = Pattern.compile("(?:changeme|changethis|replaceme|replacethis|fillme|fillin|setme|"
            + "enteryour|insertyour|putyour|addyour|your(?:password|pass|pw|secret|token|key|apikey|api|user|username|host|hostname"
            + "|url|domain|value))[a-z0-9]*");
    /** One word of a value that names the thing to put there: yourdomain, YourApiKey, your-bucket's "yourbucket". */
    private static final Pattern YOUR_WORD = Pattern.compile("your(?:password|pass|pw|secret|token|key|apikey|api|user|username"
            + "|host|hostname|url|domain|value|app|project|company|server|email|name|org|bucket|region|account|id|site|tenant)s?");
    private static final Pattern XS = Pattern.compile("x{3,}|\\*{3,}|\\.{3,}|_{3,}|-{3,}|\\?{3,}|#{3,}");
    /** A run of x standing for characters not given: ghp_xxxxxxxxxx, AKIAXXXXXXXXXXXXXXXX, sk-xxxx. */
    private static final Pattern X_RUN = Pattern.compile("x{4,}|X{4,}");

    private static final Pattern SHELL = Pattern.compile("\\$\\{[^}]*}|\\$\\([^)]*\\)|\\{\\{[^}]*}}");
    private static final Pattern ANGLE = Pattern.compile("<[^<>]+>");
    /** A template token inside a longer value: /srv/<BUCKET>/<REGION>, https://{tenant}.example.com; not "Name <a@b.c>". */
    private static final Pattern ANGLE_TOKEN = Pattern.compile("<[A-Za-z][A-Za-z0-9 _.\\-]*>");
    private static final Pattern BRACE_TOKEN = Pattern.compile("(?<![{$])\\{[A-Za-z_][A-Za-z0-9_.\\-]*}(?!})");
    /** A shell-style reference nobody expanded: Kubernetes expands only $(VAR) in env values, so $VAR arrives as is. */
    private static final Pattern BARE_REF = Pattern.compile("\\$[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern BARE_REF_INSIDE = Pattern.compile("(?<![A-Za-z0-9$\\\\])\\$[A-Z_][A-Z0-9_]{2,}(?![A-Za-z0-9])");

    /** Verbs of an instruction to the reader: "replace", "generate", "set" ... */
    private static final Set<String> VERBS = Set.of("replace", "change", "generate", "set", "fill", "update", "insert", "put",
            "enter", "add", "provide", "paste", "specify", "define", "configure", "edit", "modify", "use", "create", "choose",
            "pick", "write", "supply", "obtain", "rotate", "overwrite", "override");
    /** Words that make a verb an instruction: "change me", "update this", "use your own", "generate with ...". */
    private static final Set<String> INSTRUCTION_WORDS = Set.of("me", "this", "here", "your", "yours", "own", "real", "actual",
            "with", "please", "something", "random", "strong", "secure", "proper", "later");

    /** Verbs that, first in a value, ask for the thing its last word names: changeUser, INSERT_CLUSTER_TOKEN, generate-api-key. */
    private static final Set<String> ASKING_VERBS = Set.of("change", "replace", "insert", "enter", "fill", "put", "paste",
            "provide", "generate");
    /** What a template asks for: the last word of changeUser, generate-api-key. */
    private static final Set<String> ASKED_FOR = Set.of("password", "passwd", "pass", "pwd", "passphrase", "secret", "key",
            "token", "user", "username", "host", "hostname", "domain", "url", "email", "id");
    /** A secret's noun, for "STRONG_DB_PASSWORD" and a value made of its own setting's words. */
    private static final Set<String> SECRET_NOUNS = Set.of("password", "passwd", "pass", "pwd", "passphrase", "secret", "key",
            "token");
    /** Words that describe the value wanted instead of being it: STRONG_DB_PASSWORD, long-random-secret, dummy-key. */
    private static final Set<String> DESCRIBING = Set.of("strong", "long", "random", "secure", "unique", "complex", "dummy",
            "fake", "sample", "example");
    /** Words of a length requirement: "key with 32 chars". */
    private static final Set<String> LENGTH_WORDS = Set.of("char", "chars", "character", "characters", "bytes", "bits", "digits",
            "length");
    /** Counting and keyboard runs no generated secret holds: sample-secret-1234567890, qwerty. */
    private static final Pattern SAMPLE_RUN = Pattern.compile("(?i)123456|234567|345678|456789|abcdefg|qwerty");
    /** RFC 2606's reserved names: a host there is a documentation example, never a service. */
    private static final Pattern EXAMPLE_HOST = Pattern.compile("(?i)(?:.+\\.)?example\\.(?:com|net|org)|.+\\.(?:example|invalid)");

    /** The name of the thing instead of the thing, as a secret's value: {@code password}, {@code secret}, {@code token}. */
    private static final Set<String> GENERIC_SECRETS = Set.of("password", "passwd", "pass", "pwd", "secret", "token", "apikey",
            "api-key", "api_key", "key", "privatekey", "private-key", "secretkey", "secret-key", "secret_key", "mypassword",
            "mysecret", "supersecret", "super-secret", "super_secret", "secretpassword", "yourpassword");

    private Placeholders() {}

    /** {@link #describe(String, boolean)} for a value that is not a secret's. */
    public static String describe(String value) {
        return describe(value, false);
    }

    /**
     * What kind of placeholder {@code value} is, as a phrase for a message, or {@code null} when it
     * is a real value. The phrase never quotes more of the value than the placeholder itself.
     * For a secret's value ({@code secret}) only whole-value forms and tokens no generated secret
     * holds count: a random password may well contain {@code $PATH} or {@code {abc}}.
     */
    public static String describe(String value, boolean secret) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        Matcher m = SHELL.matcher(v);
        if (m.find()) {
            String found = m.group();
            if (found.startsWith("{{")) {
                return "an unrendered template expression " + found;
            }
            return "an unresolved substitution " + found + " (the variable it names was not expanded)";
        }
        if (BARE_REF.matcher(v).matches()) {
            return bareRef(v);
        }
        if (ANGLE.matcher(v).matches()) {
            return "the template placeholder " + v;
        }
        if (isWord(v)) {
            return "the placeholder '" + v + "'";
        }
        Matcher angle = ANGLE_TOKEN.matcher(v);
        if (angle.find()) {
            return "the template placeholder " + angle.group() + " inside it";
        }
        if (secret) {
            return SAMPLE_RUN.matcher(v).find() ? "a sample value (a counting or keyboard run)" : null;
        }
        Matcher brace = BRACE_TOKEN.matcher(v);
        if (brace.find()) {
            return "the template placeholder " + brace.group() + " inside it";
        }
        Matcher ref = BARE_REF_INSIDE.matcher(v);
        if (ref.find()) {
            return bareRef(ref.group()).replaceFirst("^an unexpanded reference (\\S+)", "an unexpanded reference $1 inside it");
        }
        Matcher run = X_RUN.matcher(v);
        if (run.find()) {
            return "a run of '" + run.group().charAt(0) + "' where characters belong";
        }
        return null;
    }

    private static String bareRef(String ref) {
        return "an unexpanded reference " + ref + " (Kubernetes expands only $(" + ref.substring(1)
                + ") in an env value, and no shell ran)";
    }

    /** True when a secret's value is only the word for a secret ({@code ES_PASS=password}): a sample's default, not a password. */
    public static boolean isGenericSecret(String value) {
        return value != null && GENERIC_SECRETS.contains(value.trim().toLowerCase(Locale.ROOT));
    }

    /** True when a secret's placeholder can be described whole: {@code $REDIS_PASSWORD} names a variable, it holds no secret. */
    public static boolean namesNoSecret(String value) {
        return value != null && BARE_REF.matcher(value.trim()).matches();
    }

    /** True when {@code value} is its own variable's name ({@code REDIS_PASSWORD=redis_password}), in any case or separators. */
    public static boolean isOwnName(String name, String value) {
        if (name == null || value == null) {
            return false;
        }
        String n = squash(name);
        if (n.length() >= 4 && n.equals(squash(value))) {
            return true;
        }
        // the setting's last words (minio.auth.rootUser = root-user), or a secret named by its own words (EMAIL_PASSWORD=email_password)
        List<String> nameWords = words(name);
        List<String> valueWords = words(value);
        if (valueWords.size() < 2 || valueWords.size() > nameWords.size() || value.indexOf(':') >= 0 || value.indexOf('/') >= 0) {
            return false;
        }
        return nameWords.subList(nameWords.size() - valueWords.size(), nameWords.size()).equals(valueWords)
                || (nameWords.containsAll(valueWords) && valueWords.stream().anyMatch(SECRET_NOUNS::contains));
    }

    /** True for a host under RFC 2606's reserved names ({@code smtp.example.com}, {@code api.example}): a sample's host. */
    public static boolean isExampleHost(String host) {
        return host != null && EXAMPLE_HOST.matcher(host.trim()).matches();
    }

    /**
     * True when {@code part} (a whole value, or a URL's user, password or host) is a placeholder:
     * a word for nothing ({@code todo}), an instruction ({@code changeme}, {@code CHANGE_ME},
     * {@code change-me-in-cluster}, {@code your_password}, {@code put-your-key-here}), a run of one
     * character ({@code xxx}, {@code ghp_xxxxxxxx}), {@code <password>}, {@code ${PW}}, {@code $PW}.
     */
    public static boolean isWord(String part) {
        if (part == null || part.isBlank()) {
            return false;
        }
        String trimmed = part.trim();
        String lower = trimmed.toLowerCase(Locale.ROOT);
        if (WORDS.contains(lower) || XS.matcher(lower).matches() || ANGLE.matcher(lower).matches() || SHELL.matcher(lower).find()
                || BARE_REF.matcher(trimmed).matches() || oneCharacterRun(lower) || xRun(trimmed)) {
            return true;
        }
        String squashed = lower.replaceAll("[-_.\\s]+", "");
        if (!squashed.isEmpty() && (WORDS.contains(squashed) || PREFIXES.matcher(squashed).matches())) {
            return true;
        }
        // a URL or path is judged by its parts (PlaceholderRule.parts): "your" in its host names the host, not the value
        return trimmed.indexOf(':') < 0 && trimmed.indexOf('/') < 0 && trimmed.indexOf('@') < 0 && isInstruction(words(trimmed));
    }

    /** A phrase addressed to the reader: "your" anything, a verb with an instruction word, "... here", "please ...". */
    private static boolean isInstruction(List<String> words) {
        if (words.size() < 2) {
            return words.size() == 1 && YOUR_WORD.matcher(words.get(0)).matches();
        }
        boolean verb = false;
        boolean instruction = false;
        for (String w : words) {
            if (w.equals("your") || w.equals("please") || YOUR_WORD.matcher(w).matches()) {
                return true;
            }
            verb |= VERBS.contains(w);
            instruction |= INSTRUCTION_WORDS.contains(w);
        }
        String last = words.get(words.size() - 1);
        if ((verb && instruction) || last.equals("here") || words.contains("unsafe") || words.contains("insecure")) {
            return true;
        }
        if (ASKING_VERBS.contains(words.get(0)) && ASKED_FOR.contains(last)) {
            return true; // changeUser, INSERT_ETCD_CLUSTER_TOKEN
        }
        boolean noun = words.stream().anyMatch(SECRET_NOUNS::contains);
        boolean describing = words.stream().anyMatch(DESCRIBING::contains);
        boolean length = words.stream().anyMatch(LENGTH_WORDS::contains) && words.stream().anyMatch(w -> Character.isDigit(w.charAt(0)));
        return noun && (describing || length); // STRONG_DB_PASSWORD, "encryption key with 32 chars"
    }

    /** The words of a value: split at separators and at camel case ({@code ChangeThisSecret} is change, this, secret), lower case. */
    static List<String> words(String value) {
        List<String> out = new ArrayList<>();
        for (String chunk : value.split("[^A-Za-z0-9]+")) {
            for (String w : chunk.split("(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])")) {
                if (!w.isEmpty()) {
                    out.add(w.toLowerCase(Locale.ROOT));
                }
            }
        }
        return out;
    }

    /** aaaaaa, 00000000: one character, six times or more. */
    private static boolean oneCharacterRun(String v) {
        return v.length() >= 6 && v.chars().allMatch(c -> c == v.charAt(0));
    }

    /** ghp_xxxxxxxxxxxx, AKIAXXXXXXXXXXXXXXXX: a run of x that is a third of the value or more. */
    private static boolean xRun(String v) {
        Matcher m = X_RUN.matcher(v);
        while (m.find()) {
            if (m.group().length() * 3 >= v.length()) {
                return true;
            }
        }
        return false;
    }

    private static String squash(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "");
    }
}
