'use strict';
/*
 * A queue worker on node-redis (npm package "redis"): BLPOP from list "jobs", retrying the
 * connection every second. The API differs by major version; the worker branches on it:
 *  - 3.x (callback API): redis.createClient(URL, { connect_timeout: 2000 }) connects at once; the
 *    worker waits for a PING. In 3.x connect_timeout is also the budget of the client's own
 *    reconnects: after 2 s of failures it gives up ("Redis connection in broken state: connection
 *    timeout exceeded.", the PING rejected with it) and is dead, so the worker makes a new client
 *    per failed attempt. BLPOP through client.blpop('jobs', 1, callback).
 *  - 4.x and later: createClient({ url: URL, socket: { connectTimeout: 2000 } }) and
 *    `await client.connect()`; client.blPop('jobs', 1). With the default reconnectStrategy the
 *    client retries forever and connect() neither resolves nor rejects while the server is
 *    unreachable: the only trace of a refused/unknown host is then the client's 'error' events,
 *    and no "attempt N failed" line (that is how node-redis 4+ behaves; the DEADLINE_S timer,
 *    process-level, ends the run by closing the client).
 * 'error' listener: node-redis emits every connection error as an 'error' event, and an EventEmitter
 * 'error' without a listener is thrown: 3.x then crashes on the first refused connect ("Unhandled
 * 'error' event", Error: connect ECONNREFUSED ...); 4.x-6.x crash as soon as an established
 * connection drops (SocketClosedUnexpectedlyError). So the worker attaches the minimal listener the
 * README tells every app to have, client.on('error', err => ...), logging with console.error. (Found
 * in testing: without it, 4.x-6.x connect() rejects with the raw error on the first refusal instead
 * of reconnecting; with it, connect() keeps reconnecting, as described above.)
 * Logs with plain console: console.log('<ISO time> INFO ...'); errors console.error('<ISO time>
 * ERROR ...', err) so Node prints the error's stack and properties.
 * Env: URL, DEADLINE_S (10), JOBS (12), JOB_MS (50), RESULT_DIR (optional).
 */
const fs = require('fs/promises');
const path = require('path');
const redis = require('redis');
const major = Number(require('redis/package.json').version.split('.')[0]);

const url = process.env.URL || 'redis://redis:6379/0';
const deadlineMs = Number(process.env.DEADLINE_S || 10) * 1000;
const maxJobs = Number(process.env.JOBS || 12);
const jobMs = Number(process.env.JOB_MS || 50);
const resultDir = process.env.RESULT_DIR || '';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const info = (msg) => console.log(`${new Date().toISOString()} INFO ${msg}`);
const error = (msg, err) => console.error(`${new Date().toISOString()} ERROR ${msg}`, err);

let done = 0;
let stopping = false;
let finished = false;
let client = null;

function newClient() {
  const c = major < 4
    ? redis.createClient(url, { connect_timeout: 2000 })
    : redis.createClient({ url, socket: { connectTimeout: 2000 } });
  c.on('error', (err) => error('Redis Client Error', err)); // required: an unhandled 'error' event kills the process
  return c;
}

async function connect(c) {
  if (major < 4) {
    await new Promise((resolve, reject) => c.ping((err) => (err ? reject(err) : resolve())));
  } else {
    await c.connect();
  }
}

async function blpop(c) { // the job's payload, or null when BLPOP timed out
  if (major < 4) {
    const r = await new Promise((resolve, reject) =>
      c.blpop('jobs', 1, (err, reply) => (err ? reject(err) : resolve(reply))));
    return r ? r[1] : null;
  }
  const r = await c.blPop('jobs', 1);
  return r ? r.element : null;
}

function drop(c) { // closes a client at once (stops its reconnecting, fails its pending commands)
  try {
    if (major < 4) c.end(true);
    else if (typeof c.destroy === 'function') c.destroy();
    else if (c.isOpen) c.disconnect().catch(() => {});
  } catch (e) { /* already closed */ }
}

let deadlineTimer = null;

// The deadline: stop taking jobs and close the client, which also ends a connect() or PING still
// waiting; the loop then ends and finish() logs the last line (at once if the loop is stuck).
function deadline() {
  stopping = true;
  if (client) drop(client);
  setTimeout(finish, 2000);
}

function finish() {
  if (finished) return;
  finished = true;
  clearTimeout(deadlineTimer);
  info(`worker stopping after ${done} jobs`);
  if (client) drop(client);
  process.exit(0); // console writes to files and pipes are synchronous: nothing is lost
}

async function handle(payload) {
  info(`job ${payload} received`);
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
      error(`job ${payload} failed`, err);
      return;
    }
  }
  info(`job ${payload} processed`);
  done++;
}

async function main() {
  info(`worker starting, redis url ${url}`);
  deadlineTimer = setTimeout(deadline, deadlineMs);
  let failures = 0; // failed attempts since the last "connected to"
  while (!stopping && done < maxJobs) {
    try {
      if (!client) client = newClient();
      await connect(client);
      if (stopping) break; // closed by the deadline while connecting
      info(`connected to ${url}`);
      failures = 0;
      while (!stopping && done < maxJobs) {
        const payload = await blpop(client);
        if (payload === null) continue;
        await handle(payload);
      }
    } catch (err) {
      if (stopping) break;
      failures++;
      error(`attempt ${failures} failed, retrying in 1s`, err);
      drop(client);
      client = null;
      await sleep(1000);
    }
  }
  finish();
}

main();
