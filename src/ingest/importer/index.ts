// The importer: applies one file set (docs/ingest.md) in a single transaction. Per entity, in set
// order: valid lines are COPYed into a temp staging table, rows referring to unknown records are
// refused, outbox events are computed from staged vs stored rows (deltas only), then rows are
// inserted (baseline into an empty table) or upserted.
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { Db } from '../../db/knex.ts';
import type { ObjectStore } from '../../storage/objectStore.ts';
import { ENTITIES, type Entity, type EntityName } from './entities.ts';
import { feedFile, type RejectSink } from './feed.ts';
import { createFieldChanges, noteFieldChanges, writeFieldEvents } from './fieldEvents.ts';
import { SetFiles } from './files.ts';
import {
  createRunTables,
  dropSecondary,
  insertAll,
  isEmpty,
  rejectDuplicates,
  rejectUnknown,
  rememberNewTrademarks,
  takeRejects,
  upsert,
  writeEvents,
} from './merge.ts';
import { Progress } from './progress.ts';
import { createStage, stageTable } from './stage.ts';

export const INGEST_FORMAT = 'nishaan-ingest/1';

export interface ImportOptions {
  db: Db;
  store: ObjectStore;
  /** The set's directory. */
  dir: string;
  /** Progress lines (reading, merge steps). */
  log?: (msg: string) => void;
  /** Every refused line, as `file:line: reason`, when it is found. */
  onReject?: (msg: string) => void;
  /** How many refusals `errors` keeps (the count in `rejected` is always complete). */
  keepErrors?: number;
}

export interface EntityCounts {
  lines: number;
  inserted: number;
  updated: number;
  rejected: number;
  events: number;
}

export interface ImportResult {
  runId: number;
  baseline: boolean;
  counts: Record<EntityName, EntityCounts>;
  rejected: number;
  events: number;
  /** `file:line: reason` for refused lines (the first `keepErrors` of them). */
  errors: string[];
  files: { hashed: number; stored: number };
}

class Rejections implements RejectSink {
  count = 0;
  readonly errors: string[] = [];

  constructor(
    private readonly keep: number,
    private readonly onReject?: (msg: string) => void,
  ) {}

  add(msg: string): void {
    this.count++;
    if (this.errors.length < this.keep) this.errors.push(msg);
    this.onReject?.(msg);
  }

  reject(file: string, line: number, reason: string): void {
    this.add(`${file}:${line}: ${reason}`);
  }
}

/** Connection settings for one long bulk transaction (all `local`, gone at commit). */
const TUNING = [
  `set local work_mem = '512MB'`,
  `set local maintenance_work_mem = '1GB'`,
  // Durability of the final commit is cheap to give up: a lost import is simply rerun.
  `set local synchronous_commit = off`,
  `set local statement_timeout = 0`,
  `set local idle_in_transaction_session_timeout = 0`,
  // Event payloads carry timestamps; make them UTC whatever the server default.
  `set local timezone = 'UTC'`,
];

function readManifest(dir: string): void {
  const p = path.join(dir, 'manifest.json');
  if (!fs.existsSync(p)) return;
  let m: unknown;
  try {
    m = JSON.parse(fs.readFileSync(p, 'utf8'));
  } catch {
    throw new Error(`${p}: not valid JSON`);
  }
  const format = (m as { format?: unknown } | null)?.format;
  if (format !== undefined && format !== INGEST_FORMAT) throw new Error(`${p}: unsupported format ${JSON.stringify(format)}`);
}

/** Imports the set in `dir`. Throws (with nothing applied) on a fatal error; refused lines are not fatal. */
export async function importSet(opts: ImportOptions): Promise<ImportResult> {
  const dir = path.resolve(opts.dir);
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`not a directory: ${dir}`);
  readManifest(dir);
  const progress = new Progress(opts.log);
  const rejections = new Rejections(opts.keepErrors ?? 10_000, opts.onReject);
  const files = new SetFiles(dir, opts.store);
  const counts = Object.fromEntries(ENTITIES.map((e) => [e.name, { lines: 0, inserted: 0, updated: 0, rejected: 0, events: 0 }])) as Record<
    EntityName,
    EntityCounts
  >;

  // A connection of its own, closed afterwards, so session settings never reach the app's pool.
  const client = (await opts.db.client.acquireRawConnection()) as pg.Client;
  try {
    // Temp tables live in local buffers; the default 8MB would send staging to disk at once.
    // Only settable before the session touches a temp table, hence session level on a fresh connection.
    await client.query(`set temp_buffers = '1GB'`);
    await client.query('begin');
    try {
      for (const sql of TUNING) await client.query(sql);
      const locked = await client.query(`select pg_try_advisory_xact_lock(hashtext('nishaan.import')) as ok`);
      if (!locked.rows[0].ok) throw new Error('another import is running');
      const baseline = await isEmpty(client, 'trademarks');
      const run = await client.query<{ id: number; started_at: Date }>(
        'insert into import_runs (source, baseline) values ($1, $2) returning id, started_at',
        [dir, baseline],
      );
      const { id: runId, started_at: importTime } = run.rows[0];
      progress.note(`${baseline ? 'baseline' : 'delta'} import of ${dir} (run ${runId})`);
      await createRunTables(client);
      await createFieldChanges(client);

      let events = 0;
      for (const e of ENTITIES) {
        const file = path.join(dir, `${e.name}.jsonl`);
        if (!fs.existsSync(file)) continue;
        events += await applyEntity(client, e, file, { baseline, runId, importTime, files, progress, rejections, counts });
      }
      if (!baseline) {
        // Last, so that the set's own status, alert and proprietor entries have spoken first (fieldEvents.ts).
        const n = await progress.step(
          'trademarks: field changes without an entry, events written',
          () => writeFieldEvents(client, runId, importTime),
          (x) => x,
        );
        counts.trademarks.events += n;
        events += n;
      }

      await client.query(`update import_runs set finished_at = clock_timestamp(), counts = $2, rejected = $3, events = $4 where id = $1`, [
        runId,
        JSON.stringify(counts),
        rejections.count,
        events,
      ]);
      await client.query('commit');
      progress.note(`committed: ${rejections.count} lines refused, ${events} events`);
      return {
        runId,
        baseline,
        counts,
        rejected: rejections.count,
        events,
        errors: rejections.errors,
        files: { hashed: files.hashed, stored: files.stored },
      };
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    }
  } finally {
    await opts.db.client.destroyRawConnection(client).catch(() => undefined);
  }
}

interface RunState {
  baseline: boolean;
  runId: number;
  importTime: Date;
  files: SetFiles;
  progress: Progress;
  rejections: Rejections;
  counts: Record<EntityName, EntityCounts>;
}

/** Stages and merges one entity's file; returns the number of events written. */
async function applyEntity(client: pg.Client, e: Entity, file: string, run: RunState): Promise<number> {
  const { progress, rejections } = run;
  const c = run.counts[e.name];
  const n = (x: number) => x;
  await createStage(client, e);
  const fed = await feedFile({ client, entity: e, path: file, files: run.files, sink: rejections, progress });
  c.lines = fed.lines;
  c.rejected = fed.rejected;

  let refused = 0;
  if (!fed.ascending) refused += await progress.step(`${e.name}: duplicate keys refused`, () => rejectDuplicates(client, e), n);
  refused += await progress.step(`${e.name}: unknown references refused`, () => rejectUnknown(client, e), n);
  c.rejected += refused;
  if (refused) for await (const page of takeRejects(client, e)) for (const msg of page) rejections.add(msg);

  if (run.baseline && (await isEmpty(client, e.table))) {
    // Baseline into an empty table: no events, nothing to update, indexes built once at the end.
    const restore = await dropSecondary(client, e.table);
    c.inserted = await progress.step(`${e.name}: rows inserted`, () => insertAll(client, e), n);
    for (const r of restore) await progress.step(`${e.name}: ${r.label}`, () => client.query(r.sql));
    await progress.step(`${e.name}: analyzed`, () => client.query(`analyze ${e.table}`));
  } else {
    if (!run.baseline) {
      if (e.name === 'trademarks') {
        await progress.step('trademarks: new in this set', () => rememberNewTrademarks(client, run.runId), n);
        await progress.step('trademarks: status, alert and proprietor changes noted', () => noteFieldChanges(client), n);
      }
      c.events = await progress.step(`${e.name}: events written`, () => writeEvents(client, e, run.runId, run.importTime), n);
    }
    const w = await progress.step(
      `${e.name}: rows upserted`,
      () => upsert(client, e),
      (r) => r.inserted + r.updated,
    );
    c.inserted = w.inserted;
    c.updated = w.updated;
  }
  await client.query(`drop table ${stageTable(e)}`);
  return c.events;
}
