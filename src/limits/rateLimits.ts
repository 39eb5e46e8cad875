import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, type ErrorCode, unavailable } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { REDIS_RETRY_AFTER_SECONDS, RedisHealth, RedisUnavailable } from '../redis.ts';
import { AdmissionBatcher, instanceKey } from './admission.ts';

export interface LimitSettings {
  ipPerMinute: number;
  keyPerSecond: number;
  publicSearchPerHour: number;
  prefix: string;
  /** This API process's INSTANCE_ID, under which the concurrency slots it holds are listed (a random one when left out). */
  instance?: string;
  /** Login throttling; any setting left out takes its value from LOGIN_THROTTLE_DEFAULTS. */
  login?: Partial<LoginThrottleSettings>;
}

/**
 * Failed logins per client address, per email and per pair of the two within a window: past `*SlowAfter`
 * attempts each further one waits `delayStepMs` more (at most `maxDelayMs`); past `*Max` they are refused
 * with 429. The pair's limit is the one a guesser meets first; the email's own is far higher, so that a
 * stranger's guesses from one address do not lock the owner out everywhere (they need `emailMax / pairMax`
 * addresses to), and the address's stops one address guessing across many emails.
 */
export interface LoginThrottleSettings {
  windowSeconds: number;
  pairSlowAfter: number;
  pairMax: number;
  emailSlowAfter: number;
  emailMax: number;
  ipSlowAfter: number;
  ipMax: number;
  delayStepMs: number;
  maxDelayMs: number;
}

export const LOGIN_THROTTLE_DEFAULTS: LoginThrottleSettings = {
  windowSeconds: 15 * 60,
  pairSlowAfter: 5,
  pairMax: 10,
  emailSlowAfter: 20,
  emailMax: 100,
  ipSlowAfter: 20,
  ipMax: 50,
  delayStepMs: 250,
  maxDelayMs: 2000,
};

/** A login attempt, counted before its password is checked; what the check found settles it. */
export interface LoginAttempt {
  /** How long to wait before answering (0 until a slow-down threshold). */
  delayMs: number;
  /** The password was right: the email's and the pair's failures are forgotten (the address's stay). */
  succeeded(): Promise<void>;
  /** The check could not be made (PostgreSQL away): no failed login, so the attempt is given back. */
  abandoned(): Promise<void>;
}

export interface WindowState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

// The IP window alone, for requests that are not keyed (keyed ones are admitted by
// src/limits/admission.ts, which checks the same window). Returns {verdict, count, ttl_ms}: 0 ok, 1 full.
const IP_ONLY = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
if n > tonumber(ARGV[1]) then return {1, n, ttl} end
return {0, n, ttl}`;
const INFLIGHT_TTL_MS = 60_000;
const IP_WINDOW_MS = 60_000;
const KEY_WINDOW_MS = 1_000;

interface Scripts {
  nishaanIp(ipKey: string, limit: number, windowMs: number): Promise<[number, number, number]>;
}

/** A default credit to spend during admission: the balance's key, the units and the limit in force. */
export interface AdmissionCredit {
  key: string;
  units: number;
  limit: number;
}

export interface Admission {
  window: WindowState | null;
  release: () => void;
  /** Whether the credit was spent (false: the balance was short, or Redis unavailable). */
  charged: boolean;
  /** The credit balance after the charge (when charged): a low one is topped up in the background. */
  balance: number;
  /** Headroom left after this request, for deciding whether the next may start early (src/limits/earlyStart.ts). */
  headroom: Headroom | null;
}

export interface Headroom {
  key: number;
  ip: number;
  slots: number;
}

/**
 * Every counter-based limit, kept in Redis so all API processes enforce one limit. If Redis is away,
 * rate limits let the request through (RedisHealth says so once per outage): monthly quotas, which carry
 * the money, live in PostgreSQL and still apply. The login throttle is the exception: it guards passwords,
 * so without Redis a login is refused with 503 rather than let through unthrottled.
 */
export class RateLimits {
  private readonly publicSearch: RateLimiterRedis;
  private readonly loginPair: RateLimiterRedis;
  private readonly loginEmail: RateLimiterRedis;
  private readonly loginIp: RateLimiterRedis;
  readonly login: LoginThrottleSettings;

  constructor(
    private readonly redis: Redis,
    private readonly s: LimitSettings,
    private readonly log: Logger,
    private readonly health = new RedisHealth(log, 1000),
  ) {
    const make = (name: string, points: number, duration: number) =>
      new RateLimiterRedis({ storeClient: redis, keyPrefix: `${s.prefix}:${name}`, points, duration });
    this.publicSearch = make('public', s.publicSearchPerHour, 3600);
    this.login = { ...LOGIN_THROTTLE_DEFAULTS, ...s.login };
    this.loginPair = make('login:pair', this.login.pairMax, this.login.windowSeconds);
    this.loginEmail = make('login:email', this.login.emailMax, this.login.windowSeconds);
    this.loginIp = make('login:ip', this.login.ipMax, this.login.windowSeconds);
    redis.defineCommand('nishaanIp', { numberOfKeys: 1, lua: IP_ONLY });
    this.admissions = new AdmissionBatcher(
      redis,
      {
        ipLimit: s.ipPerMinute,
        ipWindowMs: IP_WINDOW_MS,
        keyLimit: s.keyPerSecond,
        keyWindowMs: KEY_WINDOW_MS,
        slotTtlMs: INFLIGHT_TTL_MS,
      },
      log,
      instanceKey(s.prefix, s.instance ?? randomBytes(6).toString('hex')),
      health,
    );
  }

  private readonly admissions: AdmissionBatcher;

  private get scripts(): Scripts {
    return this.redis as unknown as Scripts;
  }

  /** 200 per minute per client address, on every endpoint that does not go through admit(). */
  async checkIp(ip: string): Promise<void> {
    let v: [number, number, number];
    try {
      v = await this.health.run('rate limits', () => this.scripts.nishaanIp(`${this.s.prefix}:ip:${ip}`, this.s.ipPerMinute, IP_WINDOW_MS));
    } catch (err) {
      if (!(err instanceof RedisUnavailable)) this.log.error({ err }, 'IP limiter failed; request allowed');
      return;
    }
    if (v[0] === 1) throw this.windowError('ip_rate_limited', this.s.ipPerMinute, v[2], 'requests per minute from one IP address', 'ip');
  }

  /**
   * A keyed request's admission: its IP window (200/min), its key window (10/s), one of the plan's
   * concurrent slots and, when asked, its default credit, in one round trip. Resolves to the key
   * window (for RateLimit-* headers), the slot's release function and whether the credit was spent.
   */
  async admit(
    ip: string,
    keyId: string,
    accountId: string,
    slots: number,
    requestId: string,
    credit?: AdmissionCredit,
  ): Promise<Admission> {
    const slotsKey = `${this.s.prefix}:inflight:${accountId}`;
    const member = `${requestId}:${Math.random().toString(36).slice(2)}`;
    const v = await this.admissions.admit({
      ipKey: `${this.s.prefix}:ip:${ip}`,
      keyKey: `${this.s.prefix}:key:${keyId}`,
      slotsKey,
      creditsKey: credit?.key ?? `${this.s.prefix}:credits:none`,
      slots,
      member,
      units: credit?.units ?? 0,
      creditLimit: String(credit?.limit ?? 0),
    });
    if (!v) return { window: null, release: () => {}, charged: false, balance: 0, headroom: null };
    const [verdict, count, ttl, balance, slotsUsed, ipCount] = v;
    if (verdict === 1) throw this.windowError('ip_rate_limited', this.s.ipPerMinute, ttl, 'requests per minute from one IP address', 'ip');
    if (verdict === 2) throw this.windowError('key_rate_limited', this.s.keyPerSecond, ttl, 'requests per second for one API key', 'key');
    if (verdict === 3) {
      throw new AppError(
        'concurrency_limited',
        `too many requests in flight: your plan allows ${slots} at a time`,
        { limit: slots, remaining: 0, resource: 'concurrent_requests', reset: null },
        { 'Retry-After': '1' },
      );
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.admissions.release(slotsKey, member);
    };
    return {
      window: { limit: this.s.keyPerSecond, remaining: Math.max(0, this.s.keyPerSecond - count), resetSeconds: Math.ceil(ttl / 1000) },
      release,
      charged: balance >= 0,
      balance,
      headroom: { key: this.s.keyPerSecond - count, ip: this.s.ipPerMinute - ipCount, slots: slots - slotsUsed },
    };
  }

  private windowError(code: ErrorCode, limit: number, ttlMs: number, what: string, scope: string): AppError {
    const retry = Math.max(1, Math.ceil(ttlMs / 1000));
    return new AppError(
      code,
      `rate limit exceeded: at most ${limit} ${what}`,
      {
        limit,
        remaining: 0,
        reset: new Date(Date.now() + ttlMs).toISOString(),
        resource: scope,
      },
      { 'Retry-After': String(retry), 'RateLimit-Limit': String(limit), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(retry) },
    );
  }

  /** 60 free searches per hour per client address. */
  checkPublicSearch(ip: string): Promise<WindowState | null> {
    return this.consume(this.publicSearch, ip, 'public_search_limited', 'public searches per hour from one IP address', 'ip');
  }

  /**
   * Counts a login attempt against the address, the pair and the email before the password is checked, so a
   * burst of parallel guesses is counted too. Refuses with 429 `login_throttled` past a maximum; otherwise
   * resolves to the delay and how to settle the attempt once checked: a right password forgets the email's
   * and the pair's failures, a check that could not be made gives the attempt back, a wrong one keeps it.
   * Without Redis there is no throttle, and an unthrottled password check is a gift to a guesser: 503.
   */
  async loginAttempt(email: string, ip: string): Promise<LoginAttempt> {
    const l = this.login;
    const ids = { ip, pair: `${emailKey(email)}:${ip}`, email: emailKey(email) };
    try {
      const byIp = await this.loginConsume(this.loginIp, ids.ip, 'ip');
      const byPair = await this.loginConsume(this.loginPair, ids.pair, 'pair');
      const byEmail = await this.loginConsume(this.loginEmail, ids.email, 'email');
      const over = Math.max(byPair - l.pairSlowAfter, byEmail - l.emailSlowAfter, byIp - l.ipSlowAfter, 0);
      return {
        delayMs: Math.min(l.maxDelayMs, over * l.delayStepMs),
        succeeded: () =>
          this.settle('login throttle reset', [() => this.loginPair.delete(ids.pair), () => this.loginEmail.delete(ids.email)]),
        abandoned: () =>
          this.settle('login throttle refund', [
            () => this.loginIp.reward(ids.ip, 1),
            () => this.loginPair.reward(ids.pair, 1),
            () => this.loginEmail.reward(ids.email, 1),
          ]),
      };
    } catch (err) {
      if (!(err instanceof RedisUnavailable)) throw err;
      throw unavailable(
        'logging in is unavailable just now (its attempt limits cannot be kept); try again shortly, API keys still work',
        REDIS_RETRY_AFTER_SECONDS,
      );
    }
  }

  /** Redis calls after a login's check, at best effort: a failure only leaves a count to expire with its window. */
  private async settle(what: string, calls: (() => Promise<unknown>)[]): Promise<void> {
    for (const call of calls) {
      try {
        await this.health.run('login throttle', call);
      } catch (err) {
        if (!(err instanceof RedisUnavailable)) this.log.error({ err }, `${what} failed`);
        return;
      }
    }
  }

  private async loginConsume(limiter: RateLimiterRedis, id: string, per: 'pair' | 'email' | 'ip'): Promise<number> {
    try {
      return (await this.health.run('login throttle', () => limiter.consume(id))).consumedPoints;
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const retry = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      const what = { pair: 'for this account from your address', email: 'for this account', ip: 'from your address' }[per];
      throw new AppError(
        'login_throttled',
        `too many failed login attempts ${what}: try again in ${retry} s`,
        {
          limit: limiter.points,
          remaining: 0,
          reset: new Date(Date.now() + err.msBeforeNext).toISOString(),
          resource: 'login',
          per,
        },
        { 'Retry-After': String(retry) },
      );
    }
  }

  private async consume(limiter: RateLimiterRedis, id: string, code: ErrorCode, what: string, scope: string): Promise<WindowState | null> {
    try {
      const r = await this.health.run('rate limits', () => limiter.consume(id));
      return { limit: limiter.points, remaining: r.remainingPoints, resetSeconds: Math.ceil(r.msBeforeNext / 1000) };
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) {
        if (!(err instanceof RedisUnavailable)) this.log.error({ err }, `${code} limiter failed; request allowed`);
        return null;
      }
      const retry = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw new AppError(
        code,
        `rate limit exceeded: at most ${limiter.points} ${what}`,
        {
          limit: limiter.points,
          remaining: 0,
          reset: new Date(Date.now() + err.msBeforeNext).toISOString(),
          resource: scope,
        },
        {
          'Retry-After': String(retry),
          'RateLimit-Limit': String(limiter.points),
          'RateLimit-Remaining': '0',
          'RateLimit-Reset': String(retry),
        },
      );
    }
  }
}

/** Emails are not kept in Redis in clear: the counter is keyed by a digest of the normalised address. */
function emailKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
}
