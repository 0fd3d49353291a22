// A queue worker on nats.js (npm `nats`): a core subscription on subject `jobs`, jobs handled one
// at a time. Works with both APIs, chosen by what the package exports:
// - nats 1.x (callback/event API): NATS.connect({ url, timeout: 2000 }) returns a client that emits
//   'connect', 'error' and 'close'; nc.subscribe('jobs', cb) and nc.flush(cb) (the server has the
//   subscription when the flush returns). Messages go through a small in-process queue so that only
//   one job runs at a time.
// - nats 2.x (promise API): await connect({ servers: URL, timeout: 2000 }); nc.subscribe('jobs') is
//   an async iterator, await nc.flush(); nc.closed() resolves with the error that closed it.
// Both: `timeout` 2000 ms bounds one connect (1.x has no default, 2.x's is 20 s); reconnection is at
// the client's defaults (10 attempts, 2 s apart, only after a first successful connect), and with
// waitOnFirstConnect at its default (false) a failed first connect is an error right away (1.x:
// an 'error' event, then 'close'; 2.x: connect() rejects), so the retry loop below is the
// worker's. A session ends at the deadline, after JOBS jobs, or with an error (connect failure, or
// the client closing after its own reconnects ran out): `attempt N failed, retrying in 1s`.
//
// Logs with pino 9 (JSON lines on stdout, pino's defaults; logger name "worker"), errors as
// log.error({ err }, msg) so pino's err serializer writes type, message, stack and the error's own
// properties (code, ...). nats.js itself prints nothing by default.
//
// Non-default, and why: with 1.x an 'error' listener is attached (the only way 1.x reports a failed
// connect; without one the EventEmitter throws and the process crashes); it only ends the session
// and the error is logged by the retry loop.
//
// Env: URL (nats://host:4222), DEADLINE_S (10), JOBS (12), JOB_MS (50), RESULT_DIR (optional).
'use strict';
const NATS = require('nats');
const fs = require('fs');
const path = require('path');
const log = require('pino')({ name: 'worker' });

const env = (k, d) => (process.env[k] ? process.env[k] : d);
const url = env('URL', 'nats://nats:4222');
const deadline = Date.now() + Number(env('DEADLINE_S', '10')) * 1000;
const maxJobs = Number(env('JOBS', '12'));
const jobMs = Number(env('JOB_MS', '50'));
const resultDir = env('RESULT_DIR', '');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const v2 = typeof NATS.StringCodec === 'function'; // nats 2.x exports StringCodec; 1.x does not

let done = 0;
let failures = 0; // failed attempts since the last `connected to`

// One job: true when processed.
async function handle(payload) {
  log.info(`job ${payload} received`);
  await sleep(jobMs);
  try {
    const id = payload.startsWith('{') ? JSON.parse(payload).job_id.toString() : payload;
    if (resultDir) {
      try {
        await fs.promises.writeFile(path.join(resultDir, `${id}.done`), '');
      } catch (err) {
        log.error({ err }, `job ${payload} failed`);
        return false;
      }
    }
    log.info(`job ${payload} processed`);
    return true;
  } catch (e) {
    // the modelled bug: a broad catch swallows the error (here a TypeError on a payload without
    // job_id) and the job is dropped without a trace
    return false;
  }
}

function connected() {
  log.info(`connected to ${url}`);
  failures = 0;
}

// nats 2.x: one connection; resolves at the deadline or after JOBS jobs, rejects on a failure.
async function sessionV2() {
  const nc = await NATS.connect({ servers: url, timeout: 2000 });
  connected();
  const sc = NATS.StringCodec();
  const sub = nc.subscribe('jobs');
  const timer = setTimeout(() => sub.unsubscribe(), Math.max(0, deadline - Date.now()));
  try {
    await nc.flush();
    log.info('subscribed to jobs');
    for await (const m of sub) {
      if (Date.now() >= deadline) break;
      if (await handle(sc.decode(m.data)) && ++done >= maxJobs) break;
    }
    if (nc.isClosed()) throw (await nc.closed()) || new Error('connection closed');
  } finally {
    clearTimeout(timer);
    if (!nc.isClosed()) await nc.close();
  }
}

// nats 1.x: the same with the event API.
function sessionV1() {
  return new Promise((resolve, reject) => {
    const nc = NATS.connect({ url, timeout: 2000 });
    const queue = [];
    let finished = false;
    let current = Promise.resolve();
    let timer; // the deadline counts once connected (as with 2.x, a connect is not cut short)
    const end = (err) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      current.then(() => {
        nc.removeAllListeners('close');
        nc.close();
        if (err) reject(err); else resolve();
      });
    };
    nc.on('error', (err) => end(err));
    nc.on('close', () => end(new Error('connection closed')));
    nc.on('connect', () => {
      connected();
      timer = setTimeout(() => end(), Math.max(0, deadline - Date.now()));
      nc.subscribe('jobs', (msg) => {
        queue.push(msg);
        if (queue.length === 1) current = current.then(pump);
      });
      nc.flush(() => log.info('subscribed to jobs'));
    });
    async function pump() {
      while (queue.length > 0 && !finished) {
        if (await handle(String(queue[0])) && ++done >= maxJobs) end();
        queue.shift();
      }
    }
  });
}

async function main() {
  log.info(`worker starting, nats url ${url}`);
  while (Date.now() < deadline && done < maxJobs) {
    try {
      await (v2 ? sessionV2() : sessionV1());
    } catch (err) {
      failures++;
      log.error({ err }, `attempt ${failures} failed, retrying in 1s`);
      await sleep(1000);
    }
  }
  log.info(`worker stopping after ${done} jobs`);
  process.exit(0);
}

main();
