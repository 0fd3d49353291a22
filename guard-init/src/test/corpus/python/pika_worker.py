"""A queue worker on pika: basic_get from a durable queue, retrying the connection every second."""
import logging, os, re, time
import pika

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("worker")

def main():
    url = os.environ.get("URL", "amqp://guest:guest@rabbitmq:5672/%2F")
    queue = os.environ.get("QUEUE", "guard-corpus-jobs")
    deadline = time.time() + float(os.environ.get("DEADLINE_S", "10"))
    max_jobs = int(os.environ.get("JOBS", "12"))
    job_s = float(os.environ.get("JOB_MS", "50")) / 1000
    log.info("worker starting, amqp url %s", re.sub(r"//([^:]*):[^@]*@", r"//\1:***@", url))
    params = pika.URLParameters(url)
    params.socket_timeout = 2
    params.connection_attempts = 1
    attempt = done = 0
    while time.time() < deadline and done < max_jobs:
        attempt += 1
        conn = None
        try:
            conn = pika.BlockingConnection(params)
            ch = conn.channel()
            ch.queue_declare(queue=queue, durable=True)
            log.info("connected, consuming %s", queue)
            attempt = 0
            while time.time() < deadline and done < max_jobs:
                method, _props, body = ch.basic_get(queue=queue, auto_ack=False)
                if method is None:
                    time.sleep(0.2)
                    continue
                job = body.decode()
                log.info("job %s received", job)
                time.sleep(job_s)
                ch.basic_ack(method.delivery_tag)
                log.info("job %s processed", job)
                done += 1
        except Exception:
            log.exception("attempt %d failed, retrying in 1s", attempt)
            time.sleep(1)
        finally:
            if conn is not None and conn.is_open:
                conn.close()
    log.info("worker stopping after %d jobs", done)

if __name__ == "__main__":
    main()
