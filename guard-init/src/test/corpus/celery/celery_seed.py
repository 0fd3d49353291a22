"""Seeds Celery jobs: env URL (the broker), each argument one tasks.handle(payload) message sent with
app.send_task("tasks.handle", args=[payload]) (Celery's own message format, queue env QUEUE as in
tasks.py), then exits."""
import os, sys
sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tasks import app

for payload in sys.argv[1:]:
    app.send_task("tasks.handle", args=[payload])
