import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Queue, QueueEvents, QueueEventsProducer } from 'bullmq';
import { AppError, type ErrorCode, unavailable } from '../errors.ts';
import { REDIS_RETRY_AFTER_SECONDS, type RedisConnections, RedisUnavailable } from '../redis.ts';
import type { MarkFilter } from '../trademarks/markFilter.ts';
import { FetchDeadlineError, type FetchOptions, fetchImage } from './imageFetch.ts';
import { mergeScores } from './regions.ts';
import type { LogoRepository, Nearest } from './repository.ts';
import type { Likeness } from './schemas.ts';
import type { SidecarClient } from './sidecarClient.ts';

// Bulk image search fanned out over BullMQ: one job per distinct image, carrying a reference (the
// path of an upload streamed to disk, or the URL), never the bytes, and the account that asked. A
// worker (workers/logos.ts) runs it in the account's turn (src/logos/fairGate.ts), reads or fetches
// the image, has the sidecar embed it, and finds its nearest logos; the API gathers the answers. An
// image that cannot be used is an answer (its error), not a failure; only a sidecar or database that
// cannot be reached fails a job, which BullMQ retries. When the request ends first (its client went
// away, or the wait ran out) its jobs are withdrawn: those not taken are removed, those taken cancelled.

export const LOGO_SEARCH_QUEUE = 'logo-search';
/** A custom event on the queue's event stream, naming jobs (`ids`, comma-separated) whose request has ended. */
export const CANCEL_EVENT = 'logo-search-cancel';

export interface SearchJob {
  kind: 'file' | 'url';
  /** The upload's path, or the URL. */
  ref: string;
  /** The nearest logos wanted (img_cnt). */
  k: number;
  /** Only logos of marks this keeps (class, status); absent for all. */
  filter?: MarkFilter | null;
  /** Which likeness scores the logos (absent: copy). */
  likeness?: Likeness;
}

/** A job as queued: whose turn it runs in. */
export interface QueuedSearch extends SearchJob {
  account: string;
}

export type SearchAnswer =
  | {
      ok: true;
      model: string;
      /** The likeness that scored the hits: copy when concept was asked of a model that has no concept score. */
      likeness: Likeness;
      thresholds: { high: number; medium: number; low: number };
      hits: Nearest[];
    }
  /** `spent`: the search failed but used what it costs (an image URL that ran to its deadline), so it is charged. */
  | { ok: false; code: ErrorCode; error: string; spent?: true };

export interface SearchWorkerDeps {
  sidecar: SidecarClient;
  repo: LogoRepository;
  fetch: FetchOptions;
  /** Where uploads are; a job naming a file anywhere else is refused. */
  uploadDir: string;
}

/**
 * Embeds one image and its candidate logo regions (src/logos/regions.ts: a clean logo has none) and finds
 * the nearest logos of each; a mark's similarity is the best of the whole image's and its crops' less
 * REGION_PENALTY (mergeScores). The single-image endpoints do the same in the API process. `regions: false`
 * searches with the whole image alone, as before regions were looked for. `likeness: 'concept'` scores by
 * the model's concept score, searching its own candidates (LogoRepository.nearestConcept), with its own
 * thresholds; a model without one (the HOG fallback, a CLIP model) answers the copy search, and says so.
 */
export async function nearestLogos(
  deps: SearchWorkerDeps,
  bytes: Buffer,
  k: number,
  filter: MarkFilter | null = null,
  opts: { regions?: boolean; likeness?: Likeness } = {},
): Promise<SearchAnswer & { ok: true }> {
  const { model } = await deps.sidecar.models();
  const rr = model.rerank;
  const cs = opts.likeness === 'concept' ? model.concept : undefined;
  const hog = Boolean(rr || cs);
  // With regions, the whole image's query is under way while the sidecar embeds the regions.
  const parts = opts.regions === false ? null : deps.sidecar.embedInParts(bytes, hog);
  const e = parts ? await parts.image : await deps.sidecar.embed(bytes, hog);
  // The served model's own vectors with HOG's beside them: scored by the concept score when asked, else re-ranked.
  const withHog = e.model === model.model && Boolean(e.fallback_vector);
  const concept = cs && withHog ? cs : undefined;
  const reranked = Boolean(rr && withHog) && !concept;
  const near = (v: number[], hog: number[] | undefined) => {
    if (concept && hog)
      return deps.repo.nearestConcept(
        e.model,
        v,
        { model: concept.model, vector: hog, weight: concept.weight, candidates: concept.candidates },
        k,
        filter,
      );
    const rerank = reranked && hog ? { model: rr!.model, vector: hog, weight: rr!.weight, candidates: rr!.candidates } : undefined;
    return deps.repo.nearest(e.model, v, k, rerank, filter);
  };
  const first = Promise.all([concept ? concept.thresholds : deps.sidecar.thresholds(e.model), near(e.vector, e.fallback_vector)]);
  // Awaited below: should the regions fail meanwhile, theirs is the failure reported.
  first.catch(() => undefined);
  const crops = parts ? await parts.regions : [];
  const [[thresholds, whole], found] = await Promise.all([first, Promise.all(crops.map((c) => near(c.vector, c.fallback_vector)))]);
  // A blended score is the blend's: the response names both models.
  const name = concept ? `${e.model}+${concept.model}` : reranked ? `${e.model}+${rr!.model}` : e.model;
  const likeness = concept ? 'concept' : 'copy';
  return { ok: true, model: name, likeness, thresholds, hits: found.length ? mergeHits(whole, found, k) : whole };
}

/** The k marks nearest over the whole image's hits and each crop's, each with its merged similarity (mergeScores). */
export function mergeHits(whole: Nearest[], crops: Nearest[][], k: number): Nearest[] {
  const byMark = new Map<string, { hit: Nearest; whole?: number; crops: number[] }>();
  for (const h of whole) byMark.set(h.application_number, { hit: h, whole: h.similarity, crops: [] });
  for (const hits of crops) {
    for (const h of hits) {
      const m = byMark.get(h.application_number);
      if (m) m.crops.push(h.similarity);
      else byMark.set(h.application_number, { hit: h, crops: [h.similarity] });
    }
  }
  return [...byMark.values()]
    .map((m) => ({ ...m.hit, similarity: mergeScores(m.whole, m.crops) }))
    .sort((a, b) => b.similarity - a.similarity || (a.application_number < b.application_number ? -1 : 1))
    .slice(0, k);
}

/** An aborted signal (the request ended) stops the image fetch; the rejection is the signal's reason. */
export async function processSearchJob(deps: SearchWorkerDeps, job: SearchJob, signal?: AbortSignal): Promise<SearchAnswer> {
  try {
    if (job.kind === 'file' && path.dirname(path.resolve(job.ref)) !== deps.uploadDir) {
      return { ok: false, code: 'bad_request', error: 'the job names a file outside the upload folder' };
    }
    const bytes = job.kind === 'file' ? await fs.readFile(job.ref) : await fetchImage(job.ref, deps.fetch, signal);
    return await nearestLogos(deps, bytes, job.k, job.filter ?? null, { likeness: job.likeness ?? 'copy' });
  } catch (err) {
    if (err instanceof FetchDeadlineError) return { ok: false, code: err.code, error: err.message, spent: true };
    // The sidecar or the database away: fail the job so it is retried.
    if (err instanceof AppError && err.status < 500) return { ok: false, code: err.code, error: err.message };
    throw err;
  }
}

/** The API's side: adds one job per image and waits for every answer, or until the request ends. */
export class FanOut {
  private readonly queue: Queue;
  private readonly producer: QueueEventsProducer;
  private events: QueueEvents | null = null;

  constructor(
    private readonly redis: Pick<RedisConnections, 'queues' | 'blocking' | 'health'>,
    private readonly prefix: string,
    private readonly timeoutMs = 120_000,
  ) {
    this.queue = redis.health.quiet(new Queue(LOGO_SEARCH_QUEUE, { connection: redis.queues, prefix }), 'bulk logo search queue');
    this.producer = redis.health.quiet(
      new QueueEventsProducer(LOGO_SEARCH_QUEUE, { connection: redis.queues, prefix }),
      'bulk logo search events',
    );
  }

  /**
   * `signal`: the request's end (its client went away); the wait's own end is `timeoutMs`. The images go to
   * the workers through Redis: without it, 503 at once rather than a wait for it.
   */
  async run(jobs: SearchJob[], opts: { account: string; signal?: AbortSignal }): Promise<SearchAnswer[]> {
    const { health } = this.redis;
    const away = () =>
      unavailable('bulk logo search is unavailable just now (its queue cannot be reached); try again shortly', REDIS_RETRY_AFTER_SECONDS);
    if (!health.available) throw away();
    try {
      if (!this.events) {
        // Its own connection: it blocks reading the queue's event stream.
        this.events = health.quiet(
          new QueueEvents(LOGO_SEARCH_QUEUE, { connection: this.redis.blocking(), prefix: this.prefix }),
          'bulk logo search events',
        );
      }
      const events = this.events;
      await health.run('bulk logo search', () => events.waitUntilReady());
    } catch (err) {
      if (err instanceof RedisUnavailable) throw away();
      throw err;
    }
    const ended = opts.signal ? AbortSignal.any([AbortSignal.timeout(this.timeoutMs), opts.signal]) : AbortSignal.timeout(this.timeoutMs);
    // Ids chosen here, so every answer is listened for before its job exists.
    const ids = jobs.map(() => randomUUID());
    const unfinished = new Set(ids);
    const waits = ids.map((id) => finished(this.events as unknown as EventEmitter, id));
    const answers = Promise.all(
      waits.map((w, i) =>
        w.answer.then(
          (a) => {
            unfinished.delete(ids[i]);
            return a;
          },
          (err: Error): SearchAnswer =>
            // Retries spent (the sidecar stayed away), or the request ended first: this item failed, not the request.
            ({ ok: false, code: 'service_unavailable', error: `the image could not be searched: ${err.message}` }),
        ),
      ),
    );
    const end = (why: string) => {
      for (const w of waits) w.drop(new Error(why));
    };
    const onEnded = () => end((ended.reason as Error)?.name === 'TimeoutError' ? 'no answer in time' : 'the request ended');
    if (ended.aborted) onEnded();
    else ended.addEventListener('abort', onEnded, { once: true });
    try {
      await health.run('bulk logo search', () =>
        this.queue.addBulk(
          jobs.map((data, i) => ({
            name: data.kind,
            data: { ...data, account: opts.account } satisfies QueuedSearch,
            // Every request's first image before any request's second, should more wait than the workers take in.
            opts: {
              jobId: ids[i],
              priority: i + 1,
              attempts: 3,
              backoff: { type: 'exponential', delay: 500 },
              removeOnComplete: { age: 600 },
              removeOnFail: { age: 3600 },
            },
          })),
        ),
      );
      return await answers;
    } catch (err) {
      end('the jobs could not be queued');
      if (err instanceof RedisUnavailable) throw away();
      throw err;
    } finally {
      ended.removeEventListener('abort', onEnded);
      // At best effort: a job that could not be withdrawn runs to its end, answering no one.
      if (unfinished.size) await this.withdraw([...unfinished]).catch(() => undefined);
    }
  }

  /** Jobs nobody waits for any more: removed when not taken yet; a worker that took one aborts it on the event. */
  private async withdraw(ids: string[]): Promise<void> {
    const removed = await Promise.all(ids.map((id) => this.queue.remove(id)));
    const taken = ids.filter((_, i) => !removed[i]);
    if (taken.length) await this.producer.publishEvent({ eventName: CANCEL_EVENT, ids: taken.join(',') }, 10_000);
  }

  async close(): Promise<void> {
    await this.events?.close();
    await this.producer.close();
    await this.queue.close();
  }
}

/** The job's answer, as Job.waitUntilFinished gives it; `drop` stops waiting for it. */
function finished(events: EventEmitter, id: string): { answer: Promise<SearchAnswer>; drop: (err: Error) => void } {
  let drop!: (err: Error) => void;
  const answer = new Promise<SearchAnswer>((resolve, reject) => {
    const done = `completed:${id}`;
    const failed = `failed:${id}`;
    const off = () => {
      events.off(done, onDone);
      events.off(failed, onFailed);
    };
    const onDone = (args: { returnvalue: unknown }) => {
      off();
      resolve(args.returnvalue as SearchAnswer);
    };
    const onFailed = (args: { failedReason: string }) => {
      off();
      reject(new Error(args.failedReason));
    };
    drop = (err) => {
      off();
      reject(err);
    };
    events.on(done, onDone);
    events.on(failed, onFailed);
  });
  return { answer, drop };
}
