import type { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';
import { RedisHealth, RedisUnavailable } from '../redis.ts';

// A keyed request's admission in Redis: its IP window, its key window, one of its account's
// concurrent slots and, when asked, its default credit from the account's balance
// (src/limits/credits.ts). Every admission and every slot release asked for during one turn of the
// event loop goes to Redis in ONE script call: one write and one read for all of them. Round trips,
// not Redis's work, are what a request pays for on a small machine.
//
// Windows are fixed, starting at their first hit (INCR; the expiry is set by the hit that creates the
// counter). In-flight requests per account are a sorted set of
// request ids scored by start time; entries older than the slot TTL are dropped when the set looks
// full, so a crashed process cannot hold an account's slots for ever. Each API process also keeps a
// hash of the slots it holds (request id → account's set), its instance key: when the process dies,
// `npm start` frees them all at once (releaseInstance) instead of leaving the account short of slots
// until the TTL; the TTL remains for when the supervisor died too. Per admission the script
// returns {verdict, count, ttl_ms, balance, slots_used, ip_count}: verdict 0 admitted, 1 IP window full,
// 2 key window full, 3 no slot free; balance is what the credit balance holds after the credit was
// spent, -1 when it was not (none asked for, too few, or taken under another limit). Each call does the work of every admission
// and release of one turn of the event loop.
const ADMIT_MANY = `
local na = tonumber(ARGV[1])
local nr = tonumber(ARGV[2])
local ipLimit, ipWin = tonumber(ARGV[3]), tonumber(ARGV[4])
local keyLimit, keyWin = tonumber(ARGV[5]), tonumber(ARGV[6])
local now, slotTtl = tonumber(ARGV[7]), tonumber(ARGV[8])
local function hit(k, win)
  local n = redis.call('INCR', k)
  if n == 1 then
    redis.call('PEXPIRE', k, win)
    return n, win
  end
  local ttl = redis.call('PTTL', k)
  if ttl < 0 then redis.call('PEXPIRE', k, win); ttl = win end
  return n, ttl
end
local owner = KEYS[4 * na + nr + 1]
for j = 1, nr do
  local m = ARGV[8 + 4 * na + j]
  redis.call('ZREM', KEYS[4 * na + j], m)
  redis.call('HDEL', owner, m)
end
local held = false
local out = {}
for i = 0, na - 1 do
  local k, a = 4 * i, 8 + 4 * i
  local r
  local ipN, ipTtl = hit(KEYS[k + 1], ipWin)
  if ipN > ipLimit then
    r = {1, ipN, ipTtl, -1, 0, ipN}
  else
    local kN, keyTtl = hit(KEYS[k + 2], keyWin)
    if kN > keyLimit then
      r = {2, kN, keyTtl, -1, 0, ipN}
    else
      local slots, allowed = KEYS[k + 3], tonumber(ARGV[a + 1])
      local c = redis.call('ZCARD', slots)
      if c >= allowed then
        redis.call('ZREMRANGEBYSCORE', slots, '-inf', now - slotTtl)
        c = redis.call('ZCARD', slots)
      end
      if c >= allowed then
        r = {3, c, 0, -1, c, ipN}
      else
        redis.call('ZADD', slots, now, ARGV[a + 2])
        redis.call('PEXPIRE', slots, slotTtl)
        redis.call('HSET', owner, ARGV[a + 2], slots)
        held = true
        r = {0, kN, keyTtl, -1, c + 1, ipN}
        local units = tonumber(ARGV[a + 3])
        if units > 0 then
          local credits = KEYS[k + 4]
          local c2 = redis.call('HMGET', credits, 'l', 'b')
          if c2[1] == ARGV[a + 4] and tonumber(c2[2]) >= units then
            r[4] = redis.call('HINCRBY', credits, 'b', -units)
          end
        end
      end
    end
  end
  for x = 1, 6 do out[#out + 1] = r[x] end
end
if held then redis.call('PEXPIRE', owner, slotTtl) end
return out`;

// Slots held by requests still running, marked fresh (XX: a slot released meanwhile is not made again), so that
// a request longer than the slot TTL keeps its slot for as long as it lives.
const TOUCH = `
local now, ttl = ARGV[1], tonumber(ARGV[2])
for i = 1, #KEYS - 1 do
  redis.call('ZADD', KEYS[i], 'XX', now, ARGV[i + 2])
  redis.call('PEXPIRE', KEYS[i], ttl)
end
redis.call('PEXPIRE', KEYS[#KEYS], ttl)
return #KEYS - 1`;

// Every slot an instance holds, freed in one step; returns how many.
const RELEASE_INSTANCE = `
local held = redis.call('HGETALL', KEYS[1])
for i = 1, #held, 2 do redis.call('ZREM', held[i + 1], held[i]) end
redis.call('DEL', KEYS[1])
return #held / 2`;

/** The Redis hash of the slots one API process (its INSTANCE_ID) holds. */
export const instanceKey = (prefix: string, instance: string) => `${prefix}:instance:${instance}`;

/**
 * Frees every concurrency slot an API process held: for `npm start`, when one of its API processes has
 * died (its requests ended with it, but it could not say so). Resolves to how many were freed.
 */
export async function releaseInstance(redis: Redis, prefix: string, instance: string): Promise<number> {
  return Number(await redis.eval(RELEASE_INSTANCE, 1, instanceKey(prefix, instance)));
}

export type Verdict = [verdict: number, count: number, ttlMs: number, balance: number, slotsUsed: number, ipCount: number];
const STRIDE = 6;

export interface AdmissionRequest {
  ipKey: string;
  keyKey: string;
  slotsKey: string;
  creditsKey: string;
  slots: number;
  member: string;
  units: number;
  creditLimit: string;
}

export interface WindowSettings {
  ipLimit: number;
  ipWindowMs: number;
  keyLimit: number;
  keyWindowMs: number;
  slotTtlMs: number;
}

interface Pending {
  req: AdmissionRequest;
  resolve: (v: Verdict | null) => void;
}

type AdmitMany = (numKeys: number, ...args: (string | number)[]) => Promise<number[]>;

export class AdmissionBatcher {
  private queue: Pending[] = [];
  private releases: [string, string][] = [];
  private scheduled = false;
  /** Slots this process holds for requests still running: member → the account's set. */
  private readonly held = new Map<string, string>();
  private beat: NodeJS.Timeout | undefined;

  /** `owner`: this process's instance key (instanceKey()), where the slots it holds are listed. */
  constructor(
    private readonly redis: Redis,
    private readonly w: WindowSettings,
    private readonly log: Logger,
    private readonly owner: string,
    private readonly health = new RedisHealth(log, 1000),
    /** What slot times are read from (tests move it instead of waiting out a TTL). */
    private readonly now: () => number = Date.now,
  ) {
    redis.defineCommand('nishaanAdmitMany', { lua: ADMIT_MANY });
    redis.defineCommand('nishaanTouchSlots', { lua: TOUCH });
  }

  /**
   * Marks every slot this process holds fresh. A slot left by a process that died is taken over once it is
   * older than the TTL; a request that lives longer than that (a slow upload, a bulk search) must not lose
   * its slot while it runs, so every third of the TTL its time is renewed. Resolves to how many were touched.
   */
  async heartbeat(): Promise<number> {
    if (!this.held.size) return 0;
    const members = [...this.held];
    const keys = [...members.map(([, slots]) => slots), this.owner];
    const args = [this.now(), this.w.slotTtlMs, ...members.map(([m]) => m)];
    const touch = (this.redis as unknown as { nishaanTouchSlots: AdmitMany }).nishaanTouchSlots.bind(this.redis);
    try {
      return Number(await this.health.run('rate limits', () => touch(keys.length, ...keys, ...args)));
    } catch (err) {
      // A slot not renewed now is renewed next time, or expires: it is only a limit.
      if (!(err instanceof RedisUnavailable)) this.log.error({ err }, 'renewing concurrency slots failed');
      return 0;
    }
  }

  private hold(member: string, slots: string): void {
    this.held.set(member, slots);
    this.beat ??= setInterval(() => void this.heartbeat(), Math.max(50, Math.floor(this.w.slotTtlMs / 3))).unref();
  }

  /** Resolves to the verdict, or null when Redis could not be asked (the caller lets the request through). */
  admit(req: AdmissionRequest): Promise<Verdict | null> {
    return new Promise((resolve) => {
      this.queue.push({ req, resolve });
      this.schedule();
    });
  }

  /** Frees a slot; sent with the next batch. */
  release(slotsKey: string, member: string): void {
    this.held.delete(member);
    if (!this.held.size && this.beat) {
      clearInterval(this.beat);
      this.beat = undefined;
    }
    this.releases.push([slotsKey, member]);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // After the poll phase: every request whose bytes arrived in this turn is in the batch.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue;
    const releases = this.releases;
    this.queue = [];
    this.releases = [];
    const keys: string[] = [];
    const args: (string | number)[] = [
      batch.length,
      releases.length,
      this.w.ipLimit,
      this.w.ipWindowMs,
      this.w.keyLimit,
      this.w.keyWindowMs,
      this.now(),
      this.w.slotTtlMs,
    ];
    for (const { req } of batch) {
      keys.push(req.ipKey, req.keyKey, req.slotsKey, req.creditsKey);
      args.push(req.slots, req.member, req.units, req.creditLimit);
    }
    for (const [k, member] of releases) {
      keys.push(k);
      args.push(member);
    }
    keys.push(this.owner);
    try {
      const admitMany = (this.redis as unknown as { nishaanAdmitMany: AdmitMany }).nishaanAdmitMany.bind(this.redis);
      const out = await this.health.run('rate limits', () => admitMany(keys.length, ...keys, ...args));
      batch.forEach((p, i) => {
        const v = out.slice(STRIDE * i, STRIDE * i + STRIDE) as Verdict;
        if (v[0] === 0) this.hold(p.req.member, p.req.slotsKey);
        p.resolve(v);
      });
    } catch (err) {
      // Rate limits fail open (quotas, which carry the money, still apply through PostgreSQL); unsent releases
      // expire with the slot TTL. Redis away is said once per outage (RedisHealth); anything else is a fault.
      if (!(err instanceof RedisUnavailable)) this.log.error({ err }, 'rate limiters failed; requests allowed');
      for (const p of batch) p.resolve(null);
    }
  }
}
