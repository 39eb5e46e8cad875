import type { Db } from '../db/knex.ts';
import { isoTimestamp } from '../db/sql.ts';
import type { Screened } from './results.ts';

// SQL of a clearance beyond the analysis (src/threats/repository.ts): where the marks listed keep their
// logos, and the single clearances kept for their reports (migrations/*_clearances.ts).

/** Days a single clearance is kept for its reports; then it is not found, and deleted by a later clearance. */
export const CLEARANCE_RETENTION_DAYS = 90;
/** Expired clearances deleted by each new one: enough to keep up with any rate of new ones, few enough to be quick. */
const PURGE_BATCH = 20;

export interface KeptClearance {
  id: string;
  result: Screened;
  logo_key: string | null;
  created_at: string;
}

export class ClearanceRepository {
  constructor(private readonly db: Db) {}

  /** The object-store key of each given mark's logo, for those that have one. */
  /** When an import of the register last finished: what a report's coverage date says (ISO; null before any). */
  async lastImport(): Promise<string | null> {
    const r = await this.db.raw('select max(finished_at) as at from import_runs');
    const at: Date | null = r.rows[0]?.at ?? null;
    return at ? at.toISOString() : null;
  }

  async logoKeys(appNos: string[]): Promise<Map<string, string>> {
    if (!appNos.length) return new Map();
    const rows: { application_number: string; object_key: string }[] = await this.db('logos')
      .select('application_number', 'object_key')
      .whereIn('application_number', appNos);
    return new Map(rows.map((r) => [r.application_number, r.object_key]));
  }

  /**
   * Keeps a clearance and deletes a few past their retention, in one transaction; answers the deleted
   * ones' thumbnail keys, for the store. Its commit does not wait for the WAL's flush (synchronous_commit
   * off, this transaction only): a crash in the next moment may lose the row, and with it only the
   * clearance's report (the client has its answer), while waiting for the flush cost each clearance
   * about as much as its analysis on a slow disk.
   */
  async save(id: string, accountId: string, result: Screened, logoKey: string | null): Promise<string[]> {
    return this.db.transaction(async (trx) => {
      await trx.raw('set local synchronous_commit = off');
      await trx.raw('insert into clearances (id, account_id, result, logo_key) values (?, ?, ?::jsonb, ?)', [
        id,
        accountId,
        JSON.stringify(result),
        logoKey,
      ]);
      const r = await trx.raw(
        `delete from clearances where id in (
           select id from clearances where created_at <= now() - make_interval(days => ?) order by created_at limit ?
           for update skip locked)
         returning logo_key`,
        [CLEARANCE_RETENTION_DAYS, PURGE_BATCH],
      );
      return r.rows.map((x: { logo_key: string | null }) => x.logo_key).filter((k: string | null): k is string => !!k);
    });
  }

  /** One of the account's clearances still kept; another account's, or an expired one, is not found. */
  async get(id: string, accountId: string): Promise<KeptClearance | undefined> {
    const r = await this.db.raw(
      `select id, result, logo_key, ${isoTimestamp('created_at')} as created_at from clearances
       where id = ? and account_id = ? and created_at > now() - make_interval(days => ?)`,
      [id, accountId, CLEARANCE_RETENTION_DAYS],
    );
    return r.rows[0];
  }
}
