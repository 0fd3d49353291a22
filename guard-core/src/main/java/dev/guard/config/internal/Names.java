package dev.guard.config.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Name drift: the families of environment variable names that mean the same endpoint, and close
 * spellings (edit distance, case and separators, shared stem) of a required name.
 */
public final class Names {

    /** Names that different frameworks and teams use for the same endpoint. */
    public static final List<List<String>> FAMILIES = List.of(
            List.of("REDIS_URL", "CACHE_URL", "REDIS_URI", "REDIS_HOST", "SPRING_DATA_REDIS_URL"),
            List.of("KAFKA_BROKERS", "BOOTSTRAP_SERVERS", "KAFKA_BOOTSTRAP_SERVERS", "SPRING_KAFKA_BOOTSTRAP_SERVERS"),
            List.of("AMQP_URL", "RABBITMQ_URL", "CLOUDAMQP_URL", "SPRING_RABBITMQ_ADDRESSES"),
            List.of("NATS_URL", "NATS_SERVERS"));

    /** Words that name "where the service is" rather than which service. */
    private static final Set<String> ENDPOINT_WORDS = Set.of(
            "URL", "URI", "URLS", "URIS", "HOST", "HOSTS", "ADDR", "ADDRESS", "ADDRESSES", "SERVER", "SERVERS",
            "BROKER", "BROKERS", "BOOTSTRAP", "ENDPOINT", "ENDPOINTS", "DSN", "CONNECTION", "CONN");

    /** Words that say which framework or role reads a name, not which service it is ({@code SPRING_DATA_REDIS_URL}). */
    private static final Set<String> FRAMEWORK_WORDS = Set.of("SPRING", "DATA", "APP", "WORKER", "DEFAULT", "MAIN", "PRIMARY");

    private Names() {}

    /**
     * True when every word of {@code name} is one of {@code serviceWords}, an endpoint word
     * ({@code URL}, {@code BROKERS}, ...) or a framework word ({@code SPRING}, {@code DATA}):
     * {@code SPRING_DATA_REDIS_URL} is only about Redis's endpoint, {@code KAFKA_REST_URL} is not.
     */
    public static boolean onlyEndpointWordsBesides(String name, List<String> serviceWords) {
        List<String> words = tokens(name.toUpperCase(Locale.ROOT));
        return !words.isEmpty() && words.stream().allMatch(w -> serviceWords.contains(w) || ENDPOINT_WORDS.contains(w)
                || FRAMEWORK_WORDS.contains(w));
    }

    /**
     * The environment variable a framework reads for a dotted property, by Spring's relaxed rule:
     * {@code spring.data.redis.url} is {@code SPRING_DATA_REDIS_URL} (dots and dashes become
     * underscores, upper case). A name already in that form is returned as is.
     */
    public static String envForm(String property) {
        return property.replace('.', '_').replace('-', '_').replace("[", "_").replace("]", "").toUpperCase(Locale.ROOT);
    }

    /** The family that contains {@code name} (case-insensitive), or an empty list. */
    public static List<String> familyOf(String name) {
        String n = name.toUpperCase(Locale.ROOT);
        for (List<String> f : FAMILIES) {
            if (f.contains(n)) {
                return f;
            }
        }
        return List.of();
    }

    /**
     * Names set (non-blank) in {@code env} that probably mean {@code required}: members of its
     * family first, then close spellings. Never {@code required} itself.
     */
    public static List<String> driftCandidates(String required, Map<String, String> env) {
        Set<String> out = new LinkedHashSet<>();
        for (String member : familyOf(required)) {
            if (!member.equalsIgnoreCase(required) && isSet(env, member)) {
                out.add(member);
            }
        }
        List<String> close = new ArrayList<>();
        for (Map.Entry<String, String> e : env.entrySet()) {
            String n = e.getKey();
            if (!n.equals(required) && e.getValue() != null && !e.getValue().isBlank() && isClose(required, n)) {
                close.add(n);
            }
        }
        close.sort(null);
        out.addAll(close);
        return List.copyOf(out);
    }

    private static boolean isSet(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isBlank();
    }

    /** True when {@code candidate} looks like a misspelling or a variant of {@code required}. */
    public static boolean isClose(String required, String candidate) {
        String r = required.toUpperCase(Locale.ROOT);
        String c = candidate.toUpperCase(Locale.ROOT);
        if (r.equals(c)) {
            return true; // differs only in case
        }
        String rn = r.replaceAll("[^A-Z0-9]", "");
        String cn = c.replaceAll("[^A-Z0-9]", "");
        if (rn.length() < 4 || cn.isEmpty()) {
            return false;
        }
        if (rn.equals(cn)) {
            return true; // REDISURL, redis-url
        }
        int limit = rn.length() >= 8 ? 2 : 1;
        if (distance(rn, cn) <= limit) {
            return true; // REDIS_ULR, REDIS_UR, NATS_URI
        }
        // shared stem: every service word of the required name, plus an endpoint word
        List<String> rt = tokens(r);
        List<String> ct = tokens(c);
        List<String> stem = rt.stream().filter(t -> !ENDPOINT_WORDS.contains(t)).toList();
        if (stem.isEmpty() || stem.size() == rt.size()) {
            return false;
        }
        return ct.containsAll(stem) && ct.stream().anyMatch(ENDPOINT_WORDS::contains);
    }

    private static List<String> tokens(String name) {
        return Arrays.stream(name.split("[^A-Z0-9]+")).filter(s -> !s.isEmpty()).toList();
    }

    /** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
    public static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
