import type { Queue } from 'bullmq';
import { notFound } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { type RedisHealth, RedisUnavailable } from '../redis.ts';
import { isUuid } from '../schema/params.ts';
import type { BatchRow, ClearanceBatchRepository } from './batchRepository.ts';
import type { BatchProposal } from './batchSchemas.ts';
import type { ClearanceService } from './service.ts';

// POST /v1/clearance/batch/: the job and its proposals are written at once, then fanned out over
// BullMQ in chunks of CHUNK proposals (a job's id names the batch and the chunk, so adding it again is
// a no-op); the workers screen each proposal and charge it as it is answered (src/clearance/batchWorker.ts).

export const CLEARANCE_BATCH_QUEUE = 'clearance-batch';
/** Proposals per queue job: enough that a chunk's overhead is small, few enough that 1,000 spread over the workers. */
export const CHUNK = 25;

export interface ChunkJob {
  batchId: string;
  chunk: number;
}

export interface BatchJobOptions {
  attempts: number;
  backoffMs: number;
}
export const DEFAULT_BATCH_JOB: BatchJobOptions = { attempts: 3, backoffMs: 5000 };

export const chunkJobId = (batchId: string, chunk: number) => `cb-${batchId}-${chunk}`;
/** BullMQ's largest priority (2^21). */
const MAX_PRIORITY = 2_097_152;

/**
 * Every chunk of a job; a chunk still queued or running is left as it is (same job id). The queue is one line
 * in priority order (BullMQ's groups are a Pro feature), so each chunk is ranked by its place in its account's
 * own line: after the chunks the account's other unfinished jobs still have. Every account's next chunk so comes
 * before any account's later ones, and a one-name batch waits for the next free worker, not for the thousand
 * names another account queued first. `ahead`: ClearanceBatchRepository.chunksAhead of the job.
 */
export async function enqueueBatch(
  queue: Queue,
  batch: { id: string; total: number },
  ahead: number,
  o: BatchJobOptions = DEFAULT_BATCH_JOB,
): Promise<void> {
  const chunks = Math.ceil(batch.total / CHUNK);
  await queue.addBulk(
    Array.from({ length: chunks }, (_, chunk) => ({
      name: 'clear',
      data: { batchId: batch.id, chunk } satisfies ChunkJob,
      opts: {
        jobId: chunkJobId(batch.id, chunk),
        // 1 is the first place (0 would mean no priority, which BullMQ serves before every ranked job).
        priority: Math.min(ahead + chunk + 1, MAX_PRIORITY),
        attempts: o.attempts,
        backoff: { type: 'exponential', delay: o.backoffMs },
        // Gone once finished, so the relay may add a chunk again: a finished chunk finds nothing pending.
        removeOnComplete: true,
        removeOnFail: true,
      },
    })),
  );
}

export class ClearanceBatchService {
  constructor(
    private readonly jobs: ClearanceBatchRepository,
    private readonly clearance: Pick<ClearanceService, 'signed'>,
    private readonly queue: () => Queue,
    private readonly log: Logger,
    /** Where clients reach this API: status_url is absolute, as a Location header must be. */
    private readonly baseUrl: () => string,
    private readonly health: RedisHealth,
  ) {}

  statusUrl(id: string): string {
    return `${this.baseUrl()}/v1/clearance/batch/${id}/`;
  }

  async request(proposals: BatchProposal[], accountId: string) {
    // Committed before it is enqueued: a worker never looks for a row that is not there yet. If the
    // enqueue fails, the workers' relay enqueues the job (workers/clearanceBatch.ts).
    const id = await this.jobs.create(accountId, proposals);
    try {
      // Bounded: without Redis the job waits in PostgreSQL for the relay, and the request does not wait at all.
      const ahead = await this.jobs.chunksAhead(accountId, id, CHUNK);
      await this.health.run('clearance queue', () => enqueueBatch(this.queue(), { id, total: proposals.length }, ahead));
      await this.jobs.markEnqueued(id);
    } catch (err) {
      if (!(err instanceof RedisUnavailable)) this.log.warn({ err, job: id }, 'clearance batch not enqueued; the relay will');
    }
    return { job_id: id, status: 'queued' as const, total: proposals.length, done: 0, status_url: this.statusUrl(id) };
  }

  async get(id: string, accountId: string, page: { limit: number; offset: number }) {
    const job = isUuid(id) ? await this.jobs.get(id, accountId) : undefined;
    if (!job) throw notFound(`clearance batch ${id}`);
    const finished = job.status === 'completed' || job.status === 'failed';
    const answers = finished ? await this.jobs.answers(id, page.limit, page.offset) : [];
    return {
      ...this.summary(job),
      created_at: job.created_at,
      started_at: job.started_at,
      results: finished
        ? {
            count: job.total,
            limit: page.limit,
            offset: page.offset,
            proposals: answers.map((a) => ({
              index: a.idx,
              status: a.status === 'done' ? ('done' as const) : ('error' as const),
              result: a.result ? this.clearance.signed(a.result, accountId) : null,
              error: a.error,
            })),
          }
        : null,
    };
  }

  /** What GET shows of a job's progress, and what its clearance.completed event carries. */
  summary(job: BatchRow) {
    return {
      job_id: job.id,
      status: job.status,
      total: job.total,
      done: job.done,
      status_url: this.statusUrl(job.id),
      errors: job.errors,
      credits: { clearances: job.clearances, logo_searches: job.logo_searches },
      finished_at: job.finished_at,
    };
  }
}
