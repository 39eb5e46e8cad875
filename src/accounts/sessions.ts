import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { unavailable } from '../errors.ts';
import { createLogger } from '../logger.ts';
import { REDIS_RETRY_AFTER_SECONDS, RedisHealth, RedisUnavailable } from '../redis.ts';

/** What a new dashboard session hands the browser: the cookie value, its CSRF token and lifetime. */
export interface NewSession {
  id: string;
  csrfToken: string;
  expiresIn: number;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Browser sessions of the dashboard, kept in Redis so that logging out ends them at once everywhere
 * (a JWT in a cookie would live on until it expires). Redis holds only the id's hash: a dump of it
 * opens no session. The CSRF token is an HMAC of the id, so it needs no storage and cannot be made
 * without the server's secret; a page learns it from the session's JSON, never from the cookie.
 */
export class SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly secret: string,
    private readonly ttlSeconds: number,
    private readonly health = new RedisHealth(createLogger('silent'), 1000),
  ) {}

  /** A Redis call; Redis away is a 503 (no session starts or is accepted: it fails closed), not a 500. */
  private async call<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await this.health.run('sessions', f);
    } catch (err) {
      if (!(err instanceof RedisUnavailable)) throw err;
      throw unavailable('dashboard sessions are unavailable just now; try again shortly', REDIS_RETRY_AFTER_SECONDS);
    }
  }

  private key(id: string): string {
    return `${this.prefix}:session:${createHash('sha256').update(id).digest('base64url')}`;
  }

  csrfToken(id: string): string {
    return createHmac('sha256', this.secret).update(`csrf:${id}`).digest('base64url');
  }

  checkCsrf(id: string, token: string): boolean {
    const want = Buffer.from(this.csrfToken(id));
    const got = Buffer.from(token);
    return got.length === want.length && timingSafeEqual(got, want);
  }

  async create(accountId: string): Promise<NewSession> {
    const id = randomBytes(32).toString('base64url');
    await this.call(() => this.redis.set(this.key(id), accountId, 'EX', this.ttlSeconds));
    return { id, csrfToken: this.csrfToken(id), expiresIn: this.ttlSeconds };
  }

  /** The account of a live session, or null (unknown, expired, logged out, or not an id at all). */
  async account(id: string): Promise<string | null> {
    if (!ID_PATTERN.test(id)) return null;
    return this.call(() => this.redis.get(this.key(id)));
  }

  /** Seconds the session has left (0 when gone). */
  async ttl(id: string): Promise<number> {
    if (!ID_PATTERN.test(id)) return 0;
    return Math.max(0, await this.call(() => this.redis.ttl(this.key(id))));
  }

  async end(id: string): Promise<void> {
    if (ID_PATTERN.test(id)) await this.call(() => this.redis.del(this.key(id)));
  }
}
