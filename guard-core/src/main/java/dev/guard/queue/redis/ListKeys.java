package dev.guard.queue.redis;

/** The keys a crash-safe list queue uses, all derived from the queue name. */
final class ListKeys {

    final String queue;
    final String workers;
    final String interruptions;
    final String dead;

    ListKeys(String queue, String dead) {
        this.queue = queue;
        this.workers = queue + ":workers";
        this.interruptions = queue + ":interruptions";
        this.dead = dead == null ? queue + ":dead" : dead;
    }

    String processing(String workerId) {
        return queue + ":processing:" + workerId;
    }

    String lease(String workerId) {
        return queue + ":lease:" + workerId;
    }

    String[] scriptKeys() {
        return new String[] {workers, queue, interruptions, dead};
    }

    /**
     * Returns every job of each dead worker (no lease, or ARGV[3] names it and ARGV[4] is "1")
     * to the queue's consuming end, or to the dead-letter list once its interruption count
     * reaches the limit; then forgets the worker. Atomic. KEYS: workers, queue, interruptions,
     * dead. ARGV: queue name (key prefix), limit, only-this-worker or "", force.
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
