import type { JobsOptions, Queue } from 'bullmq';
import { backoff } from '../db/poll.ts';
import type { RoundReport } from '../retrying.ts';
import type { DeliveryRepository, Queued } from './deliveryRepository.ts';

export const DELIVERY_QUEUE = 'webhook-deliveries';

/** Job of the delivery queue: one event to one webhook. */
export interface DeliveryJob {
  outboxId: number;
  webhookId: string;
}

// Job ids come from the event and the webhook, so handing the same work over twice leaves one job.
// Finished jobs are removed at once: PostgreSQL keeps the record, and a removed id can be re-added
// should PostgreSQL still call the work pending (a crash between the outcome and the job's end).
export const deliveryJobId = (outboxId: number, webhookId: string) => `d-${outboxId}-${webhookId}`;

export function deliveryJob(q: Queued, maxAttempts: number, retryDelayMs: number): { name: string; data: DeliveryJob; opts: JobsOptions } {
  return {
    name: 'deliver',
    data: { outboxId: q.outboxId, webhookId: q.webhookId },
    opts: {
      jobId: deliveryJobId(q.outboxId, q.webhookId),
      delay: q.delayMs,
      attempts: Math.max(1, maxAttempts - q.used),
      backoff: { type: 'fixed', delay: retryDelayMs },
      removeOnComplete: true,
      removeOnFail: true,
    },
  };
}

export interface RelaySettings {
  maxAttempts: number;
  retryDelayMs: number;
  /** Pending work handed over longer ago than this (and past due) is handed over again. */
  requeueAfterMs: number;
  batch?: number;
}

/**
 * Fans out the outbox rows an import (or the renewal job) wrote in its transaction into deliveries,
 * in one transaction of its own, and hands PostgreSQL's pending deliveries to the delivery queue. It
 * runs at every commit that wrote outbox rows or asked for a delivery (NOTIFY), and on a timer;
 * whatever the queue lost (Redis restarted, a worker died) is handed over again once it is overdue,
 * and re-adding a job still queued is a no-op.
 */
export class OutboxRelay {
  private readonly batch: number;
  private wake: (() => void) | undefined;
  private kicked = false;

  constructor(
    private readonly repo: DeliveryRepository,
    private readonly deliveries: Queue,
    private readonly settings: RelaySettings,
  ) {
    this.batch = settings.batch ?? 500;
  }

  async relayOnce(): Promise<{ events: number; deliveries: number }> {
    const due = await this.repo.relayPass(this.settings.requeueAfterMs, this.batch);
    if (due.deliveries.length) {
      await this.deliveries.addBulk(due.deliveries.map((q) => deliveryJob(q, this.settings.maxAttempts, this.settings.retryDelayMs)));
    }
    return { events: due.events, deliveries: due.deliveries.length };
  }

  /** Runs relayOnce now (or right after the run in progress). */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  /**
   * Relays until stopped: at once while there is work, on kick(), and every `idleMs` otherwise; while rounds
   * fail (PostgreSQL away) it backs off as pollUntilAborted does, each outcome going to `report`.
   */
  run(signal: AbortSignal, idleMs: number, report: RoundReport): Promise<void> {
    return (async () => {
      let failures = 0;
      while (!signal.aborted) {
        this.kicked = false;
        let full = false;
        try {
          const n = await this.relayOnce();
          full = n.events === this.batch || n.deliveries >= this.batch;
          failures = 0;
          report.succeeded();
        } catch (err) {
          failures++;
          report.failed(err);
        }
        if (!full && !this.kicked) await this.sleep(backoff(idleMs, failures), signal);
      }
    })();
  }

  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const t = setTimeout(done, ms);
      this.wake = done;
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
