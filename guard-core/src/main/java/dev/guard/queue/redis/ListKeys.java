package dev.guard.queue.redis;

/**
 * The keys a crash-safe list queue uses, all derived from the queue name: {@code <prefix>:workers},
 * {@code <prefix>:interruptions}, {@code <prefix>:dead}, {@code <prefix>:processing:<id>},
 * {@code <prefix>:lease:<id>}. On a standalone Redis the prefix is the queue name ({@code jobs});
 * on a Cluster it is the queue name as a hash tag ({@code {jobs}}), which hashes to the slot of the
 * queue key itself, so every script and BLMOVE stays in one slot and producers keep pushing to
 * {@code jobs}. A queue name that has a hash tag already ({@code {app}:jobs}) is the prefix as it is.
 */
final class ListKeys {

    final String queue;
    final String prefix;
    final String workers;
    final String interruptions;
    final String dead;

    ListKeys(String queue, String dead) {
        this(queue, dead, false);
    }

    ListKeys(String queue, String dead, boolean cluster) {
        this.queue = queue;
        this.prefix = cluster && !hasHashTag(queue) ? "{" + queue + "}" : queue;
        this.workers = prefix + ":workers";
        this.interruptions = prefix + ":interruptions";
        this.dead = dead == null ? prefix + ":dead" : dead;
    }

    /** True when {@code key} has a hash tag: a '{' followed, later, by a '}' with something between. */
    static boolean hasHashTag(String key) {
        int open = key.indexOf('{');
        if (open < 0) {
            return false;
        }
        int close = key.indexOf('}', open + 1);
        return close > open + 1;
    }

    /** What a key's slot is computed from: its hash tag's content, else the whole key. */
    static String tagOf(String key) {
        if (!hasHashTag(key)) {
            return key;
        }
        int open = key.indexOf('{');
        return key.substring(open + 1, key.indexOf('}', open + 1));
    }

    String processing(String workerId) {
        return prefix + ":processing:" + workerId;
    }

    String lease(String workerId) {
        return prefix + ":lease:" + workerId;
    }

    String[] scriptKeys() {
        return new String[] {workers, queue, interruptions, dead};
    }

    /**
     * Returns every job of each dead worker (no lease, or ARGV[3] names it and ARGV[4] is "1")
     * to the queue's consuming end, or to the dead-letter list once its interruption count
     * reaches the limit; then forgets the worker. Atomic. KEYS: workers, queue, interruptions,
     * dead. ARGV: key prefix, limit, only-this-worker or "", force. The lease and processing keys it
     * builds from the prefix are in the queue's slot (on a Cluster the prefix is its hash tag).
     */
    static final String REAP = String.join("\n",
            "local workers",
            "if ARGV[3] ~= '' then workers = {ARGV[3]} else workers = redis.call('SMEMBERS', KEYS[1]) end",
            "local reaped, returned, dead = 0, 0, 0",
            "local limit = tonumber(ARGV[2])",
            "for _, w in ipairs(workers) do",
            "  if ARGV[4] == '1' or redis.call('EXISTS', ARGV[1] .. ':lease:' .. w) == 0 then",
            "    local plist = ARGV[1] .. ':processing:' .. w",
            "    local n = 0",
            "    while true do",
            "      local job = redis.call('RPOP', plist)",
            "      if not job then break end",
            "      n = n + 1",
            "      if redis.call('HINCRBY', KEYS[3], job, 1) >= limit then",
            "        redis.call('LPUSH', KEYS[4], job); dead = dead + 1",
            "      else",
            "        redis.call('RPUSH', KEYS[2], job); returned = returned + 1",
            "      end",
            "    end",
            "    if ARGV[4] ~= '1' then redis.call('SREM', KEYS[1], w) end",
            "    if n > 0 or ARGV[4] ~= '1' then reaped = reaped + 1 end",
            "  end",
            "end",
            "return {reaped, returned, dead}");

    /**
     * Hands one job back from a processing list: LREM it, count the interruption, RPUSH it to
     * the consuming end of the queue (taken next) or LPUSH it to the dead list at the limit.
     * KEYS: processing, queue, interruptions, dead. ARGV: payload, limit. Returns 1 when
     * returned, 2 when dead-lettered, 0 when the job was no longer in the processing list.
     */
    static final String HAND_BACK = String.join("\n",
            "if redis.call('LREM', KEYS[1], 1, ARGV[1]) == 0 then return 0 end",
            "if redis.call('HINCRBY', KEYS[3], ARGV[1], 1) >= tonumber(ARGV[2]) then",
            "  redis.call('LPUSH', KEYS[4], ARGV[1]); return 2",
            "end",
            "redis.call('RPUSH', KEYS[2], ARGV[1]); return 1");

    /**
     * Returns what is in a live worker's processing list but not in its hands: an ack that failed,
     * or one the old master took but never sent to the replica that a failover promoted. ARGV[1] is
     * the interruption limit, ARGV[2..] the payloads the worker holds (each once per copy held).
     * KEYS: processing, queue, interruptions, dead. Returns {returned, dead-lettered}.
     */
    static final String STRANDED = String.join("\n",
            "local held = {}",
            "for i = 2, #ARGV do held[ARGV[i]] = (held[ARGV[i]] or 0) + 1 end",
            "local returned, dead = 0, 0",
            "for _, job in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do",
            "  if (held[job] or 0) > 0 then held[job] = held[job] - 1",
            "  else",
            "    redis.call('LREM', KEYS[1], 1, job)",
            "    if redis.call('HINCRBY', KEYS[3], job, 1) >= tonumber(ARGV[1]) then",
            "      redis.call('LPUSH', KEYS[4], job); dead = dead + 1",
            "    else",
            "      redis.call('RPUSH', KEYS[2], job); returned = returned + 1",
            "    end",
            "  end",
            "end",
            "return {returned, dead}");

    /**
     * Acks one job and, when ARGV[2] is "1", moves the next one into the processing list in the
     * same step (LMOVE, no blocking inside a script), so a busy worker makes one round trip per job.
     * KEYS: processing, interruptions, queue. ARGV: payload, prefetch. Returns {removed} or
     * {removed, next payload or nil}; removed is 0 when a reaper had returned the job already.
     */
    static final String ACK_NEXT = String.join("\n",
            "local removed = redis.call('LREM', KEYS[1], 1, ARGV[1])",
            "redis.call('HDEL', KEYS[2], ARGV[1])",
            "if ARGV[2] ~= '1' then return {removed} end",
            "return {removed, redis.call('LMOVE', KEYS[3], KEYS[1], 'RIGHT', 'LEFT')}");

    /**
     * Puts a job this worker took but never started back at the consuming end of the queue, with
     * no interruption counted (the prefetched job of a worker that closes). KEYS: processing,
     * queue. ARGV: payload. Returns 0 when it was no longer in the processing list.
     */
    static final String UNTOUCHED = String.join("\n",
            "if redis.call('LREM', KEYS[1], 1, ARGV[1]) == 0 then return 0 end",
            "redis.call('RPUSH', KEYS[2], ARGV[1]); return 1");

    /**
     * Moves a failed job from the processing list to the dead list and forgets its interruption
     * count (a job put back by a person after the fix starts again at zero). KEYS: processing,
     * dead, interruptions. ARGV: payload. Returns 0 when the job was no longer in the processing
     * list (a reaper returned it: it is not parked twice).
     */
    static final String FAIL = String.join("\n",
            "if redis.call('LREM', KEYS[1], 1, ARGV[1]) == 0 then return 0 end",
            "redis.call('HDEL', KEYS[3], ARGV[1])",
            "redis.call('LPUSH', KEYS[2], ARGV[1]); return 1");
}
