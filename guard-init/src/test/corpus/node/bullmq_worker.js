'use strict';
/*
 * A queue worker on BullMQ (4.x, 5.x, 6.x: same API for what it uses): a Worker on queue "jobs"
 * whose processor takes job.data.payload (jobs added by bullmq_seed.js).
 *
 * Connection: one ioredis client made from the URL, new IORedis(URL, { maxRetriesPerRequest: null,
 * connectTimeout: 2000 }), passed as the Worker's `connection` (BullMQ's documented way to use a
 * URL; BullMQ 4 takes no `url` option). maxRetriesPerRequest: null is what BullMQ requires for a
 * Worker's connection (it warns or throws otherwise); everything else is ioredis' and BullMQ's
 * default: ioredis reconnects on its own, BullMQ duplicates the client for its blocking connection.
 * BullMQ 4/5 bring ioredis 5 as a dependency; BullMQ 6 takes ioredis as an optional peer, installed
 * next to it (clients-node.sh). BullMQ listens to both clients' 'error' events itself and
 * re-emits them as the Worker's 'error' (so ioredis prints no "Unhandled error event" here).
 * Listeners (what a real BullMQ worker has, logging at ERROR with the error): 'error'
 * ("worker error", each connection error as BullMQ reports it; BullMQ has no attempt loop of its own
 * to count, so there is no "attempt N failed" line) and 'failed' ("job <payload> failed": the
 * processor throws when RESULT_DIR cannot be written, BullMQ fails the job). 'ready' logs
 * "connected to <URL>". Schema skew (JSON payload without job_id): the processor's broad catch
 * returns, BullMQ completes the job, no line.
 * Stops at DEADLINE_S (timer) or once JOBS jobs were processed ('completed'): worker.close()
 * (given at most 2 s: with Redis unreachable BullMQ 4 and 6 never finish it, their blocking client
 * reconnecting on; its errors are still logged), then logs "worker stopping after N jobs" and exits.
 * Logs with pino (defaults: JSON lines on stdout; log.error({ err }, msg) carries type, message, stack).
 * Env: URL, DEADLINE_S (10), JOBS (12), JOB_MS (50), RESULT_DIR (optional).
 */
const fs = require('fs/promises');
const path = require('path');
const { Worker } = require('bullmq');
const IORedis = require('ioredis');
const log = require('pino')();

const url = process.env.URL || 'redis://redis:6379/0';
const deadlineMs = Number(process.env.DEADLINE_S || 10) * 1000;
const maxJobs = Number(process.env.JOBS || 12);
const jobMs = Number(process.env.JOB_MS || 50);
const resultDir = process.env.RESULT_DIR || '';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let done = 0;
let stopping = false;

log.info(`worker starting, redis url ${url}`);
const connection = new IORedis(url, { maxRetriesPerRequest: null, connectTimeout: 2000 });

const worker = new Worker('jobs', async (job) => {
  const payload = String(job.data.payload);
  log.info(`job ${payload} received`);
  await sleep(jobMs);
  let id = payload;
  if (payload.startsWith('{')) {
    try {
      id = JSON.parse(payload).job_id.toString();
    } catch (e) {
      return; // the schema-skew bug: a broad catch drops the job without a log line
    }
  }
  if (resultDir) await fs.writeFile(path.join(resultDir, `${id}.done`), ''); // throws: the job fails
  log.info(`job ${payload} processed`);
  done++;
}, { connection });

worker.on('ready', () => log.info(`connected to ${url}`));
worker.on('error', (err) => log.error({ err }, 'worker error'));
worker.on('failed', (job, err) => log.error({ err }, `job ${job ? job.data.payload : '(unknown)'} failed`));
worker.on('completed', () => { if (done >= maxJobs) stop(); });

let deadlineTimer = null;

async function stop() {
  if (stopping) return;
  stopping = true;
  clearTimeout(deadlineTimer);
  let timer;
  const closed = await Promise.race([
    worker.close().then(() => true, () => true),
    new Promise((resolve) => { timer = setTimeout(resolve, 2000, false); }),
  ]);
  clearTimeout(timer);
  log.info(`worker stopping after ${done} jobs`);
  if (closed) connection.disconnect();
  // No process.exit() right away: pino writes stdout asynchronously, and exiting while a write is in
  // flight reorders or loses the last lines. The process ends by itself once its handles are closed,
  // else 50 ms later (close() not finished: Redis unreachable, BullMQ's own blocking client keeps
  // reconnecting and close() waits for it; disconnecting our client then only makes BullMQ log
  // one more error, so it is left as it is).
  setTimeout(() => process.exit(0), 50).unref();
}

deadlineTimer = setTimeout(stop, deadlineMs);
