import type { Queue } from 'bullmq';
import { pollUntilAborted } from '../db/poll.ts';
import { AppError } from '../errors.ts';
import type { RoundReport } from '../retrying.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { hogIndexModel, projectHog } from './hogIndex.ts';
import type { LogoRepository, LogoToIndex } from './repository.ts';
import type { SidecarClient } from './sidecarClient.ts';

// Logo indexing: every logo is read by OCR and embedded by the sidecar, in BullMQ jobs, in the
// background. The planner moves logos due for indexing (logos.index_state, set in the same
// transaction as the import that added or changed them) into jobs of a few logos each, leasing them
// in PostgreSQL so a crash between the lease and the job only delays them. A job stores what it
// learnt per logo; an image the sidecar refuses is recorded as failed with the reason and tried
// again later (repository.ts saveFailure), and a sidecar that cannot be reached fails the job, which
// BullMQ retries with backoff.

export const LOGO_INDEX_QUEUE = 'logo-index';
const PER_JOB = 8;

export interface IndexJob {
  logos: Pick<LogoToIndex, 'application_number' | 'object_key'>[];
}

export interface IndexDeps {
  repo: LogoRepository;
  sidecar: SidecarClient;
  store: ObjectStore;
  /** Also store the fallback model's (HOG) vector, for re-ranking and for a fallback that takes over. */
  withFallback?: boolean;
}

export async function indexLogos(deps: IndexDeps, job: IndexJob): Promise<{ done: number; failed: number }> {
  let done = 0;
  let failed = 0;
  for (const logo of job.logos) {
    let bytes: Buffer;
    try {
      bytes = await deps.store.read(logo.object_key);
    } catch (err) {
      await deps.repo.saveFailure(
        logo.application_number,
        logo.object_key,
        `the logo file cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
      failed++;
      continue;
    }
    try {
      const r = await deps.sidecar.analyse(bytes);
      // A blank picture has no direction under HOG (no edges: all zeros), and a cosine with it is no number: such a
      // vector is not stored, and the logo is compared by the model's alone.
      const usable = (v: number[]) => v.some((x) => x !== 0);
      if (!usable(r.vector)) {
        await deps.repo.saveFailure(logo.application_number, logo.object_key, 'image_blank: the picture is blank, nothing to compare');
        failed++;
        continue;
      }
      const vectors = [{ model: r.model, vector: r.vector }];
      if (r.fallback_model && r.fallback_vector && r.fallback_model !== r.model && usable(r.fallback_vector)) {
        vectors.push({ model: r.fallback_model, vector: r.fallback_vector });
        // What concept search finds HOG candidates by (hogIndex.ts).
        vectors.push({ model: hogIndexModel(r.fallback_model), vector: projectHog(r.fallback_vector) });
      }
      await deps.repo.saveIndexed(logo.application_number, logo.object_key, vectors, r.ocr);
      done++;
    } catch (err) {
      if (err instanceof AppError && err.status < 500) {
        await deps.repo.saveFailure(logo.application_number, logo.object_key, `${err.code}: ${err.message}`);
        failed++;
        continue;
      }
      // The sidecar is away: this job fails and is retried; logos it had not reached are freed now.
      await deps.repo.release(job.logos.slice(job.logos.indexOf(logo)).map((l) => l.application_number));
      throw err;
    }
  }
  return { done, failed };
}

/** Moves due logos into jobs while the queue is short, so the lease of a queued logo rarely runs out. */
export class IndexPlanner {
  constructor(
    private readonly repo: LogoRepository,
    private readonly queue: Queue,
    private readonly backlog = 64,
  ) {}

  /** One round: returns how many logos were queued. */
  async planOnce(): Promise<number> {
    const waiting = await this.queue.getWaitingCount();
    const room = (this.backlog - waiting) * PER_JOB;
    if (room <= 0) return 0;
    const due = await this.repo.claim(room);
    const jobs = [];
    for (let i = 0; i < due.length; i += PER_JOB) {
      jobs.push({
        name: 'index',
        data: {
          logos: due.slice(i, i + PER_JOB).map(({ application_number, object_key }) => ({ application_number, object_key })),
        } satisfies IndexJob,
        opts: {
          attempts: 5,
          backoff: { type: 'exponential', delay: 5000 },
          removeOnComplete: { age: 3600, count: 1000 },
          removeOnFail: { age: 86_400 },
        },
      });
    }
    if (jobs.length) await this.queue.addBulk(jobs);
    return due.length;
  }

  /** Plans until stopped: again soon while logos were due, every `idleMs` when none were. */
  run(signal: AbortSignal, idleMs: number, report: RoundReport): Promise<void> {
    return pollUntilAborted(signal, async () => (await this.planOnce()) > 0, idleMs, report);
  }
}
