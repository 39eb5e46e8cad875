// The workers process `npm start` runs beside the API: today the outbox relay, which hands every
// registry change written by an import to the BullMQ events queue. Consumers (webhook fan-out and
// delivery, renewal reminders, logo indexing) join this process as they are built.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/knex.ts';
import { createLogger } from '../src/logger.ts';
import { EVENTS_QUEUE, OutboxRelay } from '../src/webhooks/outboxRelay.ts';

const config = loadConfig();
const log = createLogger(config.LOG_LEVEL);
const db = createDb(config.DATABASE_URL, 2);
const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
const queue = new Queue(EVENTS_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
const stop = new AbortController();

const relay = new OutboxRelay(db, queue).run(stop.signal, 1000, (err) => log.error({ err }, 'outbox relay failed; retrying'));
process.send?.('ready');
log.info('workers started: outbox relay');

async function shutdown(): Promise<void> {
  stop.abort();
  await relay;
  await queue.close();
  connection.disconnect();
  await db.destroy();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
