import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import type { StaleRead } from '../db/replicas.ts';
import { isoTimestamp } from '../db/sql.ts';
import { eventSql } from '../webhooks/events.ts';
import type { Screened } from './results.ts';

// SQL of batch clearance (migrations/*_clearance_batches.ts). A proposal's answer and its credits are
// written together by answer(), which only a pending row takes: a proposal is answered, and charged, once.

export type BatchStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface BatchRow {
  id: string;
  account_id: string;
  status: BatchStatus;
  total: number;
  done: number;
  errors: number;
  clearances: number;
  logo_searches: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface ItemAnswer {
  idx: number;
  status: 'done' | 'error';
  result: Screened | null;
  error: { code: string; message: string } | null;
}

/** Credits one proposal costs, and the plan's limits they are taken under. */
export interface ItemCharge {
  month: string;
  units: { clearances: number; logo_searches: number };
  limits: { clearances: number; logo_searches: number };
}

const COLUMNS = `b.id, b.account_id, b.status, b.total, ${isoTimestamp('b.created_at')} as created_at,
  ${isoTimestamp('b.started_at')} as started_at, ${isoTimestamp('b.finished_at')} as finished_at,
  s.done, s.errors, s.clearances, s.logo_searches`;
const SUMS = `lateral (select count(*) filter (where i.status <> 'pending')::int as done,
  count(*) filter (where i.status = 'error')::int as errors,
  coalesce(sum(i.clearances), 0)::int as clearances, coalesce(sum(i.logo_searches), 0)::int as logo_searches
  from clearance_batch_items i where i.batch_id = b.id) s`;

/** Too few credits: answer() rolls its transaction back. */
const SHORT = Symbol('short');

export class ClearanceBatchRepository {
  /**
   * `read`: where a job's progress and answers are read, a replica that has the caller's writes or the primary (src/db/replicas.ts).
   * A replica shows a job's progress a moment late, never ahead: a report's items are read on the primary, so a job
   * seen ended there has all its answers.
   */
  constructor(
    private readonly db: Db,
    private readonly read: StaleRead = (f) => f(db),
  ) {}

  /** The job and its proposals (index = place in the array), in one statement. */
  async create(accountId: string, proposals: object[]): Promise<string> {
    const r = await this.db.raw(
      `with b as (insert into clearance_batches (account_id, total) values (?, ?) returning id),
       i as (insert into clearance_batch_items (batch_id, idx, proposal)
             select b.id, (e.ord - 1)::int, e.value from b, jsonb_array_elements(?::jsonb) with ordinality e(value, ord))
       select id from b`,
      [accountId, proposals.length, JSON.stringify(proposals)],
    );
    return r.rows[0].id;
  }

  /**
   * Chunks of `chunk` proposals the account's other unfinished jobs still have to screen: how far back in the
   * account's own line a new job's chunks go (src/clearance/batchService.ts, enqueueBatch).
   */
  async chunksAhead(accountId: string, exceptId: string, chunk: number): Promise<number> {
    const r = await this.db.raw(
      `select coalesce(sum(ceil(x.pending::numeric / ?)), 0)::int as n from (
         select count(*) filter (where i.status = 'pending') as pending
         from clearance_batches b join clearance_batch_items i on i.batch_id = b.id
         where b.account_id = ? and b.status in ('queued', 'running') and b.id <> ?
         group by b.id) x`,
      [chunk, accountId, exceptId],
    );
    return r.rows[0].n;
  }

  async markEnqueued(id: string): Promise<void> {
    await this.db.raw('update clearance_batches set enqueued_at = now() where id = ?', [id]);
  }

  /** One of the account's jobs with its progress; another account's id is not found, like an id that does not exist. */
  async get(id: string, accountId: string): Promise<BatchRow | undefined> {
    const r = await this.read((db) =>
      db.raw(`select ${COLUMNS} from clearance_batches b, ${SUMS} where b.id = ? and b.account_id = ?`, [id, accountId]),
    );
    return r.rows[0];
  }

  /** A page of a job's answers in request order (the job's account checked by the caller's get()). */
  async answers(id: string, limit: number, offset: number): Promise<ItemAnswer[]> {
    const r = await this.read((db) =>
      db.raw(`select idx, status, result, error from clearance_batch_items where batch_id = ? order by idx limit ? offset ?`, [
        id,
        limit,
        offset,
      ]),
    );
    return r.rows;
  }

  /** A page of a job's proposals with their answers, in request order, for its reports (the account checked by get()). */
  async reportItems(id: string, limit: number, offset: number): Promise<(ItemAnswer & { proposal: Record<string, unknown> })[]> {
    const r = await this.db.raw(
      `select idx, proposal, status, result, error from clearance_batch_items where batch_id = ? order by idx limit ? offset ?`,
      [id, limit, offset],
    );
    return r.rows;
  }

  /** Claims a job for work: null once it is finished (a repeated or re-added chunk then does nothing). */
  async start(id: string): Promise<{ account_id: string; total: number } | null> {
    const r = await this.db.raw(
      `update clearance_batches set status = 'running', started_at = coalesce(started_at, now())
       where id = ? and status in ('queued', 'running') returning account_id, total`,
      [id],
    );
    return r.rows[0] ?? null;
  }

  /** The unanswered proposals of indexes [from, to), in order. */
  async pending(id: string, from: number, to: number): Promise<{ idx: number; proposal: unknown }[]> {
    const r = await this.db.raw(
      `select idx, proposal from clearance_batch_items where batch_id = ? and idx >= ? and idx < ? and status = 'pending' order by idx`,
      [id, from, to],
    );
    return r.rows;
  }

  /**
   * Writes a proposal's answer and takes its credits in PostgreSQL's ledger (usage_counters, as the
   * credit ledger does when Redis is away), in one transaction: 'already' when it was answered before
   * (nothing is charged again), 'short' when its credits are not left (nothing is written).
   */
  async answer(id: string, accountId: string, a: ItemAnswer, charge: ItemCharge | null): Promise<'answered' | 'already' | 'short'> {
    try {
      return await this.db.transaction(async (trx) => {
        const r = await trx.raw(
          `update clearance_batch_items set status = ?, result = ?::jsonb, error = ?::jsonb, clearances = ?, logo_searches = ?,
             answered_at = now()
           where batch_id = ? and idx = ? and status = 'pending' returning idx`,
          [
            a.status,
            a.result && JSON.stringify(a.result),
            a.error && JSON.stringify(a.error),
            charge?.units.clearances ?? 0,
            charge?.units.logo_searches ?? 0,
            id,
            a.idx,
          ],
        );
        if (!r.rows.length) return 'already';
        for (const resource of ['clearances', 'logo_searches'] as const) {
          const units = charge?.units[resource] ?? 0;
          if (units > 0 && !(await reserve(trx, accountId, resource, units, charge!.limits[resource], charge!.month))) throw SHORT;
        }
        return 'answered';
      });
    } catch (err) {
      if (err === SHORT) return 'short';
      throw err;
    }
  }

  /** A chunk whose retries ran out: its unanswered proposals are answered with the error, free, and the job will end failed. */
  async giveUp(id: string, from: number, to: number, message: string): Promise<void> {
    await this.db.raw(
      `with i as (update clearance_batch_items set status = 'error', error = ?::jsonb, answered_at = now()
                  where batch_id = ? and idx >= ? and idx < ? and status = 'pending')
       update clearance_batches set gave_up = true where id = ?`,
      [JSON.stringify({ code: 'service_unavailable', message }), id, from, to, id],
    );
  }

  /**
   * Ends a job whose every proposal is answered, with its clearance.completed event and a delivery to
   * each of the account's webhooks that wants it, in one transaction: a job ends, and is announced, once.
   * The event is fanned out here (the relay fans out mark events only) and has no place in the changes feed.
   */
  async complete(id: string, payload: (b: BatchRow) => object): Promise<BatchRow | null> {
    return this.db.transaction(async (trx) => {
      const r = await trx.raw(
        `with u as (update clearance_batches set status = case when gave_up then 'failed' else 'completed' end, finished_at = now()
                    where id = ? and status in ('queued', 'running')
                      and not exists (select 1 from clearance_batch_items where batch_id = ? and status = 'pending')
                    returning *)
         select ${COLUMNS} from u b, ${SUMS}`,
        [id, id],
      );
      const b = r.rows[0] as BatchRow | undefined;
      if (!b) return null;
      await announce(trx, b, payload(b));
      return b;
    });
  }

  /** Unfinished jobs that may not be in the queue: never enqueued (after a grace), or enqueued long ago. */
  async adrift(graceSeconds: number, lostAfterSeconds: number): Promise<{ id: string; account_id: string; total: number }[]> {
    const r = await this.db.raw(
      `select id, account_id, total from clearance_batches where status in ('queued', 'running')
         and ((enqueued_at is null and created_at < now() - make_interval(secs => ?))
           or enqueued_at < now() - make_interval(secs => ?))
       order by created_at limit 100`,
      [graceSeconds, lostAfterSeconds],
    );
    return r.rows;
  }
}

// As QuotaRepository.reserve, inside the answer's transaction: never past the limit.
async function reserve(trx: Knex.Transaction, account: string, resource: string, units: number, limit: number, month: string) {
  const r = await trx.raw(
    `insert into usage_counters as u (account_id, month, resource, used)
     select ?, ?::date, ?, ? where ?::bigint <= ?::bigint
     on conflict (account_id, month, resource) do update set used = u.used + excluded.used where u.used + excluded.used <= ?
     returning used`,
    [account, month, resource, units, units, limit, limit],
  );
  return r.rows.length > 0;
}

async function announce(trx: Knex.Transaction, b: BatchRow, payload: object): Promise<void> {
  const o = await trx.raw(
    `insert into outbox (event, application_number, new_value, changed_at, fanned_out_at)
     values (${eventSql('clearance.completed')}, ?, ?::jsonb, now(), now()) returning id`,
    [b.id, JSON.stringify(payload)],
  );
  await trx.raw(
    `insert into webhook_deliveries (webhook_id, outbox_id)
     select w.id, ? from webhooks w
     where w.account_id = ? and w.active and (w.events @> '{*}' or ${eventSql('clearance.completed')} = any(w.events))`,
    [o.rows[0].id, b.account_id],
  );
}
