"""A queue worker on redis-py: BLPOP from list "jobs", retrying the connection every second."""
import logging, os, time
import redis

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("worker")

def main():
    url = os.environ.get("URL", "redis://redis:6379/0")
    deadline = time.time() + float(os.environ.get("DEADLINE_S", "10"))
    max_jobs = int(os.environ.get("JOBS", "12"))
    job_s = float(os.environ.get("JOB_MS", "50")) / 1000
    log.info("worker starting, redis url %s", url)
    r = redis.Redis.from_url(url, socket_connect_timeout=2, decode_responses=True)
    attempt = done = 0
    while time.time() < deadline and done < max_jobs:
        attempt += 1
        try:
            r.ping()
            log.info("connected to %s", url)
            attempt = 0
            while time.time() < deadline and done < max_jobs:
                item = r.blpop("jobs", timeout=1)
                if not item:
                    continue
                log.info("job %s received", item[1])
                time.sleep(job_s)
                log.info("job %s processed", item[1])
                done += 1
        except Exception:
            log.exception("attempt %d failed, retrying in 1s", attempt)
            time.sleep(1)
    log.info("worker stopping after %d jobs", done)

if __name__ == "__main__":
    main()
