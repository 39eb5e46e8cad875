import fs from 'node:fs/promises';
import path from 'node:path';
import { Queue, QueueEvents, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { AppError, type ErrorCode } from '../errors.ts';
import { fetchImage, type FetchOptions } from './imageFetch.ts';
import type { LogoRepository, Nearest } from './repository.ts';
import type { SidecarClient } from './sidecarClient.ts';

// Bulk image search fanned out over BullMQ: one job per distinct image, carrying a reference (the
// path of an upload streamed to disk, or the URL), never the bytes. A worker (workers/main.ts) reads
// or fetches the image, has the sidecar embed it, and finds its nearest logos; the API gathers the
// answers. An image that cannot be used is an answer (its error), not a failure; only a sidecar or
// database that cannot be reached fails a job, which BullMQ retries.

export const LOGO_SEARCH_QUEUE = 'logo-search';

export interface SearchJob {
  kind: 'file' | 'url';
  /** The upload's path, or the URL. */
  ref: string;
  /** The nearest logos wanted (img_cnt). */
  k: number;
}

export type SearchAnswer =
  | { ok: true; model: string; thresholds: { high: number; medium: number; low: number }; hits: Nearest[] }
  | { ok: false; code: ErrorCode; error: string };

export interface SearchWorkerDeps {
  sidecar: SidecarClient;
  repo: LogoRepository;
  fetch: FetchOptions;
  /** Where uploads are; a job naming a file anywhere else is refused. */
  uploadDir: string;
}

/** Embeds one image and finds its nearest logos (the single-image endpoints do the same in the API process). */
export async function nearestLogos(deps: SearchWorkerDeps, bytes: Buffer, k: number): Promise<SearchAnswer & { ok: true }> {
  const { model } = await deps.sidecar.models();
  const rr = model.rerank;
  const e = await deps.sidecar.embed(bytes, Boolean(rr));
  const rerank = rr && e.model === model.model && e.fallback_vector ? { model: rr.model, vector: e.fallback_vector, weight: rr.weight, candidates: rr.candidates } : undefined;
  const [thresholds, hits] = await Promise.all([deps.sidecar.thresholds(e.model), deps.repo.nearest(e.model, e.vector, k, rerank)]);
  // A re-ranked score is the blend's: the response names both models.
  return { ok: true, model: rerank ? `${e.model}+${rerank.model}` : e.model, thresholds, hits };
}

export async function processSearchJob(deps: SearchWorkerDeps, job: SearchJob): Promise<SearchAnswer> {
  try {
    if (job.kind === 'file' && path.dirname(path.resolve(job.ref)) !== deps.uploadDir) {
      return { ok: false, code: 'bad_request', error: 'the job names a file outside the upload folder' };
    }
    const bytes = job.kind === 'file' ? await fs.readFile(job.ref) : await fetchImage(job.ref, deps.fetch);
    return await nearestLogos(deps, bytes, job.k);
  } catch (err) {
    // The sidecar or the database away: fail the job so it is retried.
    if (err instanceof AppError && err.status < 500) return { ok: false, code: err.code, error: err.message };
    throw err;
  }
}

/** The API's side: adds one job per image and waits for every answer. */
export class FanOut {
  private readonly connection: Redis;
  private readonly queue: Queue;
  private events: QueueEvents | null = null;

  constructor(redisUrl: string, private readonly prefix: string, private readonly timeoutMs = 120_000) {
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    this.queue = new Queue(LOGO_SEARCH_QUEUE, { connection: this.connection, prefix });
  }

  async run(jobs: SearchJob[]): Promise<SearchAnswer[]> {
    if (!this.events) {
      // Its own connection: it blocks reading the queue's event stream.
      this.events = new QueueEvents(LOGO_SEARCH_QUEUE, { connection: this.connection.duplicate(), prefix: this.prefix });
      await this.events.waitUntilReady();
    }
    const added: Job[] = await this.queue.addBulk(jobs.map((data) => ({
      name: data.kind, data,
      opts: { attempts: 3, backoff: { type: 'exponential', delay: 500 }, removeOnComplete: { age: 600 }, removeOnFail: { age: 3600 } },
    })));
    const events = this.events;
    return Promise.all(added.map(async (job) => {
      try {
        return (await job.waitUntilFinished(events, this.timeoutMs)) as SearchAnswer;
      } catch (err) {
        // Retries spent (the sidecar stayed away) or no worker answered in time: this item failed, not the request.
        return { ok: false as const, code: 'service_unavailable' as const, error: `the image could not be searched: ${(err as Error).message}` };
      }
    }));
  }

  async close(): Promise<void> {
    await this.events?.close();
    await this.queue.close();
    this.connection.disconnect();
  }
}
