// SQL of the mail_outbox table, as the relay (src/mail/mailer.ts) reads and settles it.
import type { Db } from '../db/knex.ts';

export interface OutgoingMail {
  id: number;
  to_address: string;
  subject: string;
  body: string;
}

/** A batch of unsent mail, locked until the work on it is done; each mail is settled one way. */
export interface MailBatch {
  mails: OutgoingMail[];
  sent(id: number): Promise<void>;
  failed(id: number, error: string): Promise<void>;
  /** Left unsent on purpose: counted as one attempt, so a relay that cannot send reports it once. */
  kept(id: number, reason: string): Promise<void>;
}

export class MailRepository {
  constructor(private readonly db: Db) {}

  /**
   * Locks up to `size` unsent mails with attempts left (skipping those another relay holds; with
   * `untriedOnly`, mails never tried) and hands them to `work` in one transaction.
   */
  claim<T>(size: number, maxAttempts: number, untriedOnly: boolean, work: (batch: MailBatch) => Promise<T>): Promise<T> {
    return this.db.transaction(async (trx) => {
      const rows = await trx.raw(
        `select id, to_address, subject, body from mail_outbox
         where sent_at is null and attempts < ? and (? or attempts = 0)
         order by id limit ? for update skip locked`,
        [maxAttempts, !untriedOnly, size],
      );
      return work({
        mails: rows.rows,
        sent: async (id) => {
          await trx.raw('update mail_outbox set sent_at = now(), attempts = attempts + 1, last_error = null where id = ?', [id]);
        },
        failed: async (id, error) => {
          await trx.raw('update mail_outbox set attempts = attempts + 1, last_error = ? where id = ?', [error, id]);
        },
        kept: async (id, reason) => {
          await trx.raw('update mail_outbox set attempts = 1, last_error = ? where id = ?', [reason, id]);
        },
      });
    });
  }
}
