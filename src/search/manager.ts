import pg from 'pg';
import { SEARCH_CHANNEL, SNAPSHOT_CHANNEL } from '../db/channels.ts';
import type { ChangeListener } from '../db/listener.ts';
import type { Logger } from '../logger.ts';
import { Retrying } from '../retrying.ts';
import { IndexBuilder, type Skipped } from './build.ts';
import { REBUILD_AT, SearchEngine } from './engine.ts';
import { LiveIndex } from './liveIndex.ts';
import { loadSnapshot, type SnapshotLoad, saveSnapshot, snapshotHeader } from './snapshot.ts';
import { type Change, changesSince, instanceOf, streamMarks } from './source.ts';

const POLL_MS = 2000;

/**
 * Reads of the change feed that may be a moment stale: on a PostgreSQL replica in rotation, else the primary
 * (src/db/replicas.ts); `staleness`, at most how many seconds behind the primary such a read may be.
 */
export interface StaleFeed {
  readClient<T>(f: (c: pg.ClientBase) => Promise<T>): Promise<T>;
  staleness(): number;
}

export interface IndexStats {
  marks: number;
  seq: number;
  pending: number;
  source: 'snapshot' | 'built';
  /** Load (or build) until searchable, ready answers included. */
  loadMs: number;
  /** Ready answers made at load (src/search/ready.ts), and what making them took. */
  readyAnswers: number;
  readyMs: number;
}

/**
 * Builds the index from PostgreSQL (streamed) and, given a file, saves it as a snapshot. A mark the index
 * cannot hold is left out, named in `log` and in `skipped`.
 */
export async function buildIndex(
  url: string,
  snapshotFile: string | null,
  log?: (msg: string) => void,
): Promise<{ engine: SearchEngine; ms: number; saveMs: number; skipped: Skipped[] }> {
  const t0 = performance.now();
  let builder = new IndexBuilder();
  let rows = 0;
  const snap = await streamMarks(
    url,
    (s) => (builder = new IndexBuilder(s.estimate)),
    (r) => {
      const reason = builder.add(r);
      if (reason) log?.(`search index: mark ${r.appNo} left out: ${reason}`);
      if (++rows % 1_000_000 === 0) log?.(`search index: ${rows.toLocaleString('en')} marks read`);
    },
  );
  const index = await builder.finishInThread();
  const t1 = performance.now();
  if (snapshotFile) saveSnapshot(snapshotFile, index, snap.seq, snap.instance);
  return { engine: new SearchEngine(index, snap.seq), ms: t1 - t0, saveMs: performance.now() - t1, skipped: builder.skipped };
}

/**
 * Builds and saves the snapshot unless one made from this database is already there. Returns what
 * was built, or null when nothing needed building (or the deployment keeps no snapshot). `log` hears
 * the build's progress and the marks it left out.
 */
export async function ensureSearchSnapshot(
  url: string,
  file: string | null,
  log?: (msg: string) => void,
): Promise<{ ms: number; marks: number } | null> {
  if (!file) return null;
  const snap = await snapshotHeader(file);
  if (snap) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      if ((await instanceOf(c)) === snap.instance) return null;
    } finally {
      await c.end();
    }
  }
  const { engine, ms } = await buildIndex(url, file, log);
  return { ms, marks: engine.indexes[0].n };
}

/**
 * The process's search index: loaded from the snapshot (or built, and saved, when there is none for
 * this database), then kept current from the change feed. PostgreSQL announces changes on
 * `nishaan_search`; a poll every two seconds covers an announcement missed while the listening
 * connection was down. A rebuilt snapshot, announced on `nishaan_search_snapshot`, is swapped in.
 * With replicas (`feed`) the feed is read on one: the announcement comes from the primary and may arrive before a
 * replica has the change, which the next poll then finds. The feed's order is its commit order (marks are written by
 * one import at a time, src/ingest/importer/), and a replica replays commits in that order, so reading a replica
 * that is behind only finds the same changes later.
 */
export class SearchIndex {
  private engine: SearchEngine | null = null;
  private loading: Promise<SearchEngine> | null = null;
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private catchingUp: Promise<void> | null = null;
  private again = false;
  /** A catch-up on the primary is asked for (sync()): the next round reads there. */
  private fresh = false;
  private closed = false;
  private following: Retrying;
  /** The feed position of the snapshot (or build) the engine started from. */
  private baseSeq = 0;
  /** When the last look at the feed that found nothing more began: every change committed before it is searchable. */
  private caughtUpAt: number | null = null;
  stats: IndexStats | null = null;

  constructor(
    private readonly url: string,
    private readonly snapshotFile: string | null,
    private readonly listener: ChangeListener,
    private readonly log: Logger,
    private readonly how: SnapshotLoad = 'map',
    /** With a snapshot shared by the nodes (src/search/sharedSnapshot.ts): fetches a newer stored one into the file. */
    private readonly refresh: (() => Promise<boolean>) | null = null,
    private readonly feed: StaleFeed | null = null,
  ) {
    this.following = new Retrying(log, 'the search index following the change feed');
  }

  /** The engine, loading or building it on first use. */
  ready(): Promise<SearchEngine> {
    if (this.engine) return Promise.resolve(this.engine);
    this.loading ??= this.load();
    return this.loading;
  }

  private async load(): Promise<SearchEngine> {
    const t0 = performance.now();
    const snap = await this.ownSnapshot();
    let engine: SearchEngine;
    if (snap) engine = new SearchEngine(snap.index, snap.seq);
    else {
      const built = await buildIndex(this.url, this.snapshotFile);
      this.leftOut(built.skipped);
      engine = built.engine;
    }
    const t1 = performance.now();
    const ready = await engine.prepare();
    const readyMs = Math.round(performance.now() - t1);
    this.engine = engine;
    this.baseSeq = engine.seq;
    this.listener.on(SEARCH_CHANNEL, () => this.kick());
    this.listener.on(SNAPSHOT_CHANNEL, () => void this.reload().catch((err) => this.log.error({ err }, 'search snapshot reload failed')));
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    await this.catchUp();
    this.stats = {
      marks: engine.indexes[0].n,
      seq: engine.seq,
      pending: engine.pending,
      source: snap ? 'snapshot' : 'built',
      loadMs: Math.round(performance.now() - t0),
      readyAnswers: ready,
      readyMs,
    };
    this.log.info({ search: this.stats }, 'search index ready');
    return engine;
  }

  /** The saved snapshot, when there is one and it was made from this database. */
  private async ownSnapshot() {
    const snap = this.snapshotFile ? await loadSnapshot(this.snapshotFile, this.how) : null;
    if (snap && snap.instance !== (await this.withClient(instanceOf))) {
      this.log.warn({ file: this.snapshotFile }, 'search snapshot belongs to another database: not used');
      return null;
    }
    return snap;
  }

  /**
   * Swaps in a newer snapshot (read off the event loop) and the changes after it. The old index
   * answers until the swap. False when there is no newer snapshot for this database.
   */
  async reload(): Promise<boolean> {
    const engine = this.engine;
    if (!engine) return false;
    if (this.refresh && (await this.refresh())) this.log.info({ file: this.snapshotFile }, 'search snapshot fetched from the object store');
    const snap = await this.ownSnapshot();
    if (!snap || snap.seq <= this.baseSeq) return false;
    // Its ready answers are made while the old index answers (made between searches, not during one).
    const next = new LiveIndex(snap.index);
    await next.prepare();
    await this.catchingUp;
    const later: Change[] = [];
    let seq = snap.seq;
    for (;;) {
      const batch = await this.withClient((c) => changesSince(c, seq));
      if (!batch.changes.length) break;
      later.push(...batch.changes);
      seq = batch.seq;
    }
    this.leftOut(engine.replace(next, snap.seq, later));
    engine.seq = Math.max(engine.seq, seq);
    this.baseSeq = snap.seq;
    this.log.info({ seq: engine.seq, pending: engine.pending }, 'search index reloaded from a new snapshot');
    return true;
  }

  /**
   * Where the index stands, for readiness (src/health/readiness.ts): null until it is loaded; `lagSeconds` is how long
   * ago it last saw the whole feed (it looks at least every two seconds, so a growing lag means it cannot read it).
   */
  position(): { seq: number; lagSeconds: number } | null {
    if (!this.engine || this.caughtUpAt === null) return null;
    return { seq: this.engine.seq, lagSeconds: Math.max(0, (Date.now() - this.caughtUpAt) / 1000) };
  }

  /** Resolves once every change committed before the call is searchable (read on the primary). */
  async sync(): Promise<void> {
    await this.ready();
    await this.listener.sync();
    await this.catchUp(true);
  }

  private kick(): void {
    if (this.closed) return;
    void this.following.round(() => this.catchUp());
  }

  /** Applies the feed's changes; one run at a time, and one more if asked for meanwhile. `fresh`: read on the primary. */
  private catchUp(fresh = false): Promise<void> {
    this.fresh ||= fresh;
    if (this.catchingUp) {
      this.again = true;
      return this.catchingUp;
    }
    this.catchingUp = (async () => {
      try {
        do {
          this.again = false;
          const fresh = this.fresh;
          this.fresh = false;
          await this.applyPending(fresh);
        } while (this.again);
      } finally {
        this.catchingUp = null;
      }
    })();
    return this.catchingUp;
  }

  private async applyPending(fresh: boolean): Promise<void> {
    const engine = this.engine;
    if (!engine || this.closed) return;
    const stale = fresh ? null : this.feed;
    for (;;) {
      // Everything committed before `asked` is in what this read finds.
      const asked = Date.now() - (stale ? stale.staleness() * 1000 : 0);
      const read = (c: pg.ClientBase) => changesSince(c, engine.seq);
      const batch = stale ? await stale.readClient(read) : await this.withClient(read);
      if (!batch.changes.length) {
        this.caughtUpAt = Math.max(this.caughtUpAt ?? 0, asked);
        return;
      }
      this.leftOut(engine.apply(batch.changes, batch.seq));
      if (engine.pending > REBUILD_AT) {
        this.log.warn({ pending: engine.pending }, 'search index: many changes since the snapshot; run npm run search-index -- rebuild');
      }
    }
  }

  /** Reports the marks the index could not take: they are not searchable until they change. */
  private leftOut(skipped: Skipped[]): void {
    for (const s of skipped) {
      this.log.warn({ application_number: String(s.appNo), reason: s.reason }, 'search index: mark left out');
    }
  }

  /** Runs f on this index's own connection (opened on first use, dropped after a failure). */
  private async withClient<T>(f: (c: pg.Client) => Promise<T>): Promise<T> {
    if (!this.client) {
      const c = new pg.Client({ connectionString: this.url });
      c.on('error', () => undefined);
      await c.connect();
      this.client = c;
    }
    try {
      return await f(this.client);
    } catch (err) {
      await this.client.end().catch(() => undefined);
      this.client = null;
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.catchingUp?.catch(() => undefined);
    await this.client?.end().catch(() => undefined);
  }
}
