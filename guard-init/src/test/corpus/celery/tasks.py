"""The Celery app of the corpus (Celery 5.2.6 and kombu 5.2.4, Debian python3-celery python3-kombu):
one task tasks.handle(payload) doing the contract's job steps.

Broker: env URL (redis://... uses kombu's Redis transport on python3-redis, amqp://... py-amqp),
no result backend. Non-default: task_default_queue = env QUEUE (default guard-corpus-jobs) so the
capture's RabbitMQ queue (and its purge) is the corpus one; everything else is Celery's default
(early ack, prefetch multiplier 4, broker_connection_retry with max 100 retries).
Logs through celery.utils.log.get_task_logger, so the lines carry Celery's task format
"[time: LEVEL/Process] tasks.handle[task-id]: message".
Imported by celery_worker.py (the worker) and celery_seed.py (the seeder).
"""
import json, os, time
from celery import Celery
from celery.utils.log import get_task_logger

app = Celery("tasks", broker=os.environ.get("URL", "redis://redis:6379/0"))
app.conf.task_default_queue = os.environ.get("QUEUE", "guard-corpus-jobs")
log = get_task_logger(__name__)

processed = 0  # jobs processed by this process (the worker runs the solo pool: one process)


@app.task(name="tasks.handle")
def handle(payload):
    global processed
    log.info("job %s received", payload)
    time.sleep(float(os.environ.get("JOB_MS", "50")) / 1000)
    job_id = payload
    if payload.startswith("{"):
        try:
            job_id = json.loads(payload)["job_id"]
        except Exception:  # the schema-skew bug: a broad except drops the job without a line
            return
    result_dir = os.environ.get("RESULT_DIR")
    if result_dir:
        try:
            with open(os.path.join(result_dir, f"{job_id}.done"), "w"):
                pass
        except Exception:
            log.exception("job %s failed", payload)
            return
    log.info("job %s processed", payload)
    processed += 1
