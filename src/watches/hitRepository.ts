import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import type { StaleRead } from '../db/replicas.ts';
import { isoDate, isoTimestamp } from '../db/sql.ts';
import type { RiskLevel } from '../threats/score.ts';
import { deadlineSql, UNEXTENDED_MONTHS } from './deadlines.ts';
import type { HitState } from './hitSchemas.ts';
import type { HitResult } from './schemas.ts';

// SQL of the watch hits an account reads and triages (/user/v1/watches/hits/, docs/watches.md). Every query is
// scoped to the account: another account's hit is simply not found. The journal and the opposition deadline are
// read from the mark as it stands, so a hit recorded before its mark was advertised shows the deadline once it is.

export interface HitRow {
  id: string;
  watch_id: string;
  application_number: string;
  result: HitResult;
  /** Null for a filing by the owner an owner watch follows. */
  risk_level: RiskLevel | null;
  state: HitState;
  note: string | null;
  created_at: string;
  updated_at: string;
  journal_id: number | null;
  journal_number: string | null;
  publication_date: string | null;
  opposition_deadline: string | null;
  opposition_three_months: string | null;
}

export interface HitFilter {
  watchId?: string;
  states?: HitState[];
  /** Risk levels kept (the levels at or above the filter's min_risk). */
  risks?: RiskLevel[];
  /** Days since 1970-01-01: only hits with an opposition deadline on or before it. */
  deadlineBefore?: number;
  /** Days since 1970-01-01, inclusive: when the hit was recorded (UTC). */
  createdFrom?: number;
  createdTo?: number;
}

/** Where a page ends in the order newest first: the hit's creation time (UTC, to the microsecond) and its id. */
export interface HitAfter {
  at: string;
  id: string;
}

const HIT_SELECT = `
  select h.id, h.watch_id, h.application_number, h.result, h.risk_level, h.state, h.note,
    ${isoTimestamp('h.created_at')} as created_at, ${isoTimestamp('h.updated_at')} as updated_at,
    to_char(h.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
    j.id as journal_id, j.journal_number, ${isoDate('j.publication_date')} as publication_date,
    ${isoDate(deadlineSql('j.publication_date'))} as opposition_deadline,
    ${isoDate(deadlineSql('j.publication_date', UNEXTENDED_MONTHS))} as opposition_three_months
  from watch_hits h
  left join trademarks t on t.application_number = h.application_number
  left join journals j on j.id = t.journal_id`;

const day = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);

export class HitRepository {
  /** Hits are written by the watch matcher; a caller's reads of them may be a moment stale, on a replica (src/db/replicas.ts). */
  constructor(
    private readonly db: Db,
    private readonly read: StaleRead = (f) => f(db),
  ) {}

  /** Up to `limit` hits of the filter after `after`, newest first, and how many the filter holds in all. */
  async list(
    accountId: string,
    f: HitFilter,
    limit: number,
    after: HitAfter | null,
  ): Promise<{ rows: (HitRow & HitAfter)[]; count: number }> {
    const where = ['h.account_id = ?'];
    const args: Knex.RawBinding[] = [accountId];
    const add = (sql: string, arg: Knex.RawBinding) => {
      where.push(sql);
      args.push(arg);
    };
    if (f.watchId) add('h.watch_id = ?', f.watchId);
    if (f.states) add('h.state = any(?::text[])', f.states);
    if (f.risks) add('h.risk_level = any(?::text[])', f.risks);
    if (f.deadlineBefore !== undefined) add(`${deadlineSql('j.publication_date')} <= ?::date`, day(f.deadlineBefore));
    if (f.createdFrom !== undefined) add("h.created_at >= ?::date at time zone 'UTC'", day(f.createdFrom));
    if (f.createdTo !== undefined) add("h.created_at < (?::date + 1) at time zone 'UTC'", day(f.createdTo));
    const filtered = `${HIT_SELECT} where ${where.join(' and ')}`;
    const page = after ? `${filtered} and (h.created_at, h.id) < (?::timestamptz, ?::uuid)` : filtered;
    const [rows, count] = await this.read((db) =>
      Promise.all([
        db.raw(`${page} order by h.created_at desc, h.id desc limit ?`, [...args, ...(after ? [after.at, after.id] : []), limit]),
        db.raw(`select count(*)::int as n from (${filtered}) x`, args),
      ]),
    );
    return { rows: rows.rows, count: count.rows[0].n };
  }

  async get(accountId: string, id: string): Promise<HitRow | undefined> {
    return (await this.read((db) => db.raw(`${HIT_SELECT} where h.account_id = ? and h.id = ?`, [accountId, id]))).rows[0];
  }

  /** Sets the state and/or the note of the account's hit; false when it is not the account's. */
  async update(accountId: string, id: string, changes: { state?: HitState; note?: string | null }): Promise<boolean> {
    const set: Record<string, unknown> = { updated_at: this.db.fn.now() };
    if (changes.state !== undefined) set.state = changes.state;
    if (changes.note !== undefined) set.note = changes.note;
    return (await this.db('watch_hits').where({ account_id: accountId, id }).update(set)) > 0;
  }
}
