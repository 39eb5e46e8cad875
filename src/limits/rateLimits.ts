import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { AppError, type ErrorCode } from '../errors.ts';
import type { Logger } from '../logger.ts';

export interface LimitSettings {
  ipPerMinute: number;
  keyPerSecond: number;
  publicSearchPerHour: number;
  prefix: string;
}

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

  constructor(private readonly redis: Redis, private readonly s: LimitSettings, private readonly log: Logger) {
    const make = (name: string, points: number, duration: number) =>
      new RateLimiterRedis({ storeClient: redis, keyPrefix: `${s.prefix}:${name}`, points, duration });
    this.ip = make('ip', s.ipPerMinute, 60);
    this.key = make('key', s.keyPerSecond, 1);
    this.publicSearch = make('public', s.publicSearchPerHour, 3600);
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
