package dev.guard.init.diagnose;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One group's connection errors by what they name: each {@link ErrorKey} resolved (an error
 * naming no host takes the host of the first URL the worker logged), classified into a
 * {@link Category} and gathered per printed target ({@code redis:6379}, {@code LOADING}, ...).
 */
final class Targets {
    /** The errors naming one target. */
    record Target(String label, Category category, Span span, Set<ErrorKey> keys) {}

    private final Map<String, Target> byLabel;
    private final Map<Category, List<Target>> byCategory = new EnumMap<>(Category.class);

    Targets(Group g, KnownEndpoints endpoints) {
        Map<String, List<Span>> spans = new LinkedHashMap<>();
        Map<String, Set<ErrorKey>> keys = new LinkedHashMap<>();
        Map<String, Category> categories = new LinkedHashMap<>();
        Signal boot = g.firstBoot == null ? null : g.firstBoot.s();
        for (Map.Entry<ErrorKey, Span> e : g.errors.entrySet()) {
            ErrorKey k = e.getKey();
            String host = k.host();
            int port = k.port();
            boolean fromBoot = k.fromBoot();
            if (host == null && boot != null && k.type() != Signal.Type.LOADING && k.type() != Signal.Type.AUTH
                    && k.type() != Signal.Type.READONLY) {
                host = boot.host();
                port = boot.port();
                fromBoot = true;
            }
            Category c = Category.of(k.type(), host, port, endpoints);
            String label = switch (c) {
                case LOADING -> "LOADING";
                case AUTH -> "(auth refused)";
                case ANNOUNCED -> Hosts.withPort(host, port) + " (announced)";
                case TOPOLOGY -> k.type() == Signal.Type.READONLY ? "READONLY"
                        : "MOVED/ASK to " + Hosts.withPort(host, port);
                default -> host == null ? "(no host)" : (port > 0 ? Hosts.withPort(host, port) : host)
                        + (fromBoot ? " (from boot line)" : "");
            };
            spans.computeIfAbsent(label, x -> new ArrayList<>()).add(e.getValue());
            keys.computeIfAbsent(label, x -> new HashSet<>()).add(k);
            categories.put(label, c);
        }
        List<Target> all = new ArrayList<>();
        for (String label : spans.keySet()) {
            all.add(new Target(label, categories.get(label), Span.of(spans.get(label)), keys.get(label)));
        }
        all.sort(Comparator.comparingLong(t -> g.position(t.span().first(g))));
        byLabel = new LinkedHashMap<>();
        for (Target t : all) {
            byLabel.put(t.label(), t);
            byCategory.computeIfAbsent(t.category(), x -> new ArrayList<>()).add(t);
        }
    }

    Collection<Target> all() {
        return byLabel.values();
    }

    boolean isEmpty() {
        return byLabel.isEmpty();
    }

    boolean has(Category c) {
        return byCategory.containsKey(c);
    }

    List<Target> of(Category... cs) {
        List<Target> out = new ArrayList<>();
        for (Category c : cs) {
            out.addAll(byCategory.getOrDefault(c, List.of()));
        }
        return out;
    }

    /** The errors of these categories as one span; null when there are none. */
    static Span span(List<Target> ts) {
        if (ts.isEmpty()) {
            return null;
        }
        List<Span> spans = new ArrayList<>();
        ts.forEach(t -> spans.add(t.span()));
        return Span.of(spans);
    }

    static Set<ErrorKey> keys(List<Target> ts) {
        Set<ErrorKey> out = new HashSet<>();
        ts.forEach(t -> out.addAll(t.keys()));
        return out;
    }
}
