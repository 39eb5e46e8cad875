import type { Db } from '../db/knex.ts';
import { isoDate, isoTimestamp } from '../db/sql.ts';
import { deadlineSql, HIT_LINE_SQL, type HitLine, UNEXTENDED_MONTHS } from './deadlines.ts';

// SQL of each account's calendar feed of opposition deadlines (docs/watches.md): the feed's token, kept as its
// SHA-256 (it only needs verifying), and the open hits with a deadline that the feed lists.

export interface DeadlineRow extends HitLine {
  deadline: string;
  journal_number: string;
  publication_date: string;
  unextended: string;
  updated_at: string;
}

export class CalendarRepository {
  constructor(private readonly db: Db) {}

  /** Sets the account's token (the one before stops working); when it was set. */
  async set(accountId: string, hash: Buffer): Promise<string> {
    const r = await this.db.raw(
      `insert into watch_calendars (account_id, token_hash) values (?, ?)
       on conflict (account_id) do update set token_hash = excluded.token_hash, created_at = now()
       returning ${isoTimestamp('created_at')} as created_at`,
      [accountId, hash],
    );
    return r.rows[0].created_at;
  }

  async clear(accountId: string): Promise<boolean> {
    return (await this.db('watch_calendars').where({ account_id: accountId }).delete()) > 0;
  }

  /** When the account's token was set, or null when it has none. */
  async since(accountId: string): Promise<string | null> {
    const r = await this.db.raw(`select ${isoTimestamp('created_at')} as created_at from watch_calendars where account_id = ?`, [
      accountId,
    ]);
    return r.rows[0]?.created_at ?? null;
  }

  /** The account a token's hash belongs to. */
  async accountOf(hash: Buffer): Promise<string | undefined> {
    return (await this.db('watch_calendars').where({ token_hash: hash }).first('account_id'))?.account_id;
  }

  /** The account's open hits (new or acknowledged) of advertised marks, soonest deadline first. */
  async deadlines(accountId: string): Promise<DeadlineRow[]> {
    const r = await this.db.raw(
      `select ${HIT_LINE_SQL}, j.journal_number, ${isoDate('j.publication_date')} as publication_date,
         ${isoDate(deadlineSql('j.publication_date', UNEXTENDED_MONTHS))} as unextended,
         to_char(h.updated_at at time zone 'UTC', 'YYYYMMDD"T"HH24MISS"Z"') as updated_at
       from watch_hits h join watches w on w.id = h.watch_id
       join trademarks t on t.application_number = h.application_number join journals j on j.id = t.journal_id
       where h.account_id = ? and h.state <> 'dismissed'
       order by ${deadlineSql('j.publication_date')}, h.application_number, h.id`,
      [accountId],
    );
    return r.rows;
  }
}
