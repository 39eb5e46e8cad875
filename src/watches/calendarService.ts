import { createHash, randomBytes } from 'node:crypto';
import type { Caller } from '../accounts/callerRepository.ts';
import { AppError } from '../errors.ts';
import type { CalendarRepository } from './calendarRepository.ts';
import { calendarOf } from './icalendar.ts';

// Each account's calendar feed of its watch hits' opposition deadlines (docs/watches.md): an iCalendar file behind an
// unguessable URL, for a calendar application that cannot send an API key. The URL is shown once, when it is made;
// making another rotates it (the one before stops working at once), and it can be turned off.

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash('sha256').update(token).digest();

export const CALENDAR_PATH = '/v1/watches/calendar/';

export class CalendarService {
  constructor(
    private readonly repo: CalendarRepository,
    private readonly baseUrl: () => string,
  ) {}

  async rotate(caller: Caller) {
    const token = randomBytes(32).toString('base64url');
    const created_at = await this.repo.set(caller.accountId, hashOf(token));
    return { enabled: true as const, url: `${this.baseUrl()}${CALENDAR_PATH}${token}.ics`, created_at };
  }

  async status(caller: Caller) {
    const created_at = await this.repo.since(caller.accountId);
    return { enabled: created_at !== null, created_at };
  }

  async disable(caller: Caller) {
    await this.repo.clear(caller.accountId);
    return { enabled: false as const, created_at: null };
  }

  /** The feed of a token's account; not_found for a token that is not (or no longer) one. */
  async feed(file: string): Promise<string> {
    const token = file.endsWith('.ics') ? file.slice(0, -4) : '';
    const account = TOKEN.test(token) ? await this.repo.accountOf(hashOf(token)) : undefined;
    if (!account) throw new AppError('not_found', 'no calendar at this address: it was turned off or replaced by a newer one');
    const base = this.baseUrl();
    return calendarOf(await this.repo.deadlines(account), new URL(base).hostname, (app) => `${base}/marks/${app}/`);
  }
}
