// A queue worker on kafkajs (npm `kafkajs`, 1.x and 2.x): consumes topic `jobs` in group `worker`
// from the earliest offset (fromBeginning: true), one message at a time (eachMessage, one
// partition at a time: kafkajs's default), offsets committed by kafkajs's autoCommit (its default).
//
// Client: new Kafka({ brokers: [URL], connectionTimeout: 2000, retry: { retries: 3 } }) (URL is
// host:port; clientId left at kafkajs's default). Non-default, and why: kafkajs retries every
// broker operation itself (defaults: connectionTimeout 1000 ms, retry { initialRetryTime 300 ms,
// factor 0.2, multiplier 2, maxRetryTime 30 s, retries 5 }, so a refused broker surfaces only after
// ~11 s and a black hole after ~17 s); here connectionTimeout is 2000 ms (the corpus's connect
// timeout) and retries 3 (the rest at the defaults), so consumer.connect() gives up after ~2 s on
// a refused broker and ~10 s on a black hole and the worker's own retry loop shows.
// kafkajs's own logger is kept exactly as it is (its default logCreator writes JSON lines to the
// console at level INFO: connection errors, retries, consumer group joins, "Stopped").
// API difference: subscribe({ topics: ['jobs'] }) on 2.x, subscribe({ topic: 'jobs' }) on 1.x
// (1.x has no `topics`).
//
// A session: new consumer, connect (then `connected to URL`), subscribe, run; it ends at the
// deadline or after JOBS jobs (consumer.disconnect(), started from the handler so that the runner
// stops before the next message of the batch; kafkajs's disconnect waits for a fetch in flight,
// up to its maxWaitTimeInMs of 5 s), or with an error: a failed connect/subscribe/run,
// or a consumer CRASH kafkajs does not restart itself (restart: false). Retriable failures after
// the start are kafkajs's own business (it logs them and restarts the consumer).
//
// The worker's own lines: pino 9 (JSON lines on stdout, pino's defaults; logger name "worker"),
// errors as log.error({ err }, msg).
//
// Env: URL (host:port), DEADLINE_S (10), JOBS (12), JOB_MS (50), RESULT_DIR (optional).
'use strict';
const { Kafka } = require('kafkajs');
const kafkajsVersion = require('kafkajs/package.json').version;
const fs = require('fs');
const path = require('path');
const log = require('pino')({ name: 'worker' });

const env = (k, d) => (process.env[k] ? process.env[k] : d);
const url = env('URL', 'kafka:9092');
const deadline = Date.now() + Number(env('DEADLINE_S', '10')) * 1000;
const maxJobs = Number(env('JOBS', '12'));
const jobMs = Number(env('JOB_MS', '50'));
const resultDir = env('RESULT_DIR', '');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const v2 = Number(kafkajsVersion.split('.')[0]) >= 2;

const kafka = new Kafka({ brokers: [url], connectionTimeout: 2000, retry: { retries: 3 } });

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

// One consumer: resolves at the deadline or after JOBS jobs, rejects on a failure.
async function session() {
  const consumer = kafka.consumer({ groupId: 'worker' });
  let stop;
  const stopped = new Promise((resolve) => { stop = resolve; });
  let disconnecting = null;
  const finish = (err) => {
    if (!disconnecting) disconnecting = consumer.disconnect().catch(() => {}); // kafkajs logs it
    stop(err);
  };
  let timer;
  try {
    await consumer.connect(); // not cut short at the deadline (a disconnect would not stop it)
    log.info(`connected to ${url}`);
    failures = 0;
    timer = setTimeout(() => finish(), Math.max(0, deadline - Date.now()));
    consumer.on(consumer.events.CRASH, (e) => {
      if (!e.payload.restart) finish(e.payload.error);
    });
    await consumer.subscribe(v2 ? { topics: ['jobs'], fromBeginning: true } : { topic: 'jobs', fromBeginning: true });
    log.info('subscribed to jobs');
    await consumer.run({
      eachMessage: async ({ message }) => {
        if (disconnecting) return; // not reached: the runner stops before the next message
        if (await handle(message.value.toString()) && ++done >= maxJobs) finish();
      },
    });
    const err = await stopped;
    if (err) throw err;
  } finally {
    clearTimeout(timer);
    if (!disconnecting) disconnecting = consumer.disconnect().catch(() => {});
    await disconnecting;
  }
}

async function main() {
  log.info(`worker starting, kafka url ${url}`);
  while (Date.now() < deadline && done < maxJobs) {
    try {
      await session();
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
