import type { Resource } from '../accounts/callerRepository.ts';
import type { Db } from '../db/knex.ts';
import { Prepared } from '../db/prepared.ts';

// Months are calendar months in UTC.
export const MONTH = `(date_trunc('month', now() at time zone 'UTC'))::date`;

const RESERVE = new Prepared(
  'quota_reserve',
  `insert into usage_counters as u (account_id, month, resource, used)
   select ?, ?::date, ?, ? where ?::bigint <= ?::bigint
   on conflict (account_id, month, resource) do update set used = u.used + excluded.used
     where u.used + excluded.used <= ?
   returning used`,
);

const TAKE = new Prepared('quota_take', 'select nishaan_take_credits(?::uuid, ?::date, ?, ?, ?, ?) as n');

export class QuotaRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes `units` credits when `used + units <= limit`, atomically: the row lock of the upsert
   * serialises a burst, so parallel requests can never together go past the limit.
   * Returns the new total, or null when refused (nothing taken).
   */
  async reserve(accountId: string, resource: Resource, units: number, limit: number, month: string): Promise<number | null> {
    const rows = await RESERVE.run<{ used: number }>(this.db, [accountId, month, resource, units, units, limit, limit]);
    return rows.length ? Number(rows[0].used) : null;
  }

  /**
   * Moves up to a block of credits into circulation (see src/limits/credits.ts), atomically and
   * never past the limit: at least `units` when that many remain, else whatever remains. Returns
   * how many moved.
   */
  async take(accountId: string, month: string, resource: Resource, units: number, block: number, limit: number): Promise<number> {
    const rows = await TAKE.run<{ n: number }>(this.db, [accountId, month, resource, units, block, limit]);
    return Number(rows[0].n);
  }

  /** Gives credits back to `month` (YYYY-MM-01), the month they were taken in. */
  async refund(accountId: string, resource: Resource, units: number, month: string): Promise<void> {
    await this.db.raw(`update usage_counters set used = greatest(used - ?, 0) where account_id = ? and month = ?::date and resource = ?`, [
      units,
      accountId,
      month,
      resource,
    ]);
  }

  /** Credits counted in `month` (YYYY-MM-01) per resource: spent, or in circulation (see CreditLedger). */
  async usage(accountId: string, month: string): Promise<Partial<Record<Resource, number>>> {
    const r = await this.db.raw('select resource, used from usage_counters where account_id = ? and month = ?::date', [accountId, month]);
    return Object.fromEntries(r.rows.map((x: { resource: string; used: string | number }) => [x.resource, Number(x.used)]));
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
