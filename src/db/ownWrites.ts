import { AsyncLocalStorage } from 'node:async_hooks';
import type { Redis } from 'ioredis';
import type { RedisHealth } from '../redis.ts';
import type { Db } from './knex.ts';

// Read-your-writes across read replicas (docs/deploy.md, "Read replicas"; issue 45, item 4). After a caller writes,
// its reads may go only to a replica that has replayed the primary's WAL past that write: the primary's WAL position
// after the write is kept in Redis per account (every node sees it), and each request of that account carries it
// while it runs (AsyncLocalStorage), where src/db/replicas.ts reads it. Nothing of this runs without replicas.

/** What a request's reads must see: the WAL position of its caller's last write, or 'primary' when unknown. */
export type SeenAfter = bigint | 'primary';

const scope = new AsyncLocalStorage<SeenAfter>();

/** The position the reads of the request running now must have been replayed past; undefined when unconstrained. */
export function seenAfter(): SeenAfter | undefined {
  return scope.getStore();
}

/** A pg_lsn's text ("16/B374D848") as a number that orders as the WAL does. */
export function lsnValue(text: string): bigint {
  const [hi, lo] = text.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/**
 * The primary's WAL position now: its insert position, not its write position, since with synchronous_commit off a
 * commit is answered before its WAL is written. Past every commit answered so far.
 */
export async function walPosition(primary: Db): Promise<bigint> {
  const { lsn } = (await primary.raw('select pg_current_wal_insert_lsn()::text as lsn')).rows[0] as { lsn: string };
  return lsnValue(lsn);
}

export class OwnWrites {
  constructor(
    private readonly primary: Db,
    private readonly redis: Redis,
    private readonly health: RedisHealth,
    private readonly prefix: string,
    /** False without replicas: every read is on the primary, and there is nothing to keep. */
    readonly enabled: boolean,
    /** How long a write's position is kept: past the longest a replica in rotation may lag. */
    private readonly keepSeconds: number,
  ) {}

  private key(accountId: string): string {
    return `${this.prefix}:wrote:${accountId}`;
  }

  /**
   * Runs a request of `accountId` with its reads kept off replicas that have not replayed its last write. With Redis
   * away the last write is unknown, and the reads go to the primary.
   */
  async around<T>(accountId: string | undefined, f: () => Promise<T>): Promise<T> {
    if (!this.enabled || !accountId) return f();
    const last = await this.health
      .run('own writes', () => this.redis.get(this.key(accountId)))
      .then(
        (v) => (v ? BigInt(v) : null),
        () => 'primary' as const,
      );
    return last === null ? f() : scope.run(last, f);
  }

  /**
   * Notes that `accountId` has just written: the primary's WAL position now, past its commit. Called before the answer
   * is sent, so that the caller's next request, on any node, knows it. Best effort: a write that succeeded is not
   * failed for this; its position lost (Redis away as it was kept), the caller may read a moment stale until the
   * replicas replay it, as any other caller would.
   */
  async wrote(accountId: string): Promise<void> {
    if (!this.enabled) return;
    try {
      const lsn = await walPosition(this.primary);
      await this.health.run('own writes', () => this.redis.set(this.key(accountId), lsn.toString(), 'EX', this.keepSeconds));
    } catch {
      // Unknown then: see around().
    }
  }
}
