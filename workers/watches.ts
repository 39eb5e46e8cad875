// Similarity watch matching in the workers process: every import run with new marks gets one BullMQ
// job (its id from the run, so handing it over twice leaves one job) that meets those marks with the
// watches they could fire and records the hits with their trademark.similar_filed events, which the
// outbox relay then delivers like every other event. PostgreSQL says which runs are matched
// (watch_runs), so a job lost with Redis, or failed, is handed over again at the next scan. Backfills (a watch run
// over past journals) are handed over by the same scan, one job per request, while PostgreSQL holds them open.
import { Queue, Worker } from 'bullmq';
import { OUTBOX_CHANNEL } from '../src/db/channels.ts';
import { Retrying } from '../src/retrying.ts';
import type { Root } from '../src/root.ts';

export const WATCH_QUEUE = 'watch-matching';
export const BACKFILL_QUEUE = 'watch-backfill';

export interface WatchWorkersOptions {
  /** Milliseconds between scans for import runs not matched yet. */
  scanMs?: number;
}

export class WatchWorkers {
  private readonly queue: Queue;
  private readonly backfills: Queue;
  private worker: Worker | undefined;
  private backfiller: Worker | undefined;
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private readonly scans: Retrying;

  constructor(
    private readonly root: Root,
    private readonly opts: WatchWorkersOptions = {},
  ) {
    const { health } = root.connections;
    this.queue = health.quiet(
      new Queue(WATCH_QUEUE, { connection: root.connections.queues, prefix: root.config.QUEUE_PREFIX }),
      'watch queue',
    );
    this.backfills = health.quiet(
      new Queue(BACKFILL_QUEUE, { connection: root.connections.queues, prefix: root.config.QUEUE_PREFIX }),
      'watch backfill queue',
    );
    this.scans = new Retrying(root.log, 'scanning import runs for watch matching');
  }

  async start(): Promise<void> {
    const { config, log, connections, listener } = this.root;
    const matcher = this.root.services.watchMatcher;
    this.worker = new Worker<{ runId: number }>(
      WATCH_QUEUE,
      async (job) => {
        // The run's names grouped first (another process may have taken the scan), for the owner watches.
        await this.root.services.owners.catchUp();
        const r = await matcher.matchRun(job.data.runId);
        log.info({ run: job.data.runId, ...r }, 'import run matched against the similarity watches');
        return r;
      },
      { prefix: config.QUEUE_PREFIX, connection: connections.blocking(), concurrency: 1 },
    );
    this.worker.on('failed', (job, err) => log.error({ err, job: job?.id }, 'watch matching job failed'));
    connections.health.quiet(this.worker, 'watch matching worker');
    // Backfills on a worker of their own: a year of journals must not hold up the matching of a new import.
    const backfills = this.root.services.watchBackfills;
    this.backfiller = new Worker<{ id: string }>(BACKFILL_QUEUE, async (job) => backfills.run(job.data.id), {
      prefix: config.QUEUE_PREFIX,
      connection: connections.blocking(),
      concurrency: 1,
    });
    this.backfiller.on('failed', (job, err) => log.error({ err, job: job?.id }, 'watch backfill job failed'));
    connections.health.quiet(this.backfiller, 'watch backfill worker');
    // An import that wrote events wakes the scan at its commit; one that brought only new marks waits for the timer.
    listener.on(OUTBOX_CHANNEL, () => void this.scan());
    await listener.start();
    this.timer = setInterval(() => void this.scan(), this.opts.scanMs ?? 10_000);
    await this.scan();
  }

  /** Hands every import run not matched yet to the queue (one job per run). */
  scan(): Promise<void> {
    this.scanning ??= (async () => {
      try {
        await this.scans.round(async () => {
          // Owners first: an owner watch meets a filing through its owner's entity (docs/owners.md).
          await this.root.services.owners.catchUp();
          const open = await this.root.services.watchBackfills.open();
          if (open.length) {
            await this.backfills.addBulk(
              open.map((id) => ({
                name: 'backfill',
                data: { id },
                opts: { jobId: `watch-backfill-${id}`, removeOnComplete: true, removeOnFail: true },
              })),
            );
          }
          const runs = await this.root.repos.watches.unmatchedRuns();
          if (!runs.length) return;
          await this.queue.addBulk(
            runs.map((runId) => ({
              name: 'match',
              data: { runId },
              opts: { jobId: `watch-run-${runId}`, removeOnComplete: true, removeOnFail: true, attempts: 3, backoff: 5_000 },
            })),
          );
        });
      } finally {
        this.scanning = undefined;
      }
    })();
    return this.scanning;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.scanning;
    await this.worker?.close();
    await this.backfiller?.close();
    await this.queue.close();
    await this.backfills.close();
  }
}
