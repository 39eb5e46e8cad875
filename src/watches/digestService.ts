import type { Caller } from '../accounts/callerRepository.ts';
import type { Logger } from '../logger.ts';
import { digestMail } from './digestMail.ts';
import type { DigestFrequency, DigestRepository } from './digestRepository.ts';

// Mail digests of watch hits (docs/watches.md): per account off (the default), daily or weekly (Mondays, the day the
// journal is published), written by the daily reminders job into mail_outbox, which the mail relay sends over SMTP.

export class DigestService {
  constructor(
    private readonly repo: DigestRepository,
    private readonly baseUrl: () => string,
    private readonly log: Logger,
  ) {}

  async get(caller: Caller) {
    return this.repo.settings(caller.accountId);
  }

  async set(caller: Caller, frequency: DigestFrequency) {
    await this.repo.set(caller.accountId, frequency);
    return this.repo.settings(caller.accountId);
  }

  /** Writes every digest due on `date` (YYYY-MM-DD, default today in UTC); how many mails. */
  async writeDue(date = new Date().toISOString().slice(0, 10)): Promise<number> {
    const base = this.baseUrl();
    const links = { inbox: `${base}/app/watches`, settings: `${base}/app/watches (or PUT /user/v1/watches/digest/)` };
    let mails = 0;
    for (const account of await this.repo.due(date)) {
      const sent = await this.repo.write(account, date, (fresh, near) => digestMail(account.frequency, fresh, near, links));
      if (sent) mails++;
    }
    if (mails) this.log.info({ mails, date }, 'watch digests written');
    return mails;
  }
}
