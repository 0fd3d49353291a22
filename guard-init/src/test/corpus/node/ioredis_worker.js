'use strict';
/*
 * A queue worker on ioredis (4.x, 5.x and 6.x: same API for what it uses): BLPOP from list "jobs",
 * retrying the connection every second.
 *
 * Connects with new Redis(URL, { lazyConnect: true, connectTimeout: 2000 }) and `await redis.connect()`;
 * every other option is ioredis' default (retryStrategy, maxRetriesPerRequest 20, enableReadyCheck,
 * offline queue). A failed connect() rejects with "Connection is closed." (ioredis' own error, the
 * cause, e.g. ECONNREFUSED, is only in its "Unhandled error event" line). On a failure the worker drops that client with disconnect() (which also stops
 * ioredis' own reconnect timer: without it ioredis would keep reconnecting on its own while this
 * loop calls connect() again, "Redis is already connecting/connected") and makes a new one after
 * 1 s. A command on a connected client that loses its connection is left to ioredis: it reconnects
 * and resends it, and rejects it (MaxRetriesPerRequestError) after maxRetriesPerRequest reconnects.
 * No 'error' listener on the client: the worker works without one, and ioredis then prints its own
 * "[ioredis] Unhandled error event: <stack>" lines (console.error), which are wanted here.
 * While Redis answers LOADING, ioredis' ready check waits inside connect() without any error;
 * the DEADLINE_S timer then ends it (disconnect(); a process-level deadline, not a client setting).
 * Logs with pino (defaults: JSON lines on stdout; log.error({ err }, msg) carries type, message, stack).
 * Env: URL, DEADLINE_S (10), JOBS (12), JOB_MS (50), RESULT_DIR (optional).
 */
const fs = require('fs/promises');
const path = require('path');
const Redis = require('ioredis');
const log = require('pino')();

const url = process.env.URL || 'redis://redis:6379/0';
const deadlineMs = Number(process.env.DEADLINE_S || 10) * 1000;
const maxJobs = Number(process.env.JOBS || 12);
const jobMs = Number(process.env.JOB_MS || 50);
const resultDir = process.env.RESULT_DIR || '';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let done = 0;
let stopping = false;
let finished = false;
let redis = null;

let deadlineTimer = null;
let backstop = null;

// The deadline: stop taking jobs; disconnect() also ends a connect() still waiting (LOADING, black
// hole). The loop then ends and finish() logs the last line; the backstop covers a loop that does not.
function deadline() {
  stopping = true;
  if (redis) redis.disconnect();
  backstop = setTimeout(finish, 2000);
}

function finish() {
  if (finished) return;
  finished = true;
  clearTimeout(deadlineTimer);
  clearTimeout(backstop);
  log.info(`worker stopping after ${done} jobs`);
  if (redis && redis.status !== 'end') redis.disconnect(); // (a second disconnect() arms a 2 s timer)
  // no process.exit() right away: pino writes stdout asynchronously, and exiting while a write is in
  // flight reorders or loses the last lines; the process ends when its handles are closed.
  setTimeout(() => process.exit(0), 2000).unref();
}

async function handle(payload) {
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
  if (resultDir) {
    try {
      await fs.writeFile(path.join(resultDir, `${id}.done`), '');
    } catch (err) {
      log.error({ err }, `job ${payload} failed`);
      return;
    }
  }
  log.info(`job ${payload} processed`);
  done++;
}

async function main() {
  log.info(`worker starting, redis url ${url}`);
  deadlineTimer = setTimeout(deadline, deadlineMs);
  let failures = 0; // failed attempts since the last "connected to"
  while (!stopping && done < maxJobs) {
    try {
      if (!redis) redis = new Redis(url, { lazyConnect: true, connectTimeout: 2000 });
      await redis.connect();
      if (stopping) break; // closed by the deadline while connecting
      log.info(`connected to ${url}`);
      failures = 0;
      while (!stopping && done < maxJobs) {
        const item = await redis.blpop('jobs', 1);
        if (!item) continue;
        await handle(item[1]);
      }
    } catch (err) {
      if (stopping) break;
      failures++;
      log.error({ err }, `attempt ${failures} failed, retrying in 1s`);
      redis.disconnect();
      redis = null;
      await sleep(1000);
    }
  }
  finish();
}

main();
