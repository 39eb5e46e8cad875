import type { Db } from '../db/knex.ts';
import type { Resource } from '../accounts/callerRepository.ts';
import { Prepared } from '../db/prepared.ts';

// Months are calendar months in UTC.
export const MONTH = `(date_trunc('month', now() at time zone 'UTC'))::date`;

const RESERVE = new Prepared('quota_reserve', `insert into usage_counters as u (account_id, month, resource, used)
   select ?, ${MONTH}, ?, ? where ?::bigint <= ?::bigint
   on conflict (account_id, month, resource) do update set used = u.used + excluded.used
     where u.used + excluded.used <= ?
   returning used`);

export class QuotaRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes `units` credits when `used + units <= limit`, atomically: the row lock of the upsert
   * serialises a burst, so parallel requests can never together go past the limit.
   * Returns the new total, or null when refused (nothing taken).
   */
  async reserve(accountId: string, resource: Resource, units: number, limit: number): Promise<number | null> {
    const rows = await RESERVE.run<{ used: number }>(this.db, [accountId, resource, units, units, limit, limit]);
    return rows.length ? Number(rows[0].used) : null;
  }

  /** Gives back credits of a request that failed: errors cost nothing. */
  /** `month` (YYYY-MM-01) is the month the credits were taken in. */
  async refund(accountId: string, resource: Resource, units: number, month: string): Promise<void> {
    await this.db.raw(
      `update usage_counters set used = greatest(used - ?, 0) where account_id = ? and month = ?::date and resource = ?`,
      [units, accountId, month, resource]);
  }

  async used(accountId: string, resource: Resource): Promise<number> {
    const r = await this.db.raw(`select used from usage_counters where account_id = ? and month = ${MONTH} and resource = ?`, [accountId, resource]);
    return r.rows.length ? Number(r.rows[0].used) : 0;
  }

  async usage(accountId: string): Promise<{ month: string; used: Partial<Record<Resource, number>> }> {
    const r = await this.db.raw(
      `select to_char(${MONTH}, 'YYYY-MM') as month, coalesce(json_object_agg(resource, used) filter (where resource is not null), '{}') as used
       from (select 1) one left join usage_counters on account_id = ? and month = ${MONTH}`, [accountId]);
    return { month: r.rows[0].month, used: r.rows[0].used };
  }
}

/** The UTC calendar month of an instant, as its first day (YYYY-MM-01). */
export function monthOf(d: Date): string {
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** First instant of next month, UTC: when monthly credits reset. */
export function nextMonthStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}
