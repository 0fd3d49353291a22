package dev.guard.init.lint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One container as both file kinds describe it, so that the rules on a container are written
 * once: a Compose service, or a container or init container of a Kubernetes pod template.
 */
final class Container {

    /** A variable the container's environment sets here: its value (null when it comes from a secret or a field) and line. */
    record Env(String name, String value, int line) {}

    final String file;
    /** How a finding names it: {@code service worker}, {@code Deployment/worker container app}. */
    final String where;
    final boolean init;
    final String image;
    /** What runs: ENTRYPOINT/command then CMD/args as one argv, as the runtime builds it; empty when the image decides. */
    final List<String> argv = new ArrayList<>();
    int argvLine;
    final Map<String, Env> env = new LinkedHashMap<>();
    /** The environment also comes from somewhere this input does not show (env_file, an envFrom not in the input). */
    boolean envIncomplete;
    /** Shares a network namespace where loopback reaches something else (host network, another service's). */
    boolean sharedNetwork;
    /** Ports the pod's other containers listen on (a sidecar on loopback is legitimate). */
    final Set<Integer> podPorts = new java.util.HashSet<>();
    Y healthcheck;
    Y liveness;
    Y readiness;
    Y startup;
    Y preStop;
    /** The service's or pod's node, for findings about the whole of it. */
    Y node;

    Container(String file, String where, boolean init, String image) {
        this.file = file;
        this.where = where;
        this.init = init;
        this.image = image == null ? "" : image;
    }

    /** The value set here for {@code name}, or null. */
    String envValue(String name) {
        Env e = env.get(name);
        return e == null ? null : e.value();
    }

    /** Whether a variable's name says it holds an address ({@code REDIS_URL}, {@code KAFKA_BOOTSTRAP_SERVERS}, {@code AMQP_HOST}). */
    static boolean namesAnAddress(String name) {
        String n = name.toUpperCase(java.util.Locale.ROOT);
        return n.endsWith("_URL") || n.endsWith("_URI") || n.endsWith("_HOST") || n.endsWith("_ADDR") || n.endsWith("_ADDRESS")
                || n.endsWith("_SERVERS") || n.endsWith("_SERVER") || n.endsWith("_BROKERS") || n.endsWith("_ENDPOINT")
                || n.endsWith("_DSN") || n.equals("BOOTSTRAP_SERVERS");
    }

    private static final List<String> BROKER_IMAGES = List.of("redis", "valkey", "keydb", "rabbitmq", "nats", "kafka",
            "redpanda", "zookeeper", "cp-kafka", "cp-server", "redis-stack", "redis-stack-server", "dragonfly", "kvrocks");

    /** An image whose /bin/sh is BusyBox ash: Alpine-based tags, busybox itself. */
    static boolean alpineShell(String image) {
        String i = image.toLowerCase(java.util.Locale.ROOT);
        return i.contains("alpine") || i.startsWith("busybox") || i.contains("/busybox");
    }

    /**
     * An image whose /bin/sh is dash: Debian's and Ubuntu's tags, and Docker's official images
     * (no registry, no namespace) without an Alpine tag, which are built on Debian.
     */
    static boolean debianShell(String image) {
        String i = image.toLowerCase(java.util.Locale.ROOT);
        if (i.isBlank() || alpineShell(i) || i.contains("distroless") || i.contains("${")) {
            return false;
        }
        if (i.matches(".*(debian|ubuntu|bookworm|bullseye|buster|trixie|jammy|focal|noble|-slim|eclipse-temurin).*")) {
            return true;
        }
        String repo = i.replaceFirst("^docker\\.io/(library/)?", "");
        return !repo.contains("/") && !repo.isBlank();
    }

    /** Whether the image is a broker's own ({@code redis:7}, {@code bitnami/rabbitmq}, {@code apache/kafka}). */
    boolean isBroker() {
        return brokerOfImage(image) != null;
    }

    /** The broker an image runs ({@code redis} for {@code docker.io/library/redis:7-alpine}), or null. */
    static String brokerOfImage(String image) {
        if (image == null || image.isBlank()) {
            return null;
        }
        String i = image.toLowerCase(java.util.Locale.ROOT);
        int at = i.indexOf('@');
        if (at >= 0) {
            i = i.substring(0, at);
        }
        int colon = i.lastIndexOf(':');
        if (colon > i.lastIndexOf('/')) {
            i = i.substring(0, colon);
        }
        String last = i.substring(i.lastIndexOf('/') + 1);
        for (String b : BROKER_IMAGES) {
            String name = b.substring(b.lastIndexOf('/') + 1);
            if (last.equals(name) || last.startsWith(name + "-") && !last.contains("exporter") && !last.contains("commander")
                    && !last.contains("insight") && !last.contains("ui") && !last.contains("connect")
                    && !last.contains("rest") && !last.contains("schema")) {
                return switch (name) {
                    case "valkey", "keydb", "redis-stack", "redis-stack-server", "dragonfly", "kvrocks" -> "redis";
                    case "cp-kafka", "cp-server", "redpanda" -> "kafka";
                    default -> name;
                };
            }
        }
        return null;
    }
}
