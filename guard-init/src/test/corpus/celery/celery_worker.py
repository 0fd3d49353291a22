"""Runs a real Celery worker (5.2.6, Debian) for tasks.handle: app.worker_main(["worker", "--pool=solo",
"--concurrency=1", "--loglevel=INFO"]), broker env URL (redis://... or amqp://...), no result backend.

Celery's own logging is untouched (its default format "[%(asctime)s: %(levelname)s/%(processName)s]",
its banner on stdout, its broker retry lines "consumer: Cannot connect to ...: Trying again in N
seconds... (n/100)"): Celery retries the broker itself, so there is no "attempt N failed" line of
our own, nor a "connected to" one (Celery logs "Connected to <url>" itself). Before the worker
starts, this file logs "worker starting, <kind> url <URL>" in Celery's format (Celery then replaces
the root handler with its own of the same format); after it stops, "worker stopping after N jobs".

Stopping: the solo pool runs the tasks in this process, so a task_postrun handler counts
tasks.processed and, at JOBS, sends this process SIGTERM; a threading.Timer sends SIGTERM at
DEADLINE_S. SIGTERM is Celery's warm shutdown ("worker: Warm shutdown (MainProcess)"), the way a
container stop ends a worker, and it also ends the broker retry loop (checked every second).
Exit status 0, except when Celery stopped by itself (e.g. "Unrecoverable error: AccessRefused" on a
wrong AMQP password): then Celery's own exit status (1), as the bare worker process would give.
"""
import logging, os, signal, sys, threading
sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from celery.signals import task_postrun, worker_init
import tasks

logging.basicConfig(level=logging.INFO, format="[%(asctime)s: %(levelname)s/%(processName)s] %(message)s")
log = logging.getLogger("worker")


stopping = threading.Event()  # set when this file asked Celery to stop


def stop():
    stopping.set()
    os.kill(os.getpid(), signal.SIGTERM)


def main():
    url = os.environ.get("URL", "redis://redis:6379/0")
    kind = "amqp" if url.startswith(("amqp", "pyamqp")) else "redis"
    max_jobs = int(os.environ.get("JOBS", "12"))
    log.info("worker starting, %s url %s", kind, url)

    @task_postrun.connect(weak=False)
    def _count(**_):
        if tasks.processed >= max_jobs:
            stop()

    workers = []  # the WorkController, for its exit code (worker_main does not return it)
    worker_init.connect(lambda sender=None, **_: workers.append(sender), weak=False)

    timer = threading.Timer(float(os.environ.get("DEADLINE_S", "10")), stop)
    timer.daemon = True
    timer.start()
    tasks.app.worker_main(["worker", "--pool=solo", "--concurrency=1", "--loglevel=INFO"])
    rc = workers[0].exitcode if workers else None
    timer.cancel()
    log.info("worker stopping after %d jobs", tasks.processed)
    # 0 when stopped here (deadline or JOBS); Celery's own code when it gave up by itself
    # ("Unrecoverable error", e.g. AMQP ACCESS_REFUSED), as the real worker process exits
    sys.exit(0 if stopping.is_set() else rc or 0)


if __name__ == "__main__":
    main()
