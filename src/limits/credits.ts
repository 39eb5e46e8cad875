import type { Redis } from 'ioredis';
import type { Resource } from '../accounts/callerRepository.ts';
import { RESOURCES } from '../accounts/callerRepository.ts';
import { unavailable } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { neverSent, REDIS_RETRY_AFTER_SECONDS, RedisHealth, RedisUnavailable } from '../redis.ts';
import { monthOf, type QuotaRepository } from './quotaRepository.ts';

/**
 * Monthly credits, spent without a database write per request.
 *
 * PostgreSQL stays the ledger that cannot over-grant: `usage_counters.used` counts every credit put
 * into circulation, and nishaan_take_credits never puts more in than the plan's limit. Credits in
 * circulation sit in one Redis hash per (account, month, resource) that every API process spends
 * from atomically: `b` the balance, `l` the limit it was taken under. Blocks are small (at most
 * BLOCK_MAX, 1 % of the limit, an eighth of what remains), so near the limit credits move one request
 * at a time and a burst stops exactly at the quota.
 *
 * Use = `used` in PostgreSQL minus the balance. A balance taken under another limit (the plan
 * changed) is not spent: it goes back to PostgreSQL and a block is taken under the new limit.
 * Redis keeps nothing on disk: if it restarts, the balances in it (at most one block per account and
 * resource) are lost and stay counted as used. While Redis is unreachable, each request is charged
 * in PostgreSQL directly.
 */
export const BLOCK_MAX = 64;
// Balances outlive their month by a little, for refunds of requests that straddle midnight UTC
// and for sweep() to give them back.
const BALANCE_TTL_MS = 40 * 86400_000;

export function blockSize(limit: number): number {
  return Math.max(1, Math.min(BLOCK_MAX, Math.ceil(limit / 100)));
}

// -1: no usable balance (none, or taken under another limit); 0: too few credits; 1: spent.
const SPEND = `
if redis.call('HGET', KEYS[1], 'l') ~= ARGV[2] then return -1 end
if tonumber(redis.call('HGET', KEYS[1], 'b')) < tonumber(ARGV[1]) then return 0 end
redis.call('HINCRBY', KEYS[1], 'b', -tonumber(ARGV[1]))
return 1`;
// Adds a block taken under limit ARGV[2]; a balance under another limit is replaced, and returned
// so the caller gives it back to PostgreSQL.
const CREDIT = `
local l = redis.call('HGET', KEYS[1], 'l')
local back = 0
if l and l ~= ARGV[2] then
  back = tonumber(redis.call('HGET', KEYS[1], 'b') or '0')
  redis.call('DEL', KEYS[1])
end
redis.call('HINCRBY', KEYS[1], 'b', ARGV[1])
redis.call('HSET', KEYS[1], 'l', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return back`;
const REFUND = `
if redis.call('HGET', KEYS[1], 'l') ~= ARGV[2] then return 0 end
redis.call('HINCRBY', KEYS[1], 'b', ARGV[1])
return 1`;
// Empties a balance and returns what it held, for PostgreSQL to take back; with ARGV[1], only a
// balance taken under a limit other than ARGV[1].
const RECLAIM = `
local l = redis.call('HGET', KEYS[1], 'l')
if not l or (ARGV[1] and l == ARGV[1]) then return 0 end
local b = redis.call('HGET', KEYS[1], 'b')
redis.call('DEL', KEYS[1])
return tonumber(b or '0')`;

interface Scripts {
  nishaanSpend(key: string, units: number, limit: string): Promise<number>;
  nishaanCredit(key: string, units: number, limit: string, ttlMs: number): Promise<number>;
  nishaanRefund(key: string, units: number, limit: string): Promise<number>;
  nishaanReclaim(key: string, unlessLimit?: string): Promise<number>;
}

/** Where a charge's credits came from, so a refund goes back to the same place and month. */
export interface Charge {
  accountId: string;
  resource: Resource;
  units: number;
  month: string;
  limit: number;
  via: 'redis' | 'postgres';
}

export class CreditLedger {
  constructor(
    private readonly redis: Redis,
    private readonly quotas: QuotaRepository,
    private readonly prefix: string,
    private readonly log: Logger,
    private readonly health = new RedisHealth(log, 1000),
  ) {
    redis.defineCommand('nishaanSpend', { numberOfKeys: 1, lua: SPEND });
    redis.defineCommand('nishaanCredit', { numberOfKeys: 1, lua: CREDIT });
    redis.defineCommand('nishaanRefund', { numberOfKeys: 1, lua: REFUND });
    redis.defineCommand('nishaanReclaim', { numberOfKeys: 1, lua: RECLAIM });
  }

  private get scripts(): Scripts {
    return this.redis as unknown as Scripts;
  }

  /** A balance's Redis call: RedisUnavailable when Redis is away, and the caller falls back to PostgreSQL. */
  private redisCall<T>(p: () => Promise<T>): Promise<T> {
    return this.health.run('credits', p);
  }

  key(accountId: string, month: string, resource: Resource): string {
    return `${this.prefix}:credits:${accountId}:${month}:${resource}`;
  }

  /**
   * Takes `units` credits of `resource` for this month: the Redis balance first, topped up from
   * PostgreSQL when short. Null when fewer than `units` remain (nothing is taken then).
   */
  async take(accountId: string, resource: Resource, units: number, limit: number): Promise<Charge | null> {
    const month = monthOf(new Date());
    const charge: Charge = { accountId, resource, units, month, limit, via: 'redis' };
    const key = this.key(accountId, month, resource);
    const l = String(limit);
    try {
      // A few rounds at most: each either spends, or moves credits in, or finds none left.
      for (let round = 0; round < 8; round++) {
        const spent = await this.redisCall(() => this.scripts.nishaanSpend(key, units, l));
        if (spent === 1) return charge;
        if (spent === -1) await this.reclaim(key, accountId, resource, month, l);
        if (!(await this.topUp(accountId, resource, units, limit, month))) {
          // None left to move; another request may just have added some to the balance.
          if ((await this.redisCall(() => this.scripts.nishaanSpend(key, units, l))) === 1) return charge;
          // A concurrent top-up takes its block from PostgreSQL before the block reaches the balance:
          // this request may have looked between the two. Go round again while what is unspent covers
          // it, rather than refuse a request that "needs 1, 1 left".
          if (limit - (await this.used(accountId, resource)) < units) return null;
        }
      }
      return null;
    } catch (err) {
      // Redis away is said once per outage (RedisHealth); each charge meanwhile is made in PostgreSQL.
      if (!(err instanceof RedisUnavailable)) throw err;
      const used = await this.quotas.reserve(accountId, resource, units, limit, month);
      return used === null ? null : { ...charge, via: 'postgres' };
    }
  }

  // Background top-ups in flight in this process, by balance key: one at a time per balance.
  private readonly keepingUp = new Map<string, Promise<void>>();

  /**
   * After a charge that left `balance` in the account's balance: when that is under half a block,
   * moves the next block in now, in the background, so under load the balance does not run dry and
   * requests do not wait for PostgreSQL. (A request that finds it dry moves a block itself: take().)
   * Resolves when the top-up under way for this balance (this one, or one already running) has ended.
   */
  keepUp(accountId: string, resource: Resource, limit: number, balance: number): Promise<void> {
    if (balance * 2 >= blockSize(limit)) return Promise.resolve();
    const month = monthOf(new Date());
    const key = this.key(accountId, month, resource);
    const running = this.keepingUp.get(key);
    if (running) return running;
    const p = this.topUp(accountId, resource, 0, limit, month).then(
      () => undefined,
      (err) => {
        if (!(err instanceof RedisUnavailable)) this.log.error({ err }, 'credit top-up failed');
      },
    );
    this.keepingUp.set(key, p);
    void p.finally(() => this.keepingUp.delete(key));
    return p;
  }

  /** Moves a block of credits (at least `units` when that many remain) from PostgreSQL into the Redis balance; false when none remain. */
  async topUp(accountId: string, resource: Resource, units: number, limit: number, month = monthOf(new Date())): Promise<boolean> {
    const moved = await this.quotas.take(accountId, month, resource, units, blockSize(limit), limit);
    if (moved === 0) return false;
    let back: number;
    try {
      back = await this.redisCall(() =>
        this.scripts.nishaanCredit(this.key(accountId, month, resource), moved, String(limit), BALANCE_TTL_MS),
      );
    } catch (err) {
      // A call never sent (Redis known away, or the connection not writeable) certainly did not add the block: it goes
      // back. One sent whose answer was lost may have: the block stays counted and unspent, since giving it back when
      // Redis applied it would over-grant (docs/outages.md).
      if (neverSent(err)) await this.quotas.refund(accountId, resource, moved, month);
      throw err;
    }
    if (back > 0) await this.quotas.refund(accountId, resource, back, month);
    return true;
  }

  /** Empties a balance (one taken under a limit other than `unlessLimit`) back into PostgreSQL. */
  private async reclaim(key: string, accountId: string, resource: Resource, month: string, unlessLimit?: string): Promise<number> {
    const back = await this.redisCall(() =>
      unlessLimit === undefined ? this.scripts.nishaanReclaim(key) : this.scripts.nishaanReclaim(key, unlessLimit),
    );
    if (back > 0) await this.quotas.refund(accountId, resource, back, month);
    return back;
  }

  /** Gives a failed request's credits back where they came from: errors cost nothing. */
  async refund(c: Charge): Promise<void> {
    if (c.via === 'redis') {
      try {
        if (
          (await this.redisCall(() => this.scripts.nishaanRefund(this.key(c.accountId, c.month, c.resource), c.units, String(c.limit)))) ===
          1
        )
          return;
      } catch (err) {
        if (!(err instanceof RedisUnavailable)) throw err;
      }
    }
    await this.quotas.refund(c.accountId, c.resource, c.units, c.month);
  }

  /**
   * This month's use per resource: credits put into circulation less those still in the balance. Without
   * Redis the balances cannot be read, and PostgreSQL's count alone would show unspent credits as used: 503.
   */
  async usage(accountId: string): Promise<{ month: string; used: Record<Resource, number> }> {
    const { month, counted, balances } = await this.read(accountId);
    if (!balances) throw unavailable('usage cannot be counted just now; try again shortly', REDIS_RETRY_AFTER_SECONDS);
    return { month: month.slice(0, 7), used: this.spent(counted, balances) };
  }

  /** This month's use of one resource; without Redis, every credit put into circulation counts as used. */
  async used(accountId: string, resource: Resource): Promise<number> {
    const { counted, balances } = await this.read(accountId);
    return this.spent(counted, balances ?? RESOURCES.map(() => 0))[resource];
  }

  /** This month's credits put into circulation (PostgreSQL) and still in the balances (Redis; null without it). */
  private async read(accountId: string) {
    const month = monthOf(new Date());
    const [counted, balances] = await Promise.all([this.quotas.usage(accountId, month), this.balances(accountId, month)]);
    return { month, counted, balances };
  }

  /** What each resource's balance holds (in RESOURCES order), or null when Redis cannot be asked. */
  private async balances(accountId: string, month: string): Promise<number[] | null> {
    try {
      return await this.health.run('usage', async () => {
        const out = await this.redis.pipeline(RESOURCES.map((r) => ['hget', this.key(accountId, month, r), 'b'])).exec();
        const failed = out?.find(([err]) => err)?.[0];
        if (failed) throw failed;
        return RESOURCES.map((_, i) => Number(out?.[i]?.[1] ?? 0));
      });
    } catch (err) {
      if (err instanceof RedisUnavailable) return null;
      throw err;
    }
  }

  private spent(counted: Partial<Record<Resource, number>>, balances: number[]): Record<Resource, number> {
    const used = {} as Record<Resource, number>;
    RESOURCES.forEach((r, i) => {
      used[r] = Math.max(0, Number(counted[r] ?? 0) - balances[i]!);
    });
    return used;
  }

  /**
   * Gives the balances of months before the current one back to PostgreSQL, so a past month's
   * `used` counts only what was spent. Run now and then by the workers process.
   */
  async sweep(): Promise<number> {
    const current = monthOf(new Date());
    let swept = 0;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}:credits:*`, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const [accountId, month, resource] = key.slice(this.prefix.length + ':credits:'.length).split(':');
        if (!month || month >= current) continue;
        swept += await this.reclaim(key, accountId, resource as Resource, month);
      }
    } while (cursor !== '0');
    return swept;
  }
}
