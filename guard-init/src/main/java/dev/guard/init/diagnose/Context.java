package dev.guard.init.diagnose;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the dependencies' own logs and status say, for every group's rules: when the last one was
 * ready, whether one was killed (mid-load), with the lines that show it; and what the backend
 * enqueued.
 */
final class Context {
    final Endpoints endpoints;
    Instant dependencyReady;
    boolean dependencyKilledMidLoad;
    /** Per dependency group, the lines that show it was killed or restarted. */
    final Map<String, List<Evidence>> kills = new LinkedHashMap<>();
    final List<Signal> enqueued = new ArrayList<>();

    Context(Endpoints endpoints) {
        this.endpoints = endpoints;
    }

    boolean dependencyKilled() {
        return kills.values().stream().anyMatch(l -> !l.isEmpty());
    }

    List<Evidence> killEvidence() {
        List<Evidence> all = new ArrayList<>();
        kills.values().forEach(all::addAll);
        return all;
    }

    void kill(String group, Evidence e) {
        kills.computeIfAbsent(group, k -> new ArrayList<>()).add(e);
    }
}
