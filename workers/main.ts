// The workers process `npm start` runs beside the API: the outbox relay, which hands every registry
// change written by an import to the BullMQ events queue, and the hourly sweep of last month's credit
// balances back into PostgreSQL (src/limits/credits.ts). Consumers (webhook fan-out and delivery,
// renewal reminders, logo indexing) join this process as they are built.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/knex.ts';
import { createLogger } from '../src/logger.ts';
import { EVENTS_QUEUE, OutboxRelay } from '../src/webhooks/outboxRelay.ts';
import { CreditLedger } from '../src/limits/credits.ts';
import { QuotaRepository } from '../src/limits/quotaRepository.ts';

const config = loadConfig();
const log = createLogger(config.LOG_LEVEL);
const db = createDb(config.DATABASE_URL, 2);
const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
const queue = new Queue(EVENTS_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
const stop = new AbortController();

const relay = new OutboxRelay(db, queue).run(stop.signal, 1000, (err) => log.error({ err }, 'outbox relay failed; retrying'));
// Idempotent and cheap (one SCAN of the credit keys): every process may run it; an hour is soon enough
// for a past month's figures.
const ledger = new CreditLedger(connection, new QuotaRepository(db), config.RATE_LIMIT_PREFIX, log);
const sweep = () => ledger.sweep().then((n) => n && log.info({ credits: n }, 'past months\' balances returned'), (err) => log.error({ err }, 'credit sweep failed'));
const sweeper = setInterval(sweep, 3600_000);
void sweep();
process.send?.('ready');
log.info('workers started: outbox relay, credit sweep');

async function shutdown(): Promise<void> {
  stop.abort();
  clearInterval(sweeper);
  await relay;
  await queue.close();
  connection.disconnect();
  await db.destroy();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
