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

// In-flight requests per account as a sorted set of request ids scored by start time; entries older
// than the TTL are dropped, so a crashed process cannot hold an account's slots for ever.
const ENTER = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[3]) then return -1 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n + 1`;
const INFLIGHT_TTL_MS = 60_000;

/**
 * Every counter-based limit, kept in Redis so all API processes enforce one limit. If Redis fails,
 * rate limits let the request through (and log): monthly quotas, which carry the money, live in
 * PostgreSQL and still apply.
 */
export class RateLimits {
  private readonly ip: RateLimiterRedis;
  private readonly key: RateLimiterRedis;
  private readonly publicSearch: RateLimiterRedis;
  private readonly loginEmail: RateLimiterRedis;
  private readonly loginIp: RateLimiterRedis;
  readonly login: LoginThrottleSettings;

  constructor(private readonly redis: Redis, private readonly s: LimitSettings, private readonly log: Logger) {
    const make = (name: string, points: number, duration: number) =>
      new RateLimiterRedis({ storeClient: redis, keyPrefix: `${s.prefix}:${name}`, points, duration });
    this.ip = make('ip', s.ipPerMinute, 60);
    this.key = make('key', s.keyPerSecond, 1);
    this.publicSearch = make('public', s.publicSearchPerHour, 3600);
    this.login = { ...LOGIN_THROTTLE_DEFAULTS, ...s.login };
    this.loginEmail = make('login:email', this.login.emailMax, this.login.windowSeconds);
    this.loginIp = make('login:ip', this.login.ipMax, this.login.windowSeconds);
    redis.defineCommand('nishaanEnter', { numberOfKeys: 1, lua: ENTER });
  }

  /** 200 per minute per client address, on every endpoint. */
  checkIp(ip: string): Promise<WindowState | null> {
    return this.consume(this.ip, ip, 'ip_rate_limited', 'requests per minute from one IP address', 'ip');
  }

  /** 10 per second per API key. */
  checkKey(keyId: string): Promise<WindowState | null> {
    return this.consume(this.key, keyId, 'key_rate_limited', 'requests per second for one API key', 'key');
  }

  /** 60 free searches per hour per client address. */
  checkPublicSearch(ip: string): Promise<WindowState | null> {
    return this.consume(this.publicSearch, ip, 'public_search_limited', 'public searches per hour from one IP address', 'ip');
  }

  /**
   * Counts a login attempt against the email and the client address before the password is checked,
   * so a burst of parallel guesses is counted too. Refuses with 429 `login_throttled` past the maximum;
   * otherwise resolves to how long to wait before answering (0 until the slow-down threshold).
   * A successful login hands the attempt back (loginSucceeded), so only failures accumulate.
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

  /** After a successful login: the email's failures are forgotten and the address gets its attempt back. */
  async loginSucceeded(email: string, ip: string): Promise<void> {
    try {
      await Promise.all([this.loginEmail.delete(emailKey(email)), this.loginIp.reward(ip, 1)]);
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

  /** Takes one of the plan's concurrent slots; resolves to the release function. */
  async enter(accountId: string, limit: number, requestId: string): Promise<() => void> {
    const key = `${this.s.prefix}:inflight:${accountId}`;
    const member = `${requestId}:${Math.random().toString(36).slice(2)}`;
    let n: number;
    try {
      n = await (this.redis as unknown as { nishaanEnter(k: string, now: number, ttl: number, limit: number, m: string): Promise<number> })
        .nishaanEnter(key, Date.now(), INFLIGHT_TTL_MS, limit, member);
    } catch (err) {
      this.log.error({ err }, 'concurrency limiter unavailable; request allowed');
      return () => {};
    }
    if (n < 0) {
      throw new AppError('concurrency_limited', `too many requests in flight: your plan allows ${limit} at a time`,
        { limit, remaining: 0, resource: 'concurrent_requests', reset: null }, { 'Retry-After': '1' });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.redis.zrem(key, member).catch((err) => this.log.error({ err }, 'concurrency release failed'));
    };
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
