package dev.guard.queue.redis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A job's results, as Redis writes that {@link RedisCompletions#complete} applies in the same
 * script as the job's completion record: all of them, once per job id, or none. The handler adds
 * them instead of writing them itself. Each write is a Redis command whose keys come first
 * ({@link #command}); the common ones have their own method. On a Redis Cluster every key must be
 * in the completion records' hash slot (a script touches one slot): a key outside it is refused
 * when it is added, naming the hash tag to use.
 *
 * <p>A script is not rolled back when one of its commands fails (Redis runs a script's commands
 * one by one): writes before a failing one stay, and no completion is recorded, so the job fails
 * and is dead-lettered with Redis's error. Use writes that cannot fail on the keys' types.
 */
public final class RedisWrites {

    /** One command: its name, its keys, then its other arguments. */
    record Write(String command, List<String> keys, List<String> args) {
    }

    private final List<Write> writes = new ArrayList<>();
    private final java.util.function.Consumer<String> keyCheck;
    private final long token;

    RedisWrites(long token, java.util.function.Consumer<String> keyCheck) {
        this.token = token;
        this.keyCheck = keyCheck;
    }

    /**
     * The fencing token of this run's claim: larger than every earlier claim of the job. For a
     * store outside Redis that can refuse a write carrying an older token than one it has seen
     * (a conditional update on a version column), pass it along with the write.
     */
    public long token() {
        return token;
    }

    /** {@code HSET key field value}. */
    public RedisWrites hset(String key, String field, String value) {
        return command("HSET", List.of(key), field, value);
    }

    /** {@code HSETNX key field value}. */
    public RedisWrites hsetnx(String key, String field, String value) {
        return command("HSETNX", List.of(key), field, value);
    }

    /** {@code HINCRBY key field by}. */
    public RedisWrites hincrby(String key, String field, long by) {
        return command("HINCRBY", List.of(key), field, Long.toString(by));
    }

    /** {@code SET key value}. */
    public RedisWrites set(String key, String value) {
        return command("SET", List.of(key), value);
    }

    /** {@code INCRBY key by}. */
    public RedisWrites incrby(String key, long by) {
        return command("INCRBY", List.of(key), Long.toString(by));
    }

    /** {@code LPUSH key value...}: a producer's end of a queue that guard's list queues take from the right. */
    public RedisWrites lpush(String key, String... values) {
        return command("LPUSH", List.of(key), values);
    }

    /** {@code RPUSH key value...}. */
    public RedisWrites rpush(String key, String... values) {
        return command("RPUSH", List.of(key), values);
    }

    /** {@code SADD key member...}. */
    public RedisWrites sadd(String key, String... members) {
        return command("SADD", List.of(key), members);
    }

    /**
     * Any write command whose keys come first: {@code command("XADD", List.of("events"), "*", "job", id)}.
     * The script calls {@code redis.call(command, keys..., args...)}.
     */
    public RedisWrites command(String command, List<String> keys, String... args) {
        Objects.requireNonNull(command, "command");
        if (command.isBlank()) {
            throw new IllegalArgumentException("a write needs a command name");
        }
        List<String> k = List.copyOf(keys);
        for (String key : k) {
            keyCheck.accept(key);
        }
        List<String> a = new ArrayList<>(args.length);
        for (String arg : args) {
            a.add(Objects.requireNonNull(arg, "argument"));
        }
        writes.add(new Write(command, k, Collections.unmodifiableList(a)));
        return this;
    }

    /** The writes so far, in order. */
    List<Write> writes() {
        return Collections.unmodifiableList(writes);
    }

    /** How many writes were added. */
    public int size() {
        return writes.size();
    }
}
