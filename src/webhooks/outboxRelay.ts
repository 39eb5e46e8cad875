import type { Queue } from 'bullmq';
import type { Db } from '../db/knex.ts';
import { isoTimestamp } from '../db/sql.ts';

export const EVENTS_QUEUE = 'registry-events';

export interface RegistryEvent {
  outbox_id: number;
  event: string;
  application_number: string;
  old_value: unknown;
  new_value: unknown;
  changed_at: string;
}

/**
 * Moves outbox rows (written in the import's transaction) to the BullMQ events queue. The job id is
 * the outbox id, so when the enqueue succeeds but marking the rows fails, the retry re-adds the same
 * ids and BullMQ keeps one job each: every change reaches the queue, once.
 */
export class OutboxRelay {
  constructor(private readonly db: Db, private readonly queue: Queue, private readonly batch = 500) {}

  async relayOnce(): Promise<number> {
    return this.db.transaction(async (trx) => {
      // skip locked: several relays (one per worker process) share the outbox without double work.
      const { rows } = await trx.raw(
        `select id, event, application_number, old_value, new_value,
                ${isoTimestamp('changed_at')} as changed_at
         from outbox where relayed_at is null order by id limit ? for update skip locked`, [this.batch]);
      if (!rows.length) return 0;
      await this.queue.addBulk(
        (rows as (Omit<RegistryEvent, 'outbox_id'> & { id: number })[]).map(({ id, ...e }) => ({
          name: e.event,
          data: { outbox_id: id, ...e } satisfies RegistryEvent,
          opts: { jobId: `outbox-${id}`, attempts: 5, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: 10_000 },
        })),
      );
      await trx.raw('update outbox set relayed_at = now() where id = any(?)', [rows.map((r: { id: number }) => r.id)]);
      return rows.length;
    });
  }

  /** Relays until stopped, polling briefly while there is work and slowly when there is none. */
  run(signal: AbortSignal, idleMs = 1000, onError: (err: unknown) => void = () => {}): Promise<void> {
    return (async () => {
      while (!signal.aborted) {
        let moved = 0;
        try {
          moved = await this.relayOnce();
        } catch (err) {
          onError(err);
        }
        if (moved < this.batch) await sleep(idleMs, signal);
      }
    })();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    }, { once: true });
  });
}
