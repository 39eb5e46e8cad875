import type pg from 'pg';
import { within } from '../deadline.ts';
import { createDb, type Db } from './knex.ts';
import { lsnValue, seenAfter, walPosition } from './ownWrites.ts';
import { databaseUnavailable } from './unavailable.ts';

// PostgreSQL read replicas (DATABASE_REPLICA_URLS, docs/deploy.md): reads that may be a moment stale go to a
// replica in rotation, everything else to the primary. A replica is in rotation while it answers within CHECK_MS
// and has replayed the primary's WAL to within `maxLagSeconds`; checked every `everyMs`. With none in rotation (or
// none configured) reads go to the primary: a replica down or behind never fails a read. A request whose caller has
// just written reads only from a replica that had replayed past that write when last checked (src/db/ownWrites.ts).

const CHECK_MS = 1000;

interface Replica {
  url: string;
  db: Db;
  inRotation: boolean;
  lagSeconds: number | null;
  /** The WAL position it had replayed to when last checked. */
  replayed: bigint | null;
  /** When it was last checked (ms). */
  checkedAt: number;
}

/** A read that may be a moment stale, where it should go: a replica in rotation, or the primary. */
export type StaleRead = <T>(f: (db: Db) => Promise<T>) => Promise<T>;

export class ReplicaSet {
  private readonly replicas: Replica[];
  private next = 0;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly primary: Db,
    urls: string[],
    private readonly maxLagSeconds = 5,
    private readonly everyMs = 1000,
    poolMax = 8,
  ) {
    this.replicas = urls.map((url) => ({
      url,
      db: createDb(url, poolMax, 2000),
      inRotation: false,
      lagSeconds: null,
      replayed: null,
      checkedAt: 0,
    }));
  }

  /**
   * Runs a read that may be a moment stale: on a replica in rotation (in turn), else on the primary. A replica that
   * cannot be reached now (gone since its last check) leaves the rotation and the read is made on the primary.
   */
  async read<T>(f: (db: Db) => Promise<T>): Promise<T> {
    const after = seenAfter();
    const live = this.replicas.filter(
      (r) => r.inRotation && (after === undefined || (after !== 'primary' && r.replayed !== null && r.replayed >= after)),
    );
    if (!live.length) return f(this.primary);
    this.next = (this.next + 1) % live.length;
    const r = live[this.next];
    try {
      return await f(r.db);
    } catch (err) {
      if (!databaseUnavailable(err)) throw err;
      r.inRotation = false;
      r.lagSeconds = null;
      r.replayed = null;
      return f(this.primary);
    }
  }

  /** read() on a connection of the pool for code that speaks to node-postgres itself (the search index's change feed). */
  readClient<T>(f: (c: pg.ClientBase) => Promise<T>): Promise<T> {
    return this.read(async (db) => {
      const c = (await db.client.acquireConnection()) as pg.ClientBase;
      try {
        return await f(c);
      } finally {
        await db.client.releaseConnection(c);
      }
    });
  }

  /**
   * At most how many seconds behind the primary a read made now may be: a replica in rotation has everything the
   * primary had committed its lag before it was last checked. 0 with none in rotation (reads go to the primary).
   */
  staleness(): number {
    const now = Date.now();
    let most = 0;
    for (const r of this.replicas) if (r.inRotation) most = Math.max(most, (r.lagSeconds ?? 0) + (now - r.checkedAt) / 1000);
    return most;
  }

  /** Each replica's state, as last checked. */
  state(): { url: string; inRotation: boolean; lagSeconds: number | null }[] {
    return this.replicas.map(({ url, inRotation, lagSeconds }) => ({ url, inRotation, lagSeconds }));
  }

  /** Starts checking the replicas (none are used until a first check finds them fit). */
  start(): void {
    if (this.timer || !this.replicas.length) return;
    void this.check();
    this.timer = setInterval(() => void this.check(), this.everyMs);
    this.timer.unref();
  }

  /** One round of checks; resolves when every replica's state is current. */
  check(): Promise<void> {
    this.checking ??= (async () => {
      try {
        // The primary's position first: a replica is behind by what it has not replayed of it.
        const primaryLsn = await within(walPosition(this.primary), CHECK_MS).catch(() => null);
        await Promise.all(this.replicas.map((r) => this.checkOne(r, primaryLsn)));
      } finally {
        this.checking = null;
      }
    })();
    return this.checking;
  }

  private async checkOne(r: Replica, primaryLsn: bigint | null): Promise<void> {
    const at = Date.now();
    try {
      // Caught up: nothing of the primary's WAL left to replay. Otherwise behind by the age of the last transaction
      // it replayed (the primary wrote since, or its WAL would have been replayed).
      const row = (
        await within(
          r.db.raw(
            `select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replayed,
              extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as age`,
          ),
          CHECK_MS,
        )
      ).rows[0] as { standby: boolean; replayed: string | null; age: number | null };
      r.replayed = row.replayed ? lsnValue(row.replayed) : null;
      const caughtUp = primaryLsn !== null && r.replayed !== null && r.replayed >= primaryLsn;
      // Never replayed a transaction and not caught up: how far behind is unknown, so out of rotation.
      r.lagSeconds = caughtUp ? 0 : row.age === null ? Number.POSITIVE_INFINITY : Math.max(0, row.age);
      r.inRotation = row.standby && r.lagSeconds <= this.maxLagSeconds;
      r.checkedAt = at;
    } catch {
      r.inRotation = false;
      r.lagSeconds = null;
      r.replayed = null;
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking?.catch(() => undefined);
    await Promise.all(this.replicas.map((r) => r.db.destroy()));
  }
}
