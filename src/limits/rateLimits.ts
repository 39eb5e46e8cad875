import { createHash } from 'node:crypto';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { AppError, type ErrorCode } from '../errors.ts';
import type { Logger } from '../logger.ts';

export interface LimitSettings {
  ipPerMinute: number;
  keyPerSecond: number;
  publicSearchPerHour: number;
  prefix: string;
  /** Login throttling; any setting left out takes its value from LOGIN_THROTTLE_DEFAULTS. */
  login?: Partial<LoginThrottleSettings>;
}

/**
 * Failed logins per email and per client address within a window: past `*SlowAfter` attempts each
 * further one waits `delayStepMs` more (at most `maxDelayMs`); past `*Max` they are refused with 429.
 */
export interface LoginThrottleSettings {
  windowSeconds: number;
  emailSlowAfter: number;
  emailMax: number;
  ipSlowAfter: number;
  ipMax: number;
  delayStepMs: number;
  maxDelayMs: number;
}

export const LOGIN_THROTTLE_DEFAULTS: LoginThrottleSettings = {
  windowSeconds: 15 * 60, emailSlowAfter: 5, emailMax: 10, ipSlowAfter: 20, ipMax: 50, delayStepMs: 250, maxDelayMs: 2000,
};

export interface WindowState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

// Per-IP and per-key limits are fixed windows (INCR, expiry set on the first hit). A keyed request
// checks its IP window, its key window and takes a concurrency slot in ONE script: one Redis round
// trip for all three, instead of one per limiter (rate-limiter-flexible's model, still used for the
// rarer public-search and login limits). Returns {verdict, count, ttl_ms}: 0 ok, 1 IP, 2 key, 3 slots.
const HIT = `
local function hit(k, win)
  local n = redis.call('INCR', k)
  local ttl = redis.call('PTTL', k)
  if ttl < 0 then redis.call('PEXPIRE', k, win); ttl = win end
  return n, ttl
end
local ipN, ipTtl = hit(KEYS[1], tonumber(ARGV[2]))
if ipN > tonumber(ARGV[1]) then return {1, ipN, ipTtl} end`;
const IP_ONLY = `${HIT}
return {0, ipN, ipTtl}`;
// In-flight requests per account are a sorted set of request ids scored by start time; entries older
// than the TTL are dropped, so a crashed process cannot hold an account's slots for ever.
const ADMIT = `${HIT}
local kN, kTtl = hit(KEYS[2], tonumber(ARGV[4]))
if kN > tonumber(ARGV[3]) then return {2, kN, kTtl} end
local now = tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - tonumber(ARGV[6]))
local c = redis.call('ZCARD', KEYS[3])
if c >= tonumber(ARGV[7]) then return {3, c, 0} end
redis.call('ZADD', KEYS[3], now, ARGV[8])
redis.call('PEXPIRE', KEYS[3], ARGV[6])
return {0, kN, kTtl}`;
const INFLIGHT_TTL_MS = 60_000;
const IP_WINDOW_MS = 60_000;
const KEY_WINDOW_MS = 1_000;

type Verdict = [number, number, number];
interface Scripts {
  nishaanIp(ipKey: string, limit: number, windowMs: number): Promise<Verdict>;
  nishaanAdmit(ipKey: string, keyKey: string, slotsKey: string, ipLimit: number, ipWindowMs: number, keyLimit: number,
    keyWindowMs: number, now: number, slotTtlMs: number, slots: number, member: string): Promise<Verdict>;
}

export interface Admission {
  window: WindowState | null;
  release: () => void;
}

/**
 * Every counter-based limit, kept in Redis so all API processes enforce one limit. If Redis fails,
 * rate limits let the request through (and log): monthly quotas, which carry the money, live in
 * PostgreSQL and still apply.
 */
export class RateLimits {
  private readonly publicSearch: RateLimiterRedis;
  private readonly loginEmail: RateLimiterRedis;
  private readonly loginIp: RateLimiterRedis;
  readonly login: LoginThrottleSettings;

  constructor(private readonly redis: Redis, private readonly s: LimitSettings, private readonly log: Logger) {
    const make = (name: string, points: number, duration: number) =>
      new RateLimiterRedis({ storeClient: redis, keyPrefix: `${s.prefix}:${name}`, points, duration });
    this.publicSearch = make('public', s.publicSearchPerHour, 3600);
    this.login = { ...LOGIN_THROTTLE_DEFAULTS, ...s.login };
    this.loginEmail = make('login:email', this.login.emailMax, this.login.windowSeconds);
    this.loginIp = make('login:ip', this.login.ipMax, this.login.windowSeconds);
    redis.defineCommand('nishaanIp', { numberOfKeys: 1, lua: IP_ONLY });
    redis.defineCommand('nishaanAdmit', { numberOfKeys: 3, lua: ADMIT });
  }

  private get scripts(): Scripts {
    return this.redis as unknown as Scripts;
  }

  /** 200 per minute per client address, on every endpoint that does not go through admit(). */
  async checkIp(ip: string): Promise<void> {
    let v: Verdict;
    try {
      v = await this.scripts.nishaanIp(`${this.s.prefix}:ip:${ip}`, this.s.ipPerMinute, IP_WINDOW_MS);
    } catch (err) {
      this.log.error({ err }, 'IP limiter unavailable; request allowed');
      return;
    }
    if (v[0] === 1) throw this.windowError('ip_rate_limited', this.s.ipPerMinute, v[2], 'requests per minute from one IP address', 'ip');
  }

  /**
   * A keyed request's admission: its IP window (200/min), its key window (10/s) and one of the
   * plan's concurrent slots, in one round trip. Resolves to the key window (for RateLimit-*
   * headers) and the slot's release function.
   */
  async admit(ip: string, keyId: string, accountId: string, slots: number, requestId: string): Promise<Admission> {
    const slotsKey = `${this.s.prefix}:inflight:${accountId}`;
    const member = `${requestId}:${Math.random().toString(36).slice(2)}`;
    let v: Verdict;
    try {
      v = await this.scripts.nishaanAdmit(`${this.s.prefix}:ip:${ip}`, `${this.s.prefix}:key:${keyId}`, slotsKey,
        this.s.ipPerMinute, IP_WINDOW_MS, this.s.keyPerSecond, KEY_WINDOW_MS, Date.now(), INFLIGHT_TTL_MS, slots, member);
    } catch (err) {
      this.log.error({ err }, 'rate limiters unavailable; request allowed');
      return { window: null, release: () => {} };
    }
    const [verdict, count, ttl] = v;
    if (verdict === 1) throw this.windowError('ip_rate_limited', this.s.ipPerMinute, ttl, 'requests per minute from one IP address', 'ip');
    if (verdict === 2) throw this.windowError('key_rate_limited', this.s.keyPerSecond, ttl, 'requests per second for one API key', 'key');
    if (verdict === 3) {
      throw new AppError('concurrency_limited', `too many requests in flight: your plan allows ${slots} at a time`,
        { limit: slots, remaining: 0, resource: 'concurrent_requests', reset: null }, { 'Retry-After': '1' });
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.redis.zrem(slotsKey, member).catch((err) => this.log.error({ err }, 'concurrency release failed'));
    };
    return { window: { limit: this.s.keyPerSecond, remaining: Math.max(0, this.s.keyPerSecond - count), resetSeconds: Math.ceil(ttl / 1000) }, release };
  }

  private windowError(code: ErrorCode, limit: number, ttlMs: number, what: string, scope: string): AppError {
    const retry = Math.max(1, Math.ceil(ttlMs / 1000));
    return new AppError(code, `rate limit exceeded: at most ${limit} ${what}`, {
      limit, remaining: 0, reset: new Date(Date.now() + ttlMs).toISOString(), resource: scope,
    }, { 'Retry-After': String(retry), 'RateLimit-Limit': String(limit), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(retry) });
  }

  /** 60 free searches per hour per client address. */
  checkPublicSearch(ip: string): Promise<WindowState | null> {
    return this.consume(this.publicSearch, ip, 'public_search_limited', 'public searches per hour from one IP address', 'ip');
  }

  /**
   * Counts a login attempt against the email and the client address before the password is checked,
   * so a burst of parallel guesses is counted too. Refuses with 429 `login_throttled` past the maximum;
   * otherwise resolves to how long to wait before answering (0 until the slow-down threshold).
   * A successful login clears the email's count (loginSucceeded); the address's count stays.
   */
  async loginAttempt(email: string, ip: string): Promise<{ delayMs: number }> {
    const l = this.login;
    try {
      const byIp = await this.loginConsume(this.loginIp, ip, 'ip');
      const byEmail = await this.loginConsume(this.loginEmail, emailKey(email), 'email');
      const over = Math.max(byEmail - l.emailSlowAfter, byIp - l.ipSlowAfter, 0);
      return { delayMs: Math.min(l.maxDelayMs, over * l.delayStepMs) };
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.log.error({ err }, 'login throttle unavailable; attempt allowed');
      return { delayMs: 0 };
    }
  }

  /** After a successful login: the email's failures are forgotten. */
  async loginSucceeded(email: string): Promise<void> {
    try {
      // The address keeps its count: rewarding it would let one valid account launder guesses at others.
      await this.loginEmail.delete(emailKey(email));
    } catch (err) {
      this.log.error({ err }, 'login throttle reset failed');
    }
  }

  private async loginConsume(limiter: RateLimiterRedis, id: string, per: 'email' | 'ip'): Promise<number> {
    try {
      return (await limiter.consume(id)).consumedPoints;
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const retry = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      const what = per === 'email' ? 'for this account' : 'from your address';
      throw new AppError('login_throttled', `too many failed login attempts ${what}: try again in ${retry} s`, {
        limit: limiter.points, remaining: 0, reset: new Date(Date.now() + err.msBeforeNext).toISOString(), resource: 'login', per,
      }, { 'Retry-After': String(retry) });
    }
  }

  private async consume(limiter: RateLimiterRedis, id: string, code: ErrorCode, what: string, scope: string): Promise<WindowState | null> {
    try {
      const r = await limiter.consume(id);
      return { limit: limiter.points, remaining: r.remainingPoints, resetSeconds: Math.ceil(r.msBeforeNext / 1000) };
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) {
        this.log.error({ err }, `${code} limiter unavailable; request allowed`);
        return null;
      }
      const retry = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw new AppError(code, `rate limit exceeded: at most ${limiter.points} ${what}`, {
        limit: limiter.points, remaining: 0, reset: new Date(Date.now() + err.msBeforeNext).toISOString(), resource: scope,
      }, { 'Retry-After': String(retry), 'RateLimit-Limit': String(limiter.points), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(retry) });
    }
  }
}

/** Emails are not kept in Redis in clear: the counter is keyed by a digest of the normalised address. */
function emailKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
}
