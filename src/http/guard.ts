import type { Request, Response } from 'express';
import { CATEGORIES } from '../accounts/access.ts';
import type { CallerCache } from '../accounts/callerCache.ts';
import type { Caller, CallerRepository, Resource } from '../accounts/callerRepository.ts';
import { hashApiKey, KEY_PATTERN } from '../accounts/keys.ts';
import { requireActive } from '../accounts/planRules.ts';
import type { SessionStore } from '../accounts/sessions.ts';
import type { TokenService } from '../accounts/tokens.ts';
import { AppError } from '../errors.ts';
import type { Charge, CreditLedger } from '../limits/credits.ts';
import { EarlyStart } from '../limits/earlyStart.ts';
import { monthOf, nextMonthStart } from '../limits/quotaRepository.ts';
import type { RateLimits, WindowState } from '../limits/rateLimits.ts';
import { Bill } from './pipeline/bill.ts';
import { readSessionCookie, refuseCrossSite, requireCsrf } from './session.ts';

/** The socket's address, or X-Forwarded-For's when the request came through a trusted proxy. */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** The API key of a request, from X-API-Key or the legacy `Authorization: Api-Key <key>`; undefined when it sends neither. */
function readKey(req: Request): string | undefined {
  const header = req.headers['x-api-key'];
  let key = typeof header === 'string' ? header.trim() : undefined;
  const auth = req.headers.authorization;
  if (key === undefined && auth && /^Api-Key\s/i.test(auth)) key = auth.replace(/^Api-Key\s+/i, '').trim();
  if (key !== undefined && !KEY_PATTERN.test(key))
    throw new AppError('unauthorized', 'malformed API key: expected nsh_ followed by 32 letters and digits');
  return key;
}

/** Who a keyed request's per-key window and early start count against: its key, or a session's account. */
const windowOf = (caller: Caller) => caller.keyId ?? `session:${caller.accountId}`;

function setWindowHeaders(res: Response, w: WindowState): void {
  res.setHeader('RateLimit-Limit', String(w.limit));
  res.setHeader('RateLimit-Remaining', String(w.remaining));
  res.setHeader('RateLimit-Reset', String(w.resetSeconds));
}

const UNGUARDED_CALLER: Caller = {
  accountId: 'unguarded',
  keyId: null,
  planCode: 'unguarded',
  subscriptionActive: true,
  subscriptionStatus: 'active',
  expiresAt: null,
  categories: [...CATEGORIES],
  concurrency: 10,
  bulkSearchLimit: 100,
  bulkLogoLimit: 100,
  webhookEnabled: true,
  monitoredMarksLimit: null,
  quotas: {
    api_calls: Infinity,
    doc_views: Infinity,
    logo_searches: Infinity,
    pdf_reports: Infinity,
    excel_reports: Infinity,
    clearances: Infinity,
  },
};

/** A keyed request's caller, and its default credit: taken (a Charge), none left (null), or not asked for. */
export interface Admitted {
  caller: Caller;
  credit?: Charge | null;
}

/**
 * Authentication and every per-request limit, in one place that all endpoints go through:
 * key → subscription → per-key rate → concurrency, and monthly credits around the handler.
 */
export class Guard {
  constructor(
    private readonly callers: CallerCache,
    private readonly repo: CallerRepository,
    private readonly ledger: CreditLedger,
    private readonly limits: RateLimits,
    private readonly tokens: TokenService,
    private readonly unguarded: boolean,
    private readonly sessions?: SessionStore,
    // Given by tests that need an admission to stay fresh however slow the machine is.
    private readonly early = new EarlyStart(),
  ) {}

  /**
   * The caller of a keyed request: 401 for a missing, malformed, unknown or revoked key, 403 for an inactive
   * subscription. A request with no key and no Authorization header may come from the dashboard with its
   * session cookie instead (and the CSRF token when it changes something): the account's, charged as a key
   * would be (docs/dashboard.md).
   */
  async identify(req: Request): Promise<Caller> {
    if (this.unguarded) return UNGUARDED_CALLER;
    try {
      const key = readKey(req);
      const sid = key === undefined && req.headers.authorization === undefined && this.sessions ? readSessionCookie(req) : undefined;
      if (key === undefined && sid === undefined)
        throw new AppError('unauthorized', 'an API key is required: send it in the X-API-Key header');
      const caller = sid !== undefined ? await this.session(req, sid) : await this.callers.byKeyHash(hashApiKey(key!));
      if (!caller) throw new AppError('unauthorized', 'unknown or revoked API key');
      requireActive(caller, 'your subscription is not active: renew it to use the API');
      return caller;
    } catch (err) {
      // Refused before admission, which is where keyed requests count against their IP: count it here,
      // so guessing keys is limited like everything else.
      await this.limits.checkIp(clientIp(req));
      throw err;
    }
  }

  /**
   * Admits an identified caller's request: windows, concurrency slot and, with `defaultCredit`, the
   * usual cost (one api_calls) in the same round trip. A refusal for want of credits is only
   * reported by charge(), after the checks that come first.
   */
  async admit(req: Request, res: Response, caller: Caller, defaultCredit = false): Promise<Admitted> {
    if (this.unguarded) return { caller };
    const month = monthOf(new Date());
    const limit = caller.quotas.api_calls ?? 0;
    let admission: Awaited<ReturnType<RateLimits['admit']>>;
    try {
      admission = await this.limits.admit(
        clientIp(req),
        windowOf(caller),
        caller.accountId,
        caller.concurrency,
        req.id,
        defaultCredit ? { key: this.ledger.key(caller.accountId, month, 'api_calls'), units: 1, limit } : undefined,
      );
    } catch (err) {
      this.early.refused(windowOf(caller));
      throw err;
    }
    this.early.admitted(windowOf(caller), admission.headroom);
    // Freed as soon as the response is handed over ('finish'), or when the client went away ('close').
    res.once('finish', admission.release);
    res.once('close', admission.release);
    if (admission.window) setWindowHeaders(res, admission.window);
    if (caller.keyId) this.repo.touchKey(caller.keyId);
    if (!defaultCredit) return { caller };
    if (admission.charged) {
      // Topped up before it runs dry, so requests do not wait for PostgreSQL.
      void this.ledger.keepUp(caller.accountId, 'api_calls', limit, admission.balance);
      return { caller, credit: { accountId: caller.accountId, resource: 'api_calls', units: 1, month, limit, via: 'redis' } };
    }
    // The balance was short (or Redis is away): top it up from PostgreSQL, or learn that none is left.
    return { caller, credit: await this.ledger.take(caller.accountId, 'api_calls', 1, limit) };
  }

  async apiKey(req: Request, res: Response, defaultCredit = false): Promise<Admitted> {
    return this.admit(req, res, await this.identify(req), defaultCredit);
  }

  /**
   * Whether a read-only request may run while its admission is pending (src/limits/earlyStart.ts);
   * when it returns true, endEarly() must follow.
   */
  startEarly(caller: Caller): boolean {
    return !this.unguarded && caller.keyId !== null && this.early.tryStart(caller.keyId);
  }

  endEarly(caller: Caller): void {
    this.early.end(caller.keyId!);
  }

  /** The per-IP limit for requests that do not go through apiKey(), which counts them itself. */
  async ip(req: Request): Promise<void> {
    if (!this.unguarded) await this.limits.checkIp(clientIp(req));
  }

  /**
   * The free public search's own limit (60 per hour per IP), said in RateLimit-* headers on every answer
   * (a refusal sets its own), so a page calling it can show what is left of the hour.
   */
  async publicSearch(req: Request, res: Response): Promise<void> {
    if (this.unguarded) return;
    const w = await this.limits.checkPublicSearch(clientIp(req));
    if (w) setWindowHeaders(res, w);
  }

  /** The account of a dashboard request: its bearer token, or without an Authorization header, its session cookie. */
  async bearer(req: Request): Promise<Caller> {
    const auth = req.headers.authorization;
    const sid = auth === undefined && this.sessions ? readSessionCookie(req) : undefined;
    if (sid !== undefined) return this.session(req, sid);
    const m = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
    if (!m) throw new AppError('unauthorized', 'a bearer token is required: Authorization: Bearer <token> (from POST /user/v1/login/)');
    const caller = await this.repo.byAccountId(this.tokens.verify(m[1]));
    if (!caller) throw new AppError('unauthorized', 'invalid or expired bearer token');
    return caller;
  }

  /** A session cookie's account, on a request from this site's own page (with the CSRF token when it changes something). */
  private async session(req: Request, sid: string): Promise<Caller> {
    const sessions = this.sessions!;
    refuseCrossSite(req);
    requireCsrf(req, (token) => sessions.checkCsrf(sid, token));
    const accountId = await sessions.account(sid);
    const caller = accountId ? await this.repo.byAccountId(accountId) : undefined;
    if (!caller) throw new AppError('unauthorized', 'your session has ended: log in again');
    return caller;
  }

  /**
   * Takes the credits a request costs before it runs, or confirms the default credit taken at
   * admission (429 quota_exceeded when too few are left): the charge to put on the request's bill,
   * null when nothing is charged (checks off).
   */
  async charge(a: Admitted, resource: Resource, units: number): Promise<Charge | null> {
    if (this.unguarded) return null;
    const { caller } = a;
    const limit = caller.quotas[resource] ?? 0;
    const taken =
      a.credit !== undefined && resource === 'api_calls' && units === 1
        ? a.credit
        : await this.ledger.take(caller.accountId, resource, units, limit);
    if (taken === null) {
      const reset = nextMonthStart();
      // Whatever is left past a refusal is being spent by requests in flight: fewer than this one needs.
      const remaining = Math.min(units - 1, Math.max(0, limit - (await this.ledger.used(caller.accountId, resource))));
      throw new AppError(
        'quota_exceeded',
        `monthly ${resource} quota exceeded: this request needs ${units}, ${remaining} left`,
        { limit, remaining, needed: units, reset: reset.toISOString(), resource },
        { 'Retry-After': String(Math.ceil((reset.getTime() - Date.now()) / 1000)) },
      );
    }
    return taken;
  }

  /** A new request's bill: what it is charged, given back to the ledger if it fails. */
  bill(): Bill {
    return new Bill(this.ledger);
  }
}
