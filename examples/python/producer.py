#!/usr/bin/env python3
"""A producer as a Python team writes it: LPUSHes thumbnail jobs, some in an older format.

Run by the cold-start harness as a command (examples/src/test/.../PythonWorkerColdStartTest.java).
The harness's contract for a producer that is a program: enqueue JOB_COUNT jobs, JOB_SKEWED of
them with schema skew, ids prefixed with RUN_ID, and write one line per job to JOB_MANIFEST:
'<id> ok' or '<id> skew:<how>'. The queue name is its own variable, THUMBNAIL_QUEUE.
"""
import json
import os
import sys
import time

import redis


def wait_for_redis(client, limit_seconds=60):
    started = time.monotonic()
    while True:
        try:
            client.ping()
            return
        except redis.exceptions.ConnectionError as e:  # refused, or BusyLoadingError while it loads
            if time.monotonic() - started > limit_seconds:
                print("redis not ready after %d s: %s" % (limit_seconds, e), flush=True)
                sys.exit(69)
            time.sleep(0.2)


def main():
    client = redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=5, socket_connect_timeout=2)
    queue = os.environ["THUMBNAIL_QUEUE"]
    count = int(os.environ["JOB_COUNT"])
    skewed = int(os.environ["JOB_SKEWED"])
    run_id = os.environ["RUN_ID"]
    wait_for_redis(client)
    # skew spread over the run: every (count // skewed)-th job, alternating the two old formats
    step = max(1, count // max(1, skewed))
    skewed_at = {i * step + step // 2: ("renamed-id" if n % 2 == 0 else "width-as-string")
                 for n, i in enumerate(range(skewed))}
    jobs = []
    lines = []
    for i in range(count):
        job_id = "%s-%04d" % (run_id, i)
        how = skewed_at.get(i)
        job = {"job_id": job_id, "type": "thumbnail", "image": "images/%05d.png" % i, "width": 160 + i % 4 * 80}
        if how == "renamed-id":
            job["id"] = job.pop("job_id")
        elif how == "width-as-string":
            job["width"] = "%dpx" % job["width"]
        jobs.append(json.dumps(job))
        lines.append("%s %s" % (job_id, "skew:" + how if how else "ok"))
    # the manifest first: a push that fails after it shows up as a missing job, never as no job
    with open(os.environ["JOB_MANIFEST"], "w") as manifest:
        manifest.write("\n".join(lines) + "\n")
    for job in jobs:
        client.lpush(queue, job)
    print("enqueued %d jobs to %s, %d with schema skew" % (count, queue, len(skewed_at)), flush=True)


if __name__ == "__main__":
    main()
