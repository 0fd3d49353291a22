"""Seeds or purges the corpus queue on the machine's RabbitMQ (127.0.0.1:5672, guest/guest)."""
import sys
import pika

conn = pika.BlockingConnection(pika.URLParameters("amqp://guest:guest@127.0.0.1:5672/%2F"))
ch = conn.channel()
q = "guard-corpus-jobs"
if sys.argv[1] == "purge":
    ch.queue_delete(queue=q)
else:
    ch.queue_declare(queue=q, durable=True)
    for job in sys.argv[2:]:
        ch.basic_publish(exchange="", routing_key=q, body=job.encode())
conn.close()
