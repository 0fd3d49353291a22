#!/usr/bin/env python3
"""A thumbnail worker as a Python team writes it, with redis-py: not guard, not Java.

The cold-start harness (guard-testing) runs it as a command to show that a stack that is not
ours can be put under the same test (examples/src/test/.../PythonWorkerColdStartTest.java).
It does what a careful team does without guard: waits for Redis (refused, then LOADING) with a
bounded backoff, checks each job's fields before it works on it, writes the result by id
(HSET, idempotent), dead-letters what it cannot process with the reason, and prints one line
per job in the runbook's format (job <id> received|processed|rejected: <reason>).

What it does not do: BRPOP takes the job out of Redis, so a worker killed mid-job loses it
(guard's CrashSafeListQueue does not). The harness stops it only once every job has an outcome.

Environment (its own names; the test maps the harness's variables onto them):
  REDIS_URL             where the queue and the stores are (redis://host:port)
  THUMBNAIL_QUEUE       the list the jobs arrive on; results go to <queue>:results,
                        dead letters to <queue>:dead
  DROP_DEAD_LETTERS=1   the bug the negative control plants: log 'rejected' but never write
                        the dead letter (the harness must fail such a worker)
  REDIS_WAIT_SECONDS    how long to wait for Redis at start (default 60)
"""
import json
import os
import signal
import sys
import time

import redis

stopping = False


def on_sigterm(signum, frame):
    global stopping
    stopping = True
    print("SIGTERM: finishing the current job, then exiting", flush=True)


def wait_for_redis(client, limit_seconds):
    """PING until Redis answers PONG: refused while it is down, BusyLoadingError while it loads."""
    started = time.monotonic()
    delay = 0.1
    while True:
        try:
            client.ping()
            print("redis ready after %d ms" % ((time.monotonic() - started) * 1000), flush=True)
            return
        except (redis.exceptions.ConnectionError, redis.exceptions.BusyLoadingError) as e:
            # BusyLoadingError is a ConnectionError subclass in redis-py; named for the reader
            waited = time.monotonic() - started
            if waited > limit_seconds or stopping:
                print("redis not ready after %.1f s: %s" % (waited, e), flush=True)
                sys.exit(69)
            time.sleep(delay)
            delay = min(delay * 2, 1.0)


def job_id_of(job):
    """The id to name a job by in logs and dead letters, even when the producer renamed the field."""
    for field in ("job_id", "jobId", "id"):
        value = job.get(field) if isinstance(job, dict) else None
        if isinstance(value, (str, int)) and str(value):
            return str(value)
    return "unidentified"


def problem_with(job):
    """What is wrong with a job, or None: the fields this worker reads, with their types."""
    if not isinstance(job, dict):
        return "not a JSON object"
    if not isinstance(job.get("job_id"), str) or not job["job_id"]:
        return "job_id missing or not a string (fields: %s)" % ", ".join(sorted(job))
    if not isinstance(job.get("image"), str):
        return "image missing or not a string"
    width = job.get("width")
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        return "width must be a positive integer, was %r" % (width,)
    return None


def main():
    url = os.environ["REDIS_URL"]
    queue = os.environ["THUMBNAIL_QUEUE"]
    drop_dead_letters = os.environ.get("DROP_DEAD_LETTERS") == "1"
    client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=2)
    signal.signal(signal.SIGTERM, on_sigterm)
    print("python worker (redis-py %s) for %s at %s:%s" % (
        redis.__version__, queue, client.connection_pool.connection_kwargs.get("host"),
        client.connection_pool.connection_kwargs.get("port")), flush=True)
    wait_for_redis(client, float(os.environ.get("REDIS_WAIT_SECONDS", "60")))
    while not stopping:
        try:
            popped = client.brpop(queue, timeout=1)
        except redis.exceptions.ConnectionError as e:
            print("lost redis: %s; waiting for it again" % e, flush=True)
            wait_for_redis(client, 60)
            continue
        if popped is None:
            continue
        raw = popped[1].decode("utf-8", "replace")
        try:
            job = json.loads(raw)
        except ValueError as e:
            job = None
            problem = "not JSON: %s" % e
        else:
            problem = problem_with(job)
        jid = job_id_of(job)
        print("job %s received" % jid, flush=True)
        if problem is not None:
            if not drop_dead_letters:
                client.lpush(queue + ":dead", json.dumps({"reason": problem, "payload": raw, "job_id": jid}))
            print("job %s rejected: %s" % (jid, problem), flush=True)
            continue
        result = json.dumps({"thumbnail": "%s@%d" % (job["image"], job["width"])})
        client.hset(queue + ":results", job["job_id"], result)
        print("job %s processed" % jid, flush=True)
    print("stopped", flush=True)


if __name__ == "__main__":
    main()
