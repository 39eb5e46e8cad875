// Word-mark search at registry scale (issue 4): index build and snapshot load, per-class latency of
// the in-process index beside the SQL reference path in the same run, change lag, and HTTP
// throughput of `npm start`'s API processes with the result cache off.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/nishaan_bench npx tsx --expose-gc bench/search.ts \
//     [--queries 60] [--sql 6] [--sql-timeout 30000] [--duration 30] [--connections 16]
import { fork } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';
import { createDb } from '../src/db/knex.ts';
import { SearchEngine } from '../src/search/engine.ts';
import { buildIndex } from '../src/search/manager.ts';
import { type MatchType, prepareQuery } from '../src/search/query.ts';
import { classMask } from '../src/search/service.ts';
import { loadSnapshot } from '../src/search/snapshot.ts';
import { SqlSearch } from '../src/search/sqlReference.ts';
import { createBenchAccounts } from './account.ts';
import { args, DEFAULT_URL, loadEnv, measure, startProcess, table } from './lib.ts';
import { type BenchQuery, queryClasses } from './searchQueries.ts';

const a = args();
const o = {
  queries: Number(a.get('queries') ?? 60),
  sql: Number(a.get('sql') ?? 6),
  sqlTimeout: Number(a.get('sql-timeout') ?? 30_000),
  duration: Number(a.get('duration') ?? 30),
  connections: Number(a.get('connections') ?? 16),
  reps: 3,
};
const url = process.env.DATABASE_URL ?? DEFAULT_URL;
const snapshot = `/tmp/nishaan-bench-search-${process.pid}.snapshot`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

// 1. Build from PostgreSQL, save, load in a fresh process.
{
  const built = await buildIndex(url, snapshot);
  console.log(
    `build: ${(built.ms / 1000).toFixed(1)} s for ${built.engine.indexes[0].n.toLocaleString('en')} marks (target <= 60 s); ` +
      `snapshot save ${(built.saveMs / 1000).toFixed(1)} s, ${mb(fs.statSync(snapshot).size)}; ` +
      `builder process RSS ${mb(process.memoryUsage().rss)}`,
  );
}
globalThis.gc?.();
const loaded = await new Promise<{ ms: number; rss: number }>((resolve, reject) => {
  const child = fork(new URL('./servers/snapshotLoad.ts', import.meta.url).pathname, [], {
    env: { ...process.env, SNAPSHOT: snapshot },
    execArgv: ['--import', 'tsx', '--expose-gc'],
  });
  child.once('message', (m) => resolve(m as { ms: number; rss: number }));
  child.once('exit', (code) => code && reject(new Error(`snapshot load exited ${code}`)));
});
console.log(
  `snapshot load: ${(loaded.ms / 1000).toFixed(2)} s (target <= 10 s); process RSS after load ${mb(loaded.rss)} (target <= 2.5 GB)`,
);

// 2. Latency per query class: the index (every query, `reps` times, after a warm-up pass) and SQL
// (the first `sql` queries of each class, once), both with exact counts and all five groups. The
// index is the one API processes serve from: loaded from the snapshot.
const loadedHere = (await loadSnapshot(snapshot))!;
const engine = new SearchEngine(loadedHere.index, loadedHere.seq);
const classes = await queryClasses(url, o.queries);
const db = createDb(url, 1);
// The SQL path's sound-alike index is not made by the migrations (see migrations/*_search.ts).
const t0 = performance.now();
await db.raw('create index if not exists trademarks_codes_idx on trademarks using gin (nishaan_codes(word_mark))');
console.log(`SQL reference: phonetic-code index ready in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
await db.raw(`set statement_timeout = ${o.sqlTimeout}`);
const sql = new SqlSearch(db);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const filterOf = (q: BenchQuery) => ({ classes: q.classes ? classMask(q.classes) : null, status: null });
const indexTime = (q: BenchQuery) => {
  const t0 = performance.now();
  engine.search(prepareQuery(q.text, q.mode), filterOf(q), 51, null);
  return performance.now() - t0;
};
for (const qs of Object.values(classes)) for (const q of qs) indexTime(q);

const rows: string[] = [];
const mixed: number[] = [];
let timeouts = 0;
for (const [name, qs] of Object.entries(classes)) {
  const idx: number[] = [];
  for (let r = 0; r < o.reps; r++) for (const q of qs) idx.push(indexTime(q));
  if (name !== 'exact') mixed.push(...idx);
  const ref: number[] = [];
  for (const q of qs.slice(0, o.sql)) {
    const t0 = performance.now();
    try {
      await sql.search(prepareQuery(q.text, q.mode), q.classes, null, 50, 0);
      ref.push(performance.now() - t0);
    } catch (err) {
      if ((err as { code?: string }).code !== '57014') throw err;
      timeouts++;
      ref.push(o.sqlTimeout);
    }
  }
  const f = (x: number) => x.toFixed(x < 10 ? 2 : 0);
  rows.push(
    `| ${name} | ${qs.length} | ${f(pct(idx, 50))} | ${f(pct(idx, 95))} | ${f(pct(idx, 99))} | ` +
      `${ref.length} | ${f(pct(ref, 50))} | ${f(pct(ref, 95))} | ${f(pct(ref, 99))} | ` +
      `${(pct(ref, 50) / pct(idx, 50)).toFixed(0)}× | ${(pct(ref, 95) / pct(idx, 95)).toFixed(0)}× |`,
  );
  console.log(rows.at(-1));
}
await db.destroy();
console.log(`\nlatency in ms; SQL queries stopped at ${o.sqlTimeout} ms count as ${o.sqlTimeout} (${timeouts} did)`);
console.log('| class | queries | index p50 | p95 | p99 | SQL queries | SQL p50 | p95 | p99 | ratio p50 | ratio p95 |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(
  `SMART mixed set (${mixed.length} runs): p50 ${pct(mixed, 50).toFixed(2)} ms (target <= 5), ` +
    `p95 ${pct(mixed, 95).toFixed(2)} ms (target <= 25), p99 ${pct(mixed, 99).toFixed(2)} ms`,
);

// 3. HTTP: one API process per core from the snapshot just saved, result cache off; then the change lag.
const keys = await createBenchAccounts(url, 4);
const env = { ...loadEnv(url, 8), SEARCH_SNAPSHOT: snapshot, SEARCH_CACHE_TTL_SECONDS: '0', PORT: '3911' };
const server = await startProcess('./servers/cluster.ts', env);
try {
  const paths = Object.entries(classes)
    .flatMap(([name, qs]) => (name === 'exact' ? [] : qs))
    .map((q) => {
      const p = new URLSearchParams({ word_mark: q.text, match_type: q.mode });
      if (q.classes) p.set('classes', q.classes.join(','));
      return `/v1/trademarks/?${p}`;
    });
  const row = await measure('GET /v1/trademarks/ (SMART mixed set, cache off, 2 processes)', 3911, paths, { ...o, keys });
  table([row]);
  console.log(`searches per second: ${row.rps.toFixed(0)} (target >= 400)`);
  const rss = await new Promise<number[]>((resolve) => {
    server.once('message', (m) => resolve((m as { rss: number[] }).rss));
    server.send('rss');
  });
  console.log(`API process RSS after the run: ${rss.map(mb).join(', ')}`);
  console.log(`change lag: ${(await changeLag(keys[0])).toFixed(0)} ms from COMMIT to the mark in search results (target <= 5000)`);
} finally {
  server.kill('SIGTERM');
  fs.rmSync(snapshot, { force: true });
}

/** Inserts a mark with a word found nowhere else and polls the API until a search finds it; then deletes it. */
async function changeLag(key: string): Promise<number> {
  const c = new pg.Client(url);
  await c.connect();
  const word = `ZQX${process.pid}LAG`;
  const app = String(90_000_000_000 + process.pid);
  try {
    await c.query(
      `insert into trademarks (application_number, word_mark, slug, class_number, status, tm_type, application_date)
      select $1, $2, lower($2), class_number, status, tm_type, application_date from trademarks limit 1`,
      [app, word],
    );
    const t0 = performance.now();
    for (;;) {
      const res = await fetch(`http://127.0.0.1:3911/v1/trademarks/?word_mark=${word}&match_type=${'EXACT' satisfies MatchType}`, {
        headers: { 'x-api-key': key },
      });
      const body = (await res.json()) as { count: number };
      if (body.count === 1) return performance.now() - t0;
      if (performance.now() - t0 > 60_000) throw new Error('the new mark was not searchable after 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await c.query('delete from trademarks where application_number = $1', [app]);
    await c.end();
  }
}
