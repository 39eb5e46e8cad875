import type { EventEmitter } from 'node:events';
import { DelayedError, type Job, Queue, QueueEvents, UnrecoverableError, Worker } from 'bullmq';
import { FairGate } from '../src/logos/fairGate.ts';
import { CANCEL_EVENT, LOGO_SEARCH_QUEUE, processSearchJob, type QueuedSearch } from '../src/logos/fanout.ts';
import { HOG_INDEX_DIMS, hogIndexModel, projectHog } from '../src/logos/hogIndex.ts';
import { warnOfIndexCache } from '../src/logos/indexCache.ts';
import { type IndexJob, IndexPlanner, indexLogos, LOGO_INDEX_QUEUE } from '../src/logos/indexer.ts';
import type { LogoRepository } from '../src/logos/repository.ts';
import { Retrying } from '../src/retrying.ts';
import type { Root } from '../src/root.ts';

// The logo consumers of the workers process, over what the root built: indexing (planner + workers)
// and bulk search fan-out.

/** Bulk search images run at once, shared fairly between accounts (src/logos/fairGate.ts). */
export const SEARCH_SLOTS = 4;
// Jobs taken off the queue to wait in the gate: enough for every bulk request the accounts can have in
// flight, so an account's turn is decided by the gate and not by its place in the queue's one list.
const SEARCH_INTAKE = 2000;

export interface LogoWorkers {
  /** Resolves once the sidecar answered and the model's vector index exists. */
  ready: Promise<void>;
  /** Resolves once concept search's HOG candidates are indexed (hogCandidates below), or their build failed and was logged. */
  conceptIndex(): Promise<void>;
  close(): Promise<void>;
}

/** `plan: false` leaves out the planner that queues due logos (tests index by hand). */
export function startLogoWorkers(root: Root, opts: { plan?: boolean } = {}): LogoWorkers {
  const { config, store, connections, log } = root;
  const { repo, sidecar, images } = root.logos;
  const prefix = config.QUEUE_PREFIX;
  const stop = new AbortController();
  const { health } = connections;
  const indexQueue = health.quiet(new Queue(LOGO_INDEX_QUEUE, { connection: connections.queues, prefix }), 'logo index queue');

  const gate = new FairGate(SEARCH_SLOTS);
  // Jobs whose request ended (CANCEL_EVENT) before this worker took them: they are dropped when taken.
  const withdrawn = new Map<string, number>();
  // Closing: jobs still waiting for their turn go back to the queue, for the next workers process.
  const PUT_BACK = new Error('the workers process is closing');
  const search = new Worker<QueuedSearch>(
    LOGO_SEARCH_QUEUE,
    async (job: Job<QueuedSearch>, token?: string, signal?: AbortSignal) => {
      // Nobody waits for the answer: failed, not retried.
      const cancelled = new UnrecoverableError('cancelled: the request that asked for it ended');
      if (withdrawn.has(job.id!)) throw cancelled;
      try {
        return await gate.run(job.data.account, signal, () => processSearchJob(images, job.data, signal));
      } catch (err) {
        if (err === PUT_BACK) {
          await job.moveToDelayed(Date.now(), token);
          throw new DelayedError();
        }
        throw signal?.aborted ? cancelled : err;
      }
    },
    { connection: connections.blocking(), prefix, concurrency: SEARCH_INTAKE },
  );
  health.quiet(search, 'bulk logo search worker');
  search.on('failed', (job, err) => {
    if (err instanceof UnrecoverableError) log.debug({ job: job?.id }, err.message);
    else log.warn({ err, job: job?.id }, 'logo search job failed');
  });
  const cancels = health.quiet(
    new QueueEvents(LOGO_SEARCH_QUEUE, { connection: connections.blocking(), prefix }),
    'bulk logo search events',
  );
  (cancels as unknown as EventEmitter).on(CANCEL_EVENT, (args: { ids?: string }) => {
    const now = Date.now();
    for (const [id, at] of withdrawn) if (now - at > 600_000) withdrawn.delete(id);
    // A job this worker holds is aborted: out of its line, or its fetch stopped.
    for (const id of args.ids?.split(',') ?? []) if (!search.cancelJob(id, 'withdrawn')) withdrawn.set(id, now);
  });

  let indexer: Worker<IndexJob> | null = null;
  let planning: Promise<void> = Promise.resolve();
  let hogIndex: Promise<void> = Promise.resolve();
  const ready = (async () => {
    // Cancellations are read from here on.
    await cancels.waitUntilReady().catch((err: unknown) => log.warn({ err }, 'logo search cancellations are not read'));
    // The sidecar may still be loading its models: wait for it, then make sure its model has an index.
    for (let attempt = 0; !stop.signal.aborted; attempt++) {
      try {
        const h = await sidecar.models();
        await repo.ensureModelIndex(h.model.model, h.model.dimensions);
        await warnOfIndexCache(repo, h.model.model, log);
        // The concept score searches HOG's vectors too (likeness=concept). On a register already indexed the build is
        // long (bench/RESULTS.md, issue 22, the concept search): it runs beside indexing, without blocking its writes,
        // and concept searches scan the HOG vectors until it is there.
        if (h.model.concept) {
          const hog = h.model.concept.model;
          hogIndex = hogCandidates(repo, hog, stop.signal).catch((err: unknown) => {
            if (!stop.signal.aborted) log.warn({ err, model: hog }, 'the HOG index of concept search could not be built');
          });
        }
        const requeued = await repo.requeue('missing', h.model.model);
        if (requeued)
          log.info({ model: h.model.model, logos: requeued }, 'logos without a vector of the current model queued for indexing');
        break;
      } catch (err) {
        if (attempt % 10 === 0) log.warn({ err }, 'logo indexing waits for the ML sidecar');
        await new Promise((r) => setTimeout(r, 1000).unref());
      }
    }
    if (stop.signal.aborted) return;
    indexer = new Worker<IndexJob>(LOGO_INDEX_QUEUE, (job) => indexLogos({ repo, sidecar, store }, job.data), {
      connection: connections.blocking(),
      prefix,
      concurrency: config.LOGO_INDEX_CONCURRENCY,
    });
    indexer.on('failed', (job, err) => log.warn({ err, job: job?.id }, 'logo index job failed; retried with backoff'));
    health.quiet(indexer, 'logo index worker');
    if (opts.plan !== false) planning = new IndexPlanner(repo, indexQueue).run(stop.signal, 2000, new Retrying(log, 'logo index planner'));
  })();

  return {
    ready,
    async conceptIndex() {
      await ready;
      await hogIndex;
    },
    async close() {
      stop.abort();
      gate.close(PUT_BACK);
      // Takes no more jobs, and waits for the running ones.
      const searching = search.close();
      await ready.catch(() => undefined);
      await planning;
      // A HOG index build under way was cancelled by stop: its connection goes back to the pool.
      await hogIndex;
      await Promise.all([searching, cancels.close(), indexer?.close(), indexQueue.close()]);
    },
  };
}

/**
 * What concept search finds its HOG candidates by (src/logos/hogIndex.ts): the projection of every HOG vector made
 * for a register indexed before it existed (new logos get theirs when they are indexed), its HNSW index built without
 * blocking writes, and the full HOG vectors' own index, which no search reads any more, dropped.
 */
async function hogCandidates(repo: LogoRepository, hog: string, signal: AbortSignal): Promise<void> {
  const derived = hogIndexModel(hog);
  for (let after = ''; ; ) {
    signal.throwIfAborted();
    const rows = await repo.vectorsWithout(hog, derived, 2000, after);
    if (!rows.length) break;
    after = rows[rows.length - 1].application_number;
    await repo.saveVectors(
      derived,
      rows.map((r) => ({ application_number: r.application_number, vector: projectHog(r.vector) })),
    );
  }
  await repo.ensureModelIndex(derived, HOG_INDEX_DIMS, { concurrently: true, signal });
  await repo.dropModelIndex(hog);
}
