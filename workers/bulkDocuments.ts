// The workers process's bulk document consumer (POST /v3/documents/bulk/), over what the root built:
// the BullMQ worker that builds each zip (src/documents/bulkWorker.ts), a relay of jobs whose enqueue
// was lost, and the sweep of zips past their retention.
import { type Job, Queue, Worker } from 'bullmq';
import { BULK_QUEUE, type BulkJobOptions, DEFAULT_BULK_JOB, enqueueBulkJobs } from '../src/documents/bulkService.ts';
import { BulkZipBuilder } from '../src/documents/bulkWorker.ts';
import { Retrying } from '../src/retrying.ts';
import type { Root } from '../src/root.ts';
import type { ObjectStore } from '../src/storage/objectStore.ts';

/** Tests' settings; each left out is the configuration's (or the root's). */
export interface BulkWorkerOptions {
  store?: ObjectStore;
  prefix?: string;
  concurrency?: number;
  job?: BulkJobOptions;
  /** How often the relay and the expiry sweep look for work. */
  intervalMs?: number;
}

/**
 * The workers' side of bulk documents: the BullMQ consumer, a relay that enqueues jobs whose
 * request committed but whose enqueue was lost, and a sweep that deletes zips past their retention.
 */
export function startBulkDocumentWorker(
  root: Root,
  o: BulkWorkerOptions = {},
): { relayOnce(): Promise<number>; sweepOnce(): Promise<number>; close(): Promise<void> } {
  const { config, log } = root;
  const store = o.store ?? root.store;
  const jobs = root.repos.bulkJobs;
  const connection = root.connections.queues;
  const prefix = o.prefix ?? config.QUEUE_PREFIX;
  const builder = new BulkZipBuilder(jobs, root.repos.documents, store, log);
  const jobOpts = o.job ?? DEFAULT_BULK_JOB;
  const worker = new Worker<{ id: string }>(BULK_QUEUE, async (job: Job<{ id: string }>) => builder.build(job.data.id), {
    connection,
    prefix,
    concurrency: o.concurrency ?? config.BULK_DOCUMENTS_CONCURRENCY,
  });
  worker.on('failed', (job, err) => {
    if (!job) return;
    if (job.attemptsMade >= (job.opts.attempts ?? 1))
      void builder.giveUp(job.data.id, err).catch((e) => log.error({ err: e }, 'bulk job give-up failed'));
    else log.warn({ err, job: job.data.id, attempt: job.attemptsMade }, 'bulk document job attempt failed; retrying');
  });
  const { health } = root.connections;
  health.quiet(worker, 'bulk document worker');
  const queue = health.quiet(new Queue(BULK_QUEUE, { connection, prefix }), 'bulk document queue');

  const relayOnce = async () => {
    const ids = await jobs.adrift(5, 15 * 60);
    if (ids.length) {
      await enqueueBulkJobs(queue, ids, jobOpts);
      await jobs.markEnqueued(ids);
    }
    return ids.length;
  };
  const sweepOnce = async () => {
    let n = 0;
    for (const j of await jobs.expiring(config.BULK_ZIP_RETENTION_HOURS)) {
      if (j.object_key) await store.delete(j.object_key);
      await jobs.markExpired(j.id);
      n++;
    }
    return n;
  };
  const relaying = new Retrying(log, 'bulk document relay');
  const sweeping = new Retrying(log, 'bulk document sweep');
  const tick = () => Promise.all([relaying.round(relayOnce), sweeping.round(sweepOnce)]);
  const timer = setInterval(() => void tick(), o.intervalMs ?? 10_000);
  return {
    relayOnce,
    sweepOnce,
    async close() {
      clearInterval(timer);
      await worker.close();
      await queue.close();
    },
  };
}
