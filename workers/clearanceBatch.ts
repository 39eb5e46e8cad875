// The workers process's batch clearance consumer (POST /v1/clearance/batch/), over what the root built:
// the BullMQ worker that screens each chunk of a job (src/clearance/batchWorker.ts) and a relay of jobs
// whose enqueue was lost. A chunk whose worker died is taken up again by BullMQ's stalled-job check.
// `npm start` runs it in the workers process and in CLEARANCE_WORKERS - 1 processes more (workers/clearance.ts),
// which take chunks from the same queue.

import os from 'node:os';
import { type Job, Queue, Worker } from 'bullmq';
import {
  type BatchJobOptions,
  CHUNK,
  type ChunkJob,
  CLEARANCE_BATCH_QUEUE,
  DEFAULT_BATCH_JOB,
  enqueueBatch,
} from '../src/clearance/batchService.ts';
import { BatchScreener } from '../src/clearance/batchWorker.ts';
import { databaseUnavailable } from '../src/db/unavailable.ts';
import { Retrying } from '../src/retrying.ts';
import type { Root } from '../src/root.ts';

/** Tests' settings; each left out is the default. */
export interface ClearanceBatchWorkerOptions {
  prefix?: string;
  concurrency?: number;
  job?: BatchJobOptions;
  /** How often the relay looks for jobs that did not reach the queue. */
  intervalMs?: number;
  /** False in the processes beside the workers process (workers/clearance.ts): one relay is enough. */
  relay?: boolean;
  /** BullMQ's lock on a running chunk, and how often stalled chunks (their worker gone) are looked for. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

export function startClearanceBatchWorker(
  root: Root,
  o: ClearanceBatchWorkerOptions = {},
): { relayOnce(): Promise<number>; close(): Promise<void> } {
  const { config, log } = root;
  const jobs = root.repos.clearanceBatches;
  const batches = root.services.clearanceBatches;
  const connection = root.connections.queues;
  const prefix = o.prefix ?? config.QUEUE_PREFIX;
  const screener = new BatchScreener(
    jobs,
    root.services.clearance,
    root.services.callers,
    root.repos.quotas,
    (b) => batches.summary(b),
    log,
  );
  const jobOpts = o.job ?? DEFAULT_BATCH_JOB;
  const worker = new Worker<ChunkJob>(CLEARANCE_BATCH_QUEUE, (job: Job<ChunkJob>) => screener.run(job.data), {
    connection: root.connections.blocking(),
    prefix,
    // The analysis is CPU work in this process: two chunks at a time keep a core busy while the other waits on PostgreSQL.
    concurrency: o.concurrency ?? 2,
    // Kept on each chunk (BullMQ's processedBy): which of the clearance processes screened it.
    name: `${os.hostname()}:${process.pid}`,
    ...(o.lockDurationMs ? { lockDuration: o.lockDurationMs } : {}),
    ...(o.stalledIntervalMs ? { stalledInterval: o.stalledIntervalMs } : {}),
  });
  worker.on('failed', (job, err) => {
    if (!job) return;
    if (job.attemptsMade >= (job.opts.attempts ?? 1))
      void screener.giveUp(job.data, err).catch((e) => log.error({ err: e }, 'clearance batch give-up failed'));
    // A chunk cut off by PostgreSQL going away is retried like any other, but said once for all by the relay's
    // Retrying (docs/outages.md: each process says once that a dependency is away), not once per chunk in flight.
    else
      log[databaseUnavailable(err) ? 'debug' : 'warn'](
        { err, job: job.data.batchId, chunk: job.data.chunk, attempt: job.attemptsMade },
        'clearance chunk failed; retrying',
      );
  });
  const { health } = root.connections;
  health.quiet(worker, 'clearance batch worker');
  const queue = health.quiet(new Queue(CLEARANCE_BATCH_QUEUE, { connection, prefix }), 'clearance queue');

  const relayOnce = async () => {
    const adrift = await jobs.adrift(5, 15 * 60);
    for (const b of adrift) {
      await enqueueBatch(queue, b, await jobs.chunksAhead(b.account_id, b.id, CHUNK), jobOpts);
      await jobs.markEnqueued(b.id);
    }
    return adrift.length;
  };
  const relaying = new Retrying(log, 'clearance batch relay');
  const timer = o.relay === false ? undefined : setInterval(() => void relaying.round(relayOnce), o.intervalMs ?? 10_000);
  return {
    relayOnce,
    async close() {
      clearInterval(timer);
      await worker.close();
      await queue.close();
    },
  };
}
