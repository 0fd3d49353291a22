"""A queue worker on kafka-python: consumes topic "jobs" in group "worker", retrying the connection."""
import logging, os, time
from kafka import KafkaConsumer

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
logging.getLogger("kafka").setLevel(logging.WARNING)
log = logging.getLogger("worker")

def main():
    bootstrap = os.environ.get("URL", "kafka:9092")
    deadline = time.time() + float(os.environ.get("DEADLINE_S", "10"))
    max_jobs = int(os.environ.get("JOBS", "12"))
    job_s = float(os.environ.get("JOB_MS", "50")) / 1000
    log.info("worker starting, kafka bootstrap servers %s", bootstrap)
    attempt = done = 0
    while time.time() < deadline and done < max_jobs:
        attempt += 1
        try:
            consumer = KafkaConsumer("jobs", bootstrap_servers=bootstrap, group_id="worker",
                                     auto_offset_reset="earliest",
                                     api_version_auto_timeout_ms=2000)
            log.info("subscribed to jobs on %s", bootstrap)
            attempt = 0
            while time.time() < deadline and done < max_jobs:
                for _tp, records in consumer.poll(timeout_ms=1000).items():
                    for rec in records:
                        job = rec.value.decode()
                        log.info("job %s received", job)
                        time.sleep(job_s)
                        log.info("job %s processed", job)
                        done += 1
                consumer.commit()
            consumer.close()
        except Exception:
            log.exception("attempt %d failed, retrying in 1s", attempt)
            time.sleep(1)
    log.info("worker stopping after %d jobs", done)

if __name__ == "__main__":
    main()
