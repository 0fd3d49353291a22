"""A queue worker on redis-py: BLPOP from list "jobs", retrying the connection every second.

TOPOLOGY=plain (default): redis.Redis.from_url(URL); TOPOLOGY=sentinel: URL
redis-sentinel://host:port[,host:port...]#master, redis.sentinel.Sentinel(...).master_for(master);
TOPOLOGY=cluster: redis.cluster.RedisCluster.from_url(URL) (the seed).
"""
import logging, os, time
import redis

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("worker")


def sentinel_client(url):
    from redis.sentinel import Sentinel
    rest = url.split("://", 1)[1]
    hosts, master = rest.split("#", 1)
    nodes = [(h.rsplit(":", 1)[0], int(h.rsplit(":", 1)[1])) for h in hosts.split(",")]
    sentinel = Sentinel(nodes, socket_connect_timeout=2, sentinel_kwargs={"socket_connect_timeout": 2})
    return sentinel.master_for(master, decode_responses=True)


def main():
    url = os.environ.get("URL", "redis://redis:6379/0")
    topology = os.environ.get("TOPOLOGY", "plain")
    deadline = time.time() + float(os.environ.get("DEADLINE_S", "10"))
    max_jobs = int(os.environ.get("JOBS", "12"))
    job_s = float(os.environ.get("JOB_MS", "50")) / 1000
    log.info("worker starting, redis url %s", url)
    if topology == "sentinel":
        r = sentinel_client(url)
    elif topology == "cluster":
        r = None  # RedisCluster connects to the seed in its constructor: made in the retry loop
    else:
        r = redis.Redis.from_url(url, socket_connect_timeout=2, decode_responses=True)
    failures = done = 0  # consecutive failed attempts; a successful connect starts a new count
    while time.time() < deadline and done < max_jobs:
        try:
            if r is None:
                from redis.cluster import RedisCluster
                r = RedisCluster.from_url(url, socket_connect_timeout=2, decode_responses=True)
            r.ping()
            log.info("connected to %s", url)
            failures = 0
            while time.time() < deadline and done < max_jobs:
                item = r.blpop("jobs", timeout=1)
                if not item:
                    continue
                log.info("job %s received", item[1])
                time.sleep(job_s)
                log.info("job %s processed", item[1])
                done += 1
        except Exception:
            failures += 1
            log.exception("attempt %d failed, retrying in 1s", failures)
            time.sleep(1)
    log.info("worker stopping after %d jobs", done)

if __name__ == "__main__":
    main()
