// Mail leaves through the mail_outbox table: whoever has something to say writes a row in the
// transaction that causes it, and this relay sends unsent rows over SMTP (nodemailer) when SMTP_URL is
// set. Without SMTP the rows stay in the table and each is logged once. A failed send is retried on
// the next pass, up to MAX_ATTEMPTS.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/knex.ts';
import type { Logger } from '../logger.ts';

const MAX_ATTEMPTS = 10;

export class MailRelay {
  private readonly transport: Transporter | null;
  private running: Promise<number> | undefined;
  private again = false;

  constructor(private readonly db: Db, settings: { smtpUrl?: string; from: string }, private readonly log: Logger) {
    this.transport = settings.smtpUrl ? nodemailer.createTransport(settings.smtpUrl, { from: settings.from }) : null;
  }

  /** Sends (or, without SMTP, logs) every unsent mail; returns how many were sent. */
  sendPending(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        void this.sendPending().catch((err) => this.log.error({ err }, 'mail relay failed'));
      }
    });
    return this.running;
  }

  private async pass(): Promise<number> {
    let sent = 0;
    for (;;) {
      const n = await this.db.transaction(async (trx) => {
        const rows = await trx.raw(
          `select id, to_address, subject, body from mail_outbox
           where sent_at is null and attempts < ? and (? or attempts = 0)
           order by id limit 20 for update skip locked`, [MAX_ATTEMPTS, this.transport !== null]);
        for (const m of rows.rows as { id: number; to_address: string; subject: string; body: string }[]) {
          if (!this.transport) {
            this.log.info({ mail: m.id, to: m.to_address, subject: m.subject }, 'mail kept in mail_outbox: SMTP_URL is not set');
            await trx.raw(`update mail_outbox set attempts = 1, last_error = 'not sent: SMTP_URL is not set' where id = ?`, [m.id]);
            continue;
          }
          try {
            await this.transport.sendMail({ to: m.to_address, subject: m.subject, text: m.body });
            await trx.raw('update mail_outbox set sent_at = now(), attempts = attempts + 1, last_error = null where id = ?', [m.id]);
            sent++;
          } catch (err) {
            this.log.error({ err, mail: m.id }, 'sending mail failed; retried later');
            await trx.raw('update mail_outbox set attempts = attempts + 1, last_error = ? where id = ?', [String((err as Error).message), m.id]);
          }
        }
        return rows.rows.length;
      });
      if (n < 20) return sent;
    }
  }

  close(): void {
    this.transport?.close();
  }
}
