package dev.guard.init.diagnose;

/** What a captured file (or one service's part of a compose log) holds, told from its content. */
public enum LogKind {
    /** An application's log: a worker, or the backend that enqueues. */
    APPLICATION("application log"),
    /** Redis's own log ({@code Redis is starting}, {@code Ready to accept connections}). */
    REDIS_SERVER("redis server log"),
    /** A broker's own log: RabbitMQ, NATS or Kafka. */
    BROKER_SERVER("broker server log"),
    /** {@code kubectl get pod} output. */
    KUBECTL_GET_POD("kubectl get pod"),
    /** {@code kubectl describe pod} output. */
    KUBECTL_DESCRIBE("kubectl describe pod"),
    /** {@code kubectl get events} output. */
    KUBECTL_EVENTS("kubectl get events"),
    /** {@code docker compose ps} output. */
    COMPOSE_PS("docker compose ps"),
    /** Nothing in it (an empty {@code --previous}, say). */
    EMPTY("empty");

    private final String label;

    LogKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
