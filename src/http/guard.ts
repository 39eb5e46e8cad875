import type { Request, Response } from 'express';
import { AppError } from '../errors.ts';
import { CATEGORIES } from '../accounts/access.ts';
import { hashApiKey, KEY_PATTERN } from '../accounts/keys.ts';
import type { Caller, CallerRepository, Resource } from '../accounts/callerRepository.ts';
import type { TokenService } from '../accounts/tokens.ts';
import { monthOf, nextMonthStart, type QuotaRepository } from '../limits/quotaRepository.ts';
import type { RateLimits } from '../limits/rateLimits.ts';

/** The socket's address, or X-Forwarded-For's when the request came through a trusted proxy. */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** The API key of a request, from X-API-Key or the legacy `Authorization: Api-Key <key>`. */
function readKey(req: Request): string {
  const header = req.headers['x-api-key'];
  let key = typeof header === 'string' ? header.trim() : undefined;
  const auth = req.headers.authorization;
  if (key === undefined && auth && /^Api-Key\s/i.test(auth)) key = auth.replace(/^Api-Key\s+/i, '').trim();
  if (key === undefined) throw new AppError('unauthorized', 'an API key is required: send it in the X-API-Key header');
  if (!KEY_PATTERN.test(key)) throw new AppError('unauthorized', 'malformed API key: expected nsh_ followed by 32 letters and digits');
  return key;
}

const UNGUARDED_CALLER: Caller = {
  accountId: 'unguarded', keyId: null, planCode: 'unguarded', subscriptionActive: true, subscriptionStatus: 'active',
  expiresAt: null, categories: [...CATEGORIES], concurrency: 10, bulkSearchLimit: 100, bulkLogoLimit: 100,
  webhookEnabled: true, monitoredMarksLimit: null,
  quotas: { api_calls: Infinity, doc_views: Infinity, logo_searches: Infinity, pdf_reports: Infinity, excel_reports: Infinity },
};

/**
 * Authentication and every per-request limit, in one place that all endpoints go through:
 * key → subscription → per-key rate → concurrency, and monthly credits around the handler.
 */
export class Guard {
  constructor(
    private readonly callers: CallerRepository,
    private readonly quotas: QuotaRepository,
    private readonly limits: RateLimits,
    private readonly tokens: TokenService,
    private readonly unguarded: boolean,
  ) {}

  /** `precharge`: take the default credit (one api_calls) while reading the caller. */
  async apiKey(req: Request, res: Response, precharge = false): Promise<Caller> {
    if (this.unguarded) return UNGUARDED_CALLER;
    let caller: Caller | undefined;
    try {
      const hash = hashApiKey(readKey(req));
      caller = precharge ? await this.callers.byKeyHashCharging(hash) : await this.callers.byKeyHash(hash);
      if (!caller) throw new AppError('unauthorized', 'unknown or revoked API key');
      if (!caller.subscriptionActive) {
        throw new AppError('subscription_inactive', 'your subscription is not active: renew it to use the API',
          { status: caller.subscriptionStatus, expires_at: caller.expiresAt });
      }
    } catch (err) {
      // Refused before admission, which is where keyed requests count against their IP: count it here,
      // so guessing keys is limited like everything else.
      await this.limits.checkIp(clientIp(req));
      throw err;
    }
    let admission;
    try {
      admission = await this.limits.admit(clientIp(req), caller.keyId!, caller.accountId, caller.concurrency, req.id);
    } catch (err) {
      // A refusal costs nothing: give back the credit taken with the caller.
      if (caller.precharged) await this.refunder(caller, 'api_calls', 1)();
      throw err;
    }
    const { window: w, release } = admission;
    // 'close' fires once the response is done or the client went away: the slot is always freed.
    res.once('close', release);
    if (w) {
      res.setHeader('RateLimit-Limit', String(w.limit));
      res.setHeader('RateLimit-Remaining', String(w.remaining));
      res.setHeader('RateLimit-Reset', String(w.resetSeconds));
    }
    this.callers.touchKey(caller.keyId!);
    return caller;
  }

  /** The per-IP limit for requests that do not go through apiKey(), which counts them itself. */
  async ip(req: Request): Promise<void> {
    if (!this.unguarded) await this.limits.checkIp(clientIp(req));
  }

  /** The free public search's own limit (60 per hour per IP). */
  async publicSearch(req: Request): Promise<void> {
    if (!this.unguarded) await this.limits.checkPublicSearch(clientIp(req));
  }

  async bearer(req: Request): Promise<Caller> {
    const auth = req.headers.authorization;
    const m = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
    if (!m) throw new AppError('unauthorized', 'a bearer token is required: Authorization: Bearer <token> (from POST /user/v1/login/)');
    const caller = await this.callers.byAccountId(this.tokens.verify(m[1]));
    if (!caller) throw new AppError('unauthorized', 'invalid or expired bearer token');
    return caller;
  }

  /** Takes the credits a request costs before it runs; the returned function gives them back on failure. */
  async charge(caller: Caller, resource: Resource, units: number): Promise<() => Promise<void>> {
    if (this.unguarded) return async () => {};
    const limit = caller.quotas[resource] ?? 0;
    const precharged = resource === 'api_calls' && units === 1 ? caller.precharged : undefined;
    // A refusal found while reading the caller is only reported here, after the checks that come first.
    const used = precharged === undefined ? await this.quotas.reserve(caller.accountId, resource, units, limit) : precharged ? 0 : null;
    if (used === null) {
      const reset = nextMonthStart();
      const remaining = Math.max(0, limit - (await this.quotas.used(caller.accountId, resource)));
      throw new AppError('quota_exceeded', `monthly ${resource} quota exceeded: this request needs ${units}, ${remaining} left`,
        { limit, remaining, needed: units, reset: reset.toISOString(), resource },
        { 'Retry-After': String(Math.ceil((reset.getTime() - Date.now()) / 1000)) });
    }
    return this.refunder(caller, resource, units);
  }

  /** Gives credits back to the month they were taken from, even if the request ends after midnight UTC. */
  refunder(caller: Caller, resource: Resource, units: number): () => Promise<void> {
    const month = monthOf(new Date());
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      await this.quotas.refund(caller.accountId, resource, units, month);
    };
  }
}
