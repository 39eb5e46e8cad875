// The workers process `npm start` runs beside the API, built from the same root (src/root.ts) as the
// API: webhooks (the relay that fans every registry change an import or the renewal job records out
// into deliveries and queues them in BullMQ, signed delivery with retries, the daily renewal_due job,
// mail; workers/webhooks.ts), bulk document zips (workers/bulkDocuments.ts), logo indexing and bulk
// logo search (workers/logos.ts), and the hourly sweep of last month's credit balances back into
// PostgreSQL (src/limits/credits.ts).
import { loadConfig } from '../src/config.ts';
import { Retrying } from '../src/retrying.ts';
import { createRoot, WORKERS } from '../src/root.ts';
import { startBulkDocumentWorker } from './bulkDocuments.ts';
import { startClearanceBatchWorker } from './clearanceBatch.ts';
import { startLogoWorkers } from './logos.ts';
import { stopOnce } from './stopOnce.ts';
import { WatchWorkers } from './watches.ts';
import { WebhookWorkers } from './webhooks.ts';

const config = loadConfig();
const root = createRoot(config, WORKERS);
root.replicas.start();
const { log } = root;

const webhooks = new WebhookWorkers(root);
await webhooks.start();
// Idempotent and cheap (one SCAN of the credit keys): every process may run it; an hour is soon enough
// for a past month's figures.
const { ledger } = root.services;
const sweeping = new Retrying(log, 'credit sweep');
const sweep = () =>
  sweeping.round(async () => {
    const n = await ledger.sweep();
    if (n) log.info({ credits: n }, "past months' balances returned");
  });
const sweeper = setInterval(sweep, 3600_000);
void sweep();
// Bulk document zips (POST /v3/documents/bulk/): the consumer, the relay of jobs whose enqueue was lost, the expiry sweep.
const bulkDocuments = startBulkDocumentWorker(root);
// Batch clearance (POST /v1/clearance/batch/): chunks of proposals screened and charged, and the relay of jobs whose enqueue was lost.
const clearanceBatches = startClearanceBatchWorker(root);
// Logo indexing (OCR + embeddings through the ML sidecar) and bulk logo search fan-out.
const logos = startLogoWorkers(root);
// Similarity watches: each import run's new marks met with the watches they could fire.
const watches = new WatchWorkers(root);
await watches.start();
process.send?.('ready');
log.info(
  'workers started: outbox relay, webhook fan-out and delivery, renewal reminders, mail, credit sweep, bulk document zips, ' +
    'logo indexing and bulk logo search, batch clearance',
);

stopOnce(async () => {
  clearInterval(sweeper);
  await webhooks.close();
  await bulkDocuments.close();
  await clearanceBatches.close();
  await logos.close();
  await watches.close();
  await root.close();
});
