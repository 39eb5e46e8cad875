import type { Knex } from 'knex';
import { pingDatabase } from '../db/ping.ts';
import type { ReplicaSet } from '../db/replicas.ts';
import { within } from '../deadline.ts';
import type { RedisConnections } from '../redis.ts';
import type { SearchIndex } from '../search/manager.ts';

// Whether this API process should be sent traffic (GET /readyz, docs/deploy.md): a load balancer takes a node out of
// rotation when it answers 503. Liveness is /healthz alone (the process answers); readiness asks more: the search
// index loaded and following the change feed, PostgreSQL and Redis reachable, and the process not stopping. A check
// that does not answer within CHECK_MS counts as unreachable, so /readyz itself never hangs in an outage.

const CHECK_MS = 1000;

export interface ReadinessReport {
  ready: boolean;
  draining: boolean;
  index: { loaded: boolean; seq: number | null; lag_seconds: number | null };
  db: boolean;
  redis: boolean;
  /** Each read replica (DATABASE_REPLICA_URLS), in order: whether reads go to it, and how far behind it was. */
  replicas: { in_rotation: boolean; lag_seconds: number | null }[];
}

export class Readiness {
  private stopping = false;

  constructor(
    private readonly db: Knex,
    private readonly connections: RedisConnections,
    private readonly search: SearchIndex,
    private readonly maxLagSeconds: number,
    private readonly replicas?: ReplicaSet,
  ) {}

  /** From now on the process reports itself not ready, so that traffic moves away before it stops. */
  drain(): void {
    this.stopping = true;
  }

  async check(): Promise<ReadinessReport> {
    const [db, redis] = await Promise.all([
      within(pingDatabase(this.db), CHECK_MS).catch(() => false),
      within(this.connections.commands.ping(), CHECK_MS).then(
        (r) => r === 'PONG',
        () => false,
      ),
    ]);
    const at = this.search.position();
    const lag = at ? Math.round(at.lagSeconds * 10) / 10 : null;
    const caughtUp = at !== null && at.lagSeconds <= this.maxLagSeconds;
    return {
      ready: !this.stopping && caughtUp && db && redis,
      draining: this.stopping,
      index: { loaded: at !== null, seq: at?.seq ?? null, lag_seconds: lag },
      db,
      redis,
      // Not part of ready: a replica away only sends reads to the primary.
      replicas: (this.replicas?.state() ?? []).map((r) => ({
        in_rotation: r.inRotation,
        lag_seconds: r.lagSeconds === null || !Number.isFinite(r.lagSeconds) ? null : Math.round(r.lagSeconds * 10) / 10,
      })),
    };
  }
}
