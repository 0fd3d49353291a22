// A queue worker on amqplib (npm `amqplib`, the promise API `require('amqplib')`; runs unchanged
// on 0.8.x, 0.10.x and 1.x/2.x: the calls used here did not change).
//
// Connects with amqp.connect(URL, { timeout: 2000 }) (amqplib's socket connect timeout), asserts the
// durable queue QUEUE (default guard-corpus-jobs), prefetch 1, consumes with manual ack; jobs are
// handled one at a time (prefetch 1: the next delivery comes after the ack). Any failure (connect,
// channel, connection lost) ends the session: `attempt N failed, retrying in 1s`, then a new
// connection. Logs with plain console: INFO lines are `<ISO time> INFO <message>` on stdout, errors
// `console.error('<ISO time> ERROR <message>', err)` on stderr, so Node prints the error's stack and
// its own properties (code, errno, syscall, address, port) as util.inspect shows them.
//
// Non-default, and why: an 'error' listener on the connection and on the channel. amqplib emits
// 'error' on them when the server or the socket closes them with an error, and an EventEmitter
// 'error' without a listener throws (the process would crash); the listeners only end the session,
// so the error is logged by the retry loop as every real worker's listener would. Jobs are acked
// after they were handled, also the failed and dropped ones (so those are not redelivered to this
// worker); deliveries arriving after JOBS/the deadline are left unacked (RabbitMQ requeues them).
// A job still running when the connection is lost finishes (its `processed` line may follow the
// `attempt N failed` line); its ack then fails on the closed channel and only ends the (already
// ended) session: the loss itself is what the retry loop logs, and RabbitMQ redelivers the job.
//
// Env: URL, QUEUE, DEADLINE_S (10), JOBS (12), JOB_MS (50), RESULT_DIR (optional).
'use strict';
const amqp = require('amqplib');
const fs = require('fs');
const path = require('path');

const env = (k, d) => (process.env[k] ? process.env[k] : d);
const url = env('URL', 'amqp://guest:guest@rabbitmq:5672/%2F');
const queue = env('QUEUE', 'guard-corpus-jobs');
const deadline = Date.now() + Number(env('DEADLINE_S', '10')) * 1000;
const maxJobs = Number(env('JOBS', '12'));
const jobMs = Number(env('JOB_MS', '50'));
const resultDir = env('RESULT_DIR', '');

const info = (msg) => console.log(`${new Date().toISOString()} INFO ${msg}`);
const error = (msg, err) => console.error(`${new Date().toISOString()} ERROR ${msg}`, err);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let done = 0;
let failures = 0; // failed attempts since the last `connected to`

// One job: true when processed.
async function handle(payload) {
  info(`job ${payload} received`);
  await sleep(jobMs);
  try {
    const id = payload.startsWith('{') ? JSON.parse(payload).job_id.toString() : payload;
    if (resultDir) {
      try {
        await fs.promises.writeFile(path.join(resultDir, `${id}.done`), '');
      } catch (err) {
        error(`job ${payload} failed`, err);
        return false;
      }
    }
    info(`job ${payload} processed`);
    return true;
  } catch (e) {
    // the modelled bug: a broad catch swallows the error (here a TypeError on a payload without
    // job_id) and the job is dropped without a trace
    return false;
  }
}

// One connection: resolves at the deadline or after JOBS jobs, rejects when anything fails.
async function session() {
  const conn = await amqp.connect(url, { timeout: 2000 });
  info(`connected to ${url}`);
  failures = 0;
  let stop;
  const stopped = new Promise((resolve) => { stop = resolve; });
  let finished = false;
  let current = Promise.resolve();
  conn.on('error', (err) => stop(err));
  conn.on('close', (err) => stop(err || new Error('connection closed')));
  const timer = setTimeout(() => stop(), Math.max(0, deadline - Date.now()));
  try {
    const ch = await conn.createChannel();
    ch.on('error', (err) => stop(err)); // the server closed the channel (a lost connection is conn's)
    await ch.assertQueue(queue, { durable: true });
    await ch.prefetch(1);
    await ch.consume(queue, (msg) => {
      if (msg === null) { stop(new Error('consumer cancelled by the server')); return; }
      if (finished) return;
      current = handle(msg.content.toString())
        .then((ok) => {
          ch.ack(msg);
          if (ok && ++done >= maxJobs) stop();
        })
        .catch((err) => stop(err));
    }, { noAck: false });
    const err = await stopped;
    finished = true;
    if (err) throw err;
    await current;
  } finally {
    finished = true;
    clearTimeout(timer);
    stop(); // no-op when already stopped
    conn.removeAllListeners('close');
    try { await conn.close(); } catch (e) { /* already closed */ }
  }
}

async function main() {
  info(`worker starting, amqp url ${url}`);
  while (Date.now() < deadline && done < maxJobs) {
    try {
      await session();
    } catch (err) {
      failures++;
      error(`attempt ${failures} failed, retrying in 1s`, err);
      await sleep(1000);
    }
  }
  info(`worker stopping after ${done} jobs`);
  process.exit(0);
}

main();
