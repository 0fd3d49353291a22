'use strict';
/*
 * Seeds BullMQ queue "jobs": node bullmq_seed.js PAYLOAD... with env URL (redis://host:port/db).
 * Each payload becomes one job, queue.add('job', { payload }), in order; then closes and exits
 * (exit 1 with the error on stderr if Redis cannot be reached).
 */
const { Queue } = require('bullmq');
const IORedis = require('ioredis');

const connection = new IORedis(process.env.URL || 'redis://redis:6379/0', { maxRetriesPerRequest: 1 });
const queue = new Queue('jobs', { connection });

(async () => {
  for (const payload of process.argv.slice(2)) await queue.add('job', { payload });
  await queue.close();
  await connection.quit();
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
