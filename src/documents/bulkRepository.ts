import type { Db } from '../db/knex.ts';
import { isoTimestamp } from '../db/sql.ts';

export interface BulkFailure {
  document_id: number;
  application_number: string | null;
  reason: string;
}

export interface BulkResult {
  included: number;
  failures: BulkFailure[];
}

/** Where a request's doc_views credits were counted, so what is not delivered goes back there. */
export interface BulkCharge {
  units: number;
  month: string;
}

export interface BulkJobRow {
  id: string;
  account_id: string;
  status: 'queued' | 'running' | 'done' | 'failed' | 'expired';
  application_numbers: string[];
  document_types: string[] | null;
  document_ids: number[];
  not_found: string[];
  charge: BulkCharge;
  refunded: number;
  result: BulkResult | null;
  object_key: string | null;
  size_bytes: number | null;
  attempts: number;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

// bigint[] would come back as strings: ids fit a double (src/db/knex.ts).
const COLUMNS = `id, account_id, status, application_numbers, document_types, document_ids::float8[] as document_ids,
  not_found, charge, refunded, result,
  object_key, size_bytes, attempts, error, ${isoTimestamp('created_at')} as created_at, ${isoTimestamp('started_at')} as started_at,
  ${isoTimestamp('finished_at')} as finished_at`;

export class BulkJobRepository {
  constructor(private readonly db: Db) {}

  async create(j: {
    accountId: string;
    appNos: string[];
    types: string[] | null;
    documentIds: number[];
    notFound: string[];
    charge: BulkCharge;
  }): Promise<BulkJobRow> {
    const r = await this.db.raw(
      `insert into bulk_document_jobs (account_id, application_numbers, document_types, document_ids, not_found, charge)
       values (?, ?::text[], ?::text[], ?::bigint[], ?::text[], ?::jsonb) returning ${COLUMNS}`,
      [j.accountId, j.appNos, j.types, j.documentIds, j.notFound, JSON.stringify(j.charge)],
    );
    return r.rows[0];
  }

  /** One of the account's jobs; another account's id is not found, like an id that does not exist. */
  async get(id: string, accountId: string): Promise<BulkJobRow | undefined> {
    const r = await this.db.raw(`select ${COLUMNS} from bulk_document_jobs where id = ? and account_id = ?`, [id, accountId]);
    return r.rows[0];
  }

  async markEnqueued(ids: string[]): Promise<void> {
    await this.db.raw('update bulk_document_jobs set enqueued_at = now() where id = any(?::uuid[])', [ids]);
  }

  /**
   * Claims a job for building: null when it is finished already (a repeated delivery of the queue's
   * job, or a relay's re-enqueue), which makes running a job twice harmless.
   */
  async start(id: string): Promise<BulkJobRow | null> {
    const r = await this.db.raw(
      `update bulk_document_jobs set status = 'running', attempts = attempts + 1, started_at = now()
       where id = ? and status in ('queued', 'running') returning ${COLUMNS}`,
      [id],
    );
    return r.rows[0] ?? null;
  }

  /**
   * Records a finished job and gives back the credits of what it could not deliver, in one
   * transaction: a job is finished, and refunded, exactly once.
   */
  async finish(job: BulkJobRow, done: { objectKey: string; size: number; result: BulkResult }): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const r = await trx.raw(
        `update bulk_document_jobs
         set status = 'done', object_key = ?, size_bytes = ?, result = ?::jsonb, refunded = ?, finished_at = now(), error = null
         where id = ? and status = 'running' returning id`,
        [done.objectKey, done.size, JSON.stringify(done.result), done.result.failures.length, job.id],
      );
      if (!r.rows.length) return false;
      await refund(trx, job, done.result.failures.length);
      return true;
    });
  }

  /** A job that failed for good: nothing delivered, every credit given back. */
  async fail(id: string, error: string): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const r = await trx.raw(
        `update bulk_document_jobs set status = 'failed', error = ?, refunded = (charge->>'units')::int, finished_at = now()
         where id = ? and status in ('queued', 'running') returning ${COLUMNS}`,
        [error.slice(0, 500), id],
      );
      const job = r.rows[0] as BulkJobRow | undefined;
      if (!job) return false;
      await refund(trx, job, job.charge.units);
      return true;
    });
  }

  /**
   * Jobs that may not be in the queue: never enqueued (the request's enqueue failed after its
   * commit), or enqueued long ago and still unfinished (the queue lost them).
   */
  async adrift(graceSeconds: number, lostAfterSeconds: number): Promise<string[]> {
    const r = await this.db.raw(
      `select id from bulk_document_jobs where status in ('queued', 'running')
         and ((enqueued_at is null and created_at < now() - make_interval(secs => ?))
           or enqueued_at < now() - make_interval(secs => ?))
       order by created_at limit 100`,
      [graceSeconds, lostAfterSeconds],
    );
    return r.rows.map((x: { id: string }) => x.id);
  }

  /** Finished jobs older than the retention: their zips are deleted and the jobs marked expired. */
  async expiring(retentionHours: number): Promise<{ id: string; object_key: string | null }[]> {
    const r = await this.db.raw(
      `select id, object_key from bulk_document_jobs where status = 'done' and finished_at < now() - make_interval(hours => ?) limit 100`,
      [retentionHours],
    );
    return r.rows;
  }

  async markExpired(id: string): Promise<void> {
    await this.db.raw(`update bulk_document_jobs set status = 'expired' where id = ? and status = 'done'`, [id]);
  }
}

// The request's credits were counted in PostgreSQL (usage_counters) when they were taken; giving some
// back there is right whether they were then spent from the Redis balance or not (see src/limits/credits.ts).
async function refund(trx: Db, job: BulkJobRow, units: number): Promise<void> {
  if (units <= 0) return;
  await trx.raw(
    `update usage_counters set used = greatest(used - ?, 0) where account_id = ? and month = ?::date and resource = 'doc_views'`,
    [units, job.account_id, job.charge.month],
  );
}
