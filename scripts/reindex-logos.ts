// `npm run reindex-logos -- [--all | --failed] [--no-wait] [--status]`: queues logos for indexing (OCR +
// embedding) and indexes them with progress. Without a flag it queues the logos that lack a vector of
// the sidecar's current model (a model placed since they were indexed); --all queues every logo,
// --failed the failed ones (also those that ran out of attempts). It works beside `npm start`'s
// workers (leases keep them from doing a logo twice) and on its own: when no sidecar answers at
// ML_URL, it starts one in this process.
import { Queue } from 'bullmq';
import { loadConfig } from '../src/config.ts';
import { LOGO_INDEX_QUEUE } from '../src/logos/indexer.ts';
import { createRoot, WORKERS } from '../src/root.ts';
import { startLogoWorkers } from '../workers/logos.ts';
import { type Sidecar, startSidecar } from '../workers/sidecar/server.ts';

const args = new Set(process.argv.slice(2));
for (const a of args) {
  if (!['--all', '--failed', '--no-wait', '--status'].includes(a)) {
    console.error(`unknown option ${a}\nusage: npm run reindex-logos -- [--all | --failed] [--no-wait] [--status]`);
    process.exit(2);
  }
}
const config = loadConfig();
const root = createRoot(config, WORKERS);
const { repo, sidecar: ml } = root.logos;
let sidecar: Sidecar | null = null;

const line = (c: Awaited<ReturnType<typeof repo.counts>>) =>
  `${c.done.toLocaleString('en')} of ${c.total.toLocaleString('en')} indexed, ${c.pending.toLocaleString('en')} pending, ` +
  `${c.failed.toLocaleString('en')} failed${c.given_up ? ` (${c.given_up} out of attempts: --failed retries them)` : ''}`;

async function main(): Promise<number> {
  if (args.has('--status')) {
    console.log(line(await repo.counts()));
    for (const f of await repo.failures(20)) console.log(`  ${f.application_number}: ${f.index_error} (${f.index_attempts} attempts)`);
    return 0;
  }
  const health = await ml.models().catch(() => null);
  if (!health) {
    const url = new URL(config.ML_URL);
    console.error(`no ML sidecar at ${config.ML_URL}: starting one here`);
    sidecar = await startSidecar({
      host: url.hostname,
      port: Number(url.port || 80),
      workers: config.ML_WORKERS,
      ocrWorkers: config.OCR_WORKERS,
      model: config.LOGO_MODEL,
    });
  }
  const model = (await ml.models()).model;
  const queued = args.has('--all')
    ? await repo.requeue('all')
    : args.has('--failed')
      ? await repo.requeue('failed')
      : await repo.requeue('missing', model.model);
  console.error(`model ${model.model} (${model.dimensions} dimensions): ${queued.toLocaleString('en')} logos queued`);
  if (args.has('--no-wait')) return 0;

  const workers = startLogoWorkers(root);
  const queue = new Queue(LOGO_INDEX_QUEUE, { connection: root.connections.queues, prefix: config.QUEUE_PREFIX });
  await workers.ready;
  const t0 = Date.now();
  const start = await repo.counts();
  let last = start;
  for (;;) {
    await new Promise((r) => setTimeout(r, 2000));
    last = await repo.counts();
    const jobs = await queue.getJobCounts('waiting', 'active', 'delayed');
    const rate = (last.done - start.done) / ((Date.now() - t0) / 1000);
    console.error(`${line(last)} — ${rate.toFixed(1)} logos/s`);
    if (last.pending === 0 && jobs.waiting + jobs.active + jobs.delayed === 0) break;
  }
  await workers.close();
  await queue.close();
  console.log(line(last));
  return last.failed ? 1 : 0;
}

main().then(
  async (code) => {
    await sidecar?.close();
    await root.close();
    process.exit(code);
  },
  async (err) => {
    console.error(err);
    await sidecar?.close();
    await root.close();
    process.exit(2);
  },
);
