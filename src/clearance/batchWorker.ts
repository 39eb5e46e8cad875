import type { CallerCache } from '../accounts/callerCache.ts';
import { AppError } from '../errors.ts';
import { monthOf, type QuotaRepository } from '../limits/quotaRepository.ts';
import type { Logger } from '../logger.ts';
import type { BatchRow, ClearanceBatchRepository, ItemAnswer } from './batchRepository.ts';
import { CHUNK, type ChunkJob } from './batchService.ts';
import type { ClearanceInput } from './schemas.ts';
import type { ClearanceService } from './service.ts';
import { proposalLogoKey } from './thumbnail.ts';

// The workers' side of batch clearance: one queue job screens the unanswered proposals of one chunk,
// in order, each as POST /v1/clearance/ screens one. Resumable: a chunk run again (a retry, a stalled
// job after its worker was killed, the relay) starts from its first unanswered proposal; an answer and
// its credits are written in one transaction that only an unanswered proposal takes (answer()).

type Credits = { clearances: number; logo_searches: number };

export class BatchScreener {
  constructor(
    private readonly jobs: ClearanceBatchRepository,
    private readonly clearance: Pick<ClearanceService, 'screen'>,
    private readonly callers: Pick<CallerCache, 'byAccountId'>,
    private readonly quotas: Pick<QuotaRepository, 'usage'>,
    /** What the clearance.completed event carries (the job as GET shows its progress). */
    private readonly summary: (b: BatchRow) => object,
    private readonly log: Logger,
  ) {}

  async run(job: ChunkJob): Promise<'screened' | 'skipped'> {
    const batch = await this.jobs.start(job.batchId);
    if (!batch) return 'skipped';
    const from = job.chunk * CHUNK;
    for (const item of await this.jobs.pending(job.batchId, from, Math.min(from + CHUNK, batch.total))) {
      await this.answer(job.batchId, batch.account_id, item.idx, item.proposal as ClearanceInput);
    }
    await this.finish(job.batchId);
    return 'screened';
  }

  /** The chunk's last attempt failed: its unanswered proposals are answered with the error, free, and the job ends failed. */
  async giveUp(job: ChunkJob, err: unknown): Promise<void> {
    this.log.error({ err, job: job.batchId, chunk: job.chunk }, 'clearance batch chunk failed after its retries');
    const from = job.chunk * CHUNK;
    await this.jobs.giveUp(
      job.batchId,
      from,
      from + CHUNK,
      'the proposal could not be screened (the service was unavailable); try it again',
    );
    await this.finish(job.batchId);
  }

  private async finish(id: string): Promise<void> {
    const done = await this.jobs.complete(id, this.summary);
    if (done) this.log.info({ job: id, status: done.status, total: done.total, errors: done.errors }, 'clearance batch finished');
  }

  /**
   * Screens one proposal and records its answer with its credits, taken under the account's plan as it
   * is now. A proposal the credits left do not cover is answered quota_exceeded and costs nothing; the
   * job goes on (a later proposal of fewer classes may still be covered). Errors of the proposal (an
   * unusable logo_url) are its answer, free; the service or database away fails the chunk, retried.
   */
  private async answer(id: string, accountId: string, idx: number, proposal: ClearanceInput): Promise<void> {
    const caller = await this.callers.byAccountId(accountId);
    const limits: Credits = { clearances: caller?.quotas.clearances ?? 0, logo_searches: caller?.quotas.logo_searches ?? 0 };
    const month = monthOf(new Date());
    const units: Credits = { clearances: 0, logo_searches: 0 };
    let a: ItemAnswer;
    try {
      if (!caller?.subscriptionActive) throw new AppError('subscription_inactive', 'the subscription is not active');
      const result = await this.clearance.screen(
        proposal,
        async (n, resource = 'clearances') => {
          if (resource !== 'clearances' && resource !== 'logo_searches') throw new Error(`a clearance does not cost ${resource}`);
          // Before the work, so a job past its credits does not screen what it cannot pay for; answer() decides.
          const used = (await this.quotas.usage(accountId, month))[resource] ?? 0;
          if (used + units[resource] + n > limits[resource]) throw quotaShort(`${n} ${resource}`);
          units[resource] += n;
        },
        proposalLogoKey(id, idx),
      );
      a = { idx, status: 'done', result, error: null };
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      a = { idx, status: 'error', result: null, error: { code: err.code, message: err.message } };
    }
    const r = await this.jobs.answer(id, accountId, a, a.status === 'done' ? { month, units, limits } : null);
    if (r === 'short') {
      const short = quotaShort(`${units.clearances} clearances${units.logo_searches ? ` and ${units.logo_searches} logo_searches` : ''}`);
      await this.jobs.answer(
        id,
        accountId,
        { idx, status: 'error', result: null, error: { code: short.code, message: short.message } },
        null,
      );
    }
  }
}

function quotaShort(needs: string): AppError {
  return new AppError('quota_exceeded', `monthly quota exceeded: this proposal needs ${needs}; it was not screened and cost nothing`);
}
