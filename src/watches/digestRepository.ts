import type { Db } from '../db/knex.ts';
import { isoTimestamp } from '../db/sql.ts';
import { deadlineSql, HIT_LINE_SQL, type HitLine } from './deadlines.ts';

// SQL of the watch hits' mail digests (docs/watches.md): each account's frequency, and the digest itself, written
// as one mail_outbox row (sent by the mail relay) in the transaction that marks its hits digested.

export const DIGEST_FREQUENCIES = ['off', 'daily', 'weekly'] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];

export interface DigestSettings {
  frequency: DigestFrequency;
  since: string | null;
  last_sent_at: string | null;
}

export type DigestHit = HitLine;

/** Days of a deadline listed as approaching in a digest. */
export const DIGEST_DEADLINE_DAYS = 30;

const HIT_FROM = `from watch_hits h join watches w on w.id = h.watch_id
  left join trademarks t on t.application_number = h.application_number left join journals j on j.id = t.journal_id`;

export class DigestRepository {
  constructor(private readonly db: Db) {}

  async settings(accountId: string): Promise<DigestSettings> {
    const r = await this.db.raw(
      `select frequency, ${isoTimestamp('since')} as since, ${isoTimestamp('last_sent_at')} as last_sent_at
       from watch_digests where account_id = ?`,
      [accountId],
    );
    return r.rows[0] ?? { frequency: 'off', since: null, last_sent_at: null };
  }

  /** Sets the frequency; a digest turned on (or changed) covers the hits recorded from now on. */
  async set(accountId: string, frequency: DigestFrequency): Promise<void> {
    await this.db.raw(
      `insert into watch_digests (account_id, frequency) values (?, ?)
       on conflict (account_id) do update set frequency = excluded.frequency,
         since = case when watch_digests.frequency = excluded.frequency then watch_digests.since else now() end`,
      [accountId, frequency],
    );
  }

  /** The accounts whose digest is due on `date` (YYYY-MM-DD): daily ones, and weekly ones on Mondays (the journal's day). */
  async due(date: string): Promise<{ account_id: string; email: string; frequency: DigestFrequency }[]> {
    const r = await this.db.raw(
      `select d.account_id, a.email, d.frequency from watch_digests d join accounts a on a.id = d.account_id
       where d.frequency = 'daily' or (d.frequency = 'weekly' and extract(isodow from ?::date) = 1)
       order by d.account_id`,
      [date],
    );
    return r.rows;
  }

  /**
   * One account's digest: its hits not digested yet (since it turned the digest on, dismissed ones left out) and its
   * open hits whose deadline is at most DIGEST_DEADLINE_DAYS after `date`, handed to `compose`; the mail it makes (if
   * any) is written and the hits marked digested in one transaction. Whether a mail was written.
   */
  async write(
    account: { account_id: string; email: string },
    date: string,
    compose: (fresh: DigestHit[], approaching: DigestHit[]) => { subject: string; body: string } | null,
  ): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const settings = await trx.raw(`select since from watch_digests where account_id = ? and frequency <> 'off' for update`, [
        account.account_id,
      ]);
      if (!settings.rows.length) return false;
      const fresh = await trx.raw(
        `select ${HIT_LINE_SQL} ${HIT_FROM}
         where h.account_id = ? and h.digested_at is null and h.created_at >= ? and h.state <> 'dismissed'
         order by case h.risk_level when 'High' then 0 when 'Medium' then 1 else 2 end, h.created_at, h.id`,
        [account.account_id, settings.rows[0].since],
      );
      const approaching = await trx.raw(
        `select ${HIT_LINE_SQL} ${HIT_FROM}
         where h.account_id = ? and h.state <> 'dismissed'
           and ${deadlineSql('j.publication_date')} between ?::date and ?::date + ${DIGEST_DEADLINE_DAYS}
         order by ${deadlineSql('j.publication_date')}, h.application_number, h.id`,
        [account.account_id, date, date],
      );
      await trx.raw(`update watch_hits set digested_at = now() where account_id = ? and digested_at is null`, [account.account_id]);
      const mail = compose(fresh.rows, approaching.rows);
      if (!mail) return false;
      await trx('mail_outbox').insert({ to_address: account.email, subject: mail.subject, body: mail.body });
      await trx.raw(`update watch_digests set last_sent_at = now() where account_id = ?`, [account.account_id]);
      return true;
    });
  }
}
