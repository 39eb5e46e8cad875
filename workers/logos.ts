import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../src/config.ts';
import type { Db } from '../src/db/knex.ts';
import type { Logger } from '../src/logger.ts';
import type { ObjectStore } from '../src/storage/objectStore.ts';
import { LogoRepository } from '../src/logos/repository.ts';
import { SidecarClient } from '../src/logos/sidecarClient.ts';
import { IndexPlanner, indexLogos, LOGO_INDEX_QUEUE, type IndexJob } from '../src/logos/indexer.ts';
import { LOGO_SEARCH_QUEUE, processSearchJob, type SearchJob } from '../src/logos/fanout.ts';
import { LogoRuntime } from '../src/logos/runtime.ts';

// The logo consumers of the workers process: indexing (planner + workers) and bulk search fan-out.

export interface LogoWorkers {
  /** Resolves once the sidecar answered and the model's vector index exists. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function startLogoWorkers(opts: { config: Config; db: Db; store: ObjectStore; connection: Redis; log: Logger; plan?: boolean }): LogoWorkers {
  const { config, db, store, connection, log } = opts;
  const prefix = config.QUEUE_PREFIX;
  const runtime = new LogoRuntime(config, db);
  const repo = new LogoRepository(db);
  const sidecar = new SidecarClient(config.ML_URL, 120_000);
  const stop = new AbortController();
  const indexQueue = new Queue(LOGO_INDEX_QUEUE, { connection, prefix });

  const search = new Worker<SearchJob>(LOGO_SEARCH_QUEUE, (job) => processSearchJob({ sidecar, repo, fetch: runtime.fetch, uploadDir: config.uploadDir }, job.data),
    { connection: connection.duplicate(), prefix, concurrency: 4 });
  search.on('failed', (job, err) => log.warn({ err, job: job?.id }, 'logo search job failed'));

  let indexer: Worker<IndexJob> | null = null;
  let planning: Promise<void> = Promise.resolve();
  const ready = (async () => {
    // The sidecar may still be loading its models: wait for it, then make sure its model has an index.
    for (let attempt = 0; !stop.signal.aborted; attempt++) {
      try {
        const h = await sidecar.models();
        await repo.ensureModelIndex(h.model.model, h.model.dimensions);
        const requeued = await repo.requeue('missing', h.model.model);
        if (requeued) log.info({ model: h.model.model, logos: requeued }, 'logos without a vector of the current model queued for indexing');
        break;
      } catch (err) {
        if (attempt % 10 === 0) log.warn({ err }, 'logo indexing waits for the ML sidecar');
        await new Promise((r) => setTimeout(r, 1000).unref());
      }
    }
    if (stop.signal.aborted) return;
    indexer = new Worker<IndexJob>(LOGO_INDEX_QUEUE, (job) => indexLogos({ repo, sidecar, store }, job.data),
      { connection: connection.duplicate(), prefix, concurrency: config.LOGO_INDEX_CONCURRENCY });
    indexer.on('failed', (job, err) => log.warn({ err, job: job?.id }, 'logo index job failed; retried with backoff'));
    if (opts.plan !== false) {
      planning = new IndexPlanner(repo, indexQueue).run(stop.signal, 2000, (err) => log.error({ err }, 'logo index planner failed; retrying'));
    }
  })();

  return {
    ready,
    async close() {
      stop.abort();
      await ready.catch(() => undefined);
      await planning;
      await Promise.all([search.close(), indexer?.close(), indexQueue.close(), runtime.close()]);
    },
  };
}
