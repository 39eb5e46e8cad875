// Mail leaves through the mail_outbox table: whoever has something to say writes a row in the
// transaction that causes it, and this relay sends unsent rows over SMTP (nodemailer) when SMTP_URL is
// set. Without SMTP the rows stay in the table and each is logged once. A failed send is retried on
// the next pass, up to MAX_ATTEMPTS.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../logger.ts';
import type { MailRepository } from './mailRepository.ts';

const MAX_ATTEMPTS = 10;
const BATCH = 20;

export class MailRelay {
  private readonly transport: Transporter | null;
  private running: Promise<number> | undefined;
  private again = false;

  constructor(
    private readonly repo: MailRepository,
    settings: { smtpUrl?: string; from: string },
    private readonly log: Logger,
  ) {
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
      // Without SMTP only mail never tried is read: each is logged once, and stays in the table.
      const n = await this.repo.claim(BATCH, MAX_ATTEMPTS, !this.transport, async (batch) => {
        for (const m of batch.mails) {
          if (!this.transport) {
            this.log.info({ mail: m.id, to: m.to_address, subject: m.subject }, 'mail kept in mail_outbox: SMTP_URL is not set');
            await batch.kept(m.id, 'not sent: SMTP_URL is not set');
            continue;
          }
          try {
            await this.transport.sendMail({ to: m.to_address, subject: m.subject, text: m.body });
            await batch.sent(m.id);
            sent++;
          } catch (err) {
            this.log.error({ err, mail: m.id }, 'sending mail failed; retried later');
            await batch.failed(m.id, String((err as Error).message));
          }
        }
        return batch.mails.length;
      });
      if (n < BATCH) return sent;
    }
  }

  close(): void {
    this.transport?.close();
  }
}
