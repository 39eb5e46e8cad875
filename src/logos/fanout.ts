import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Queue, QueueEvents, QueueEventsProducer } from 'bullmq';
import { AppError, unavailable } from '../errors.ts';
import { REDIS_RETRY_AFTER_SECONDS, type RedisConnections, RedisUnavailable } from '../redis.ts';
import type { MarkFilter } from '../trademarks/markFilter.ts';
import { FetchDeadlineError, fetchImage } from './imageFetch.ts';
import { type ImageSearchDeps, nearestLogos, type SearchAnswer } from './imageSearch.ts';
import type { Likeness } from './schemas.ts';

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

/** An aborted signal (the request ended) stops the image fetch; the rejection is the signal's reason. */
export async function processSearchJob(deps: ImageSearchDeps, job: SearchJob, signal?: AbortSignal): Promise<SearchAnswer> {
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
