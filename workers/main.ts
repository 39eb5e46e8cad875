// The workers process `npm start` runs beside the API: webhooks (the relay that fans every registry
// change an import or the renewal job records out into deliveries and queues them in BullMQ, signed
// delivery with retries, the daily renewal_due job, mail; src/webhooks/workers.ts) and the hourly sweep of last month's credit
// balances back into PostgreSQL (src/limits/credits.ts). Logo indexing joins it in its issue.
import { Redis } from 'ioredis';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/knex.ts';
import { createLogger } from '../src/logger.ts';
import { WebhookWorkers } from '../src/webhooks/workers.ts';
import { CreditLedger } from '../src/limits/credits.ts';
import { QuotaRepository } from '../src/limits/quotaRepository.ts';
import { createObjectStore } from '../src/storage/factory.ts';
import { UrlSigner } from '../src/storage/urlSigner.ts';
import { startBulkDocumentWorker } from '../src/documents/bulkWorker.ts';
import { startLogoWorkers } from './logos.ts';

const config = loadConfig();
const log = createLogger(config.LOG_LEVEL);
const db = createDb(config.DATABASE_URL, 16);
const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });

const webhooks = new WebhookWorkers(config, db, log);
await webhooks.start();
// Idempotent and cheap (one SCAN of the credit keys): every process may run it; an hour is soon enough
// for a past month's figures.
const ledger = new CreditLedger(connection, new QuotaRepository(db), config.RATE_LIMIT_PREFIX, log);
const sweep = () => ledger.sweep().then((n) => n && log.info({ credits: n }, 'past months\' balances returned'), (err) => log.error({ err }, 'credit sweep failed'));
const sweeper = setInterval(sweep, 3600_000);
void sweep();
// Bulk document zips (POST /v3/documents/bulk/): the consumer, the relay of jobs whose enqueue was lost, the expiry sweep.
const store = createObjectStore(config, new UrlSigner(config.URL_SIGNING_SECRET), () => config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}`);
const bulkDocuments = startBulkDocumentWorker({
  db, store, connection, prefix: config.QUEUE_PREFIX, log, concurrency: config.BULK_DOCUMENTS_CONCURRENCY,
  retentionHours: config.BULK_ZIP_RETENTION_HOURS,
});
// Logo indexing (OCR + embeddings through the ML sidecar) and bulk logo search fan-out.
const logos = startLogoWorkers({ config, db, store, connection, log });
process.send?.('ready');
log.info('workers started: outbox relay, webhook fan-out and delivery, renewal reminders, mail, credit sweep, bulk document zips, logo indexing and bulk logo search');

let stopping: Promise<void> | undefined;
// Once, whichever of a signal and the supervisor's going comes first (both come on a normal stop).
const shutdown = (): Promise<void> => (stopping ??= close());
async function close(): Promise<void> {
  clearInterval(sweeper);
  await webhooks.close();
  await bulkDocuments.close();
  await logos.close();
  await store.close?.();
  connection.disconnect();
  await db.destroy();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
// The supervisor's channel closes when it dies (even by SIGKILL): nobody would stop or restart us then.
process.on('disconnect', () => void shutdown());
