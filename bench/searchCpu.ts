// CPU time per word-mark search, the index in process, over the query classes of bench/searchQueries.ts:
// this checkout's engine and, with --baseline DIR (a git worktree of another commit, node_modules linked),
// that checkout's engine on the same snapshot and queries. Rounds alternate between the two so that a
// busy machine weighs on both alike, and time is the process's CPU time (process.cpuUsage), which other
// jobs on a shared machine disturb far less than wall time. Prints p50 / p95 / p99 / mean per engine and
// round, the ratio of the means, and the slowest queries.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/nishaan_bench npx tsx bench/searchCpu.ts \
//     --snapshot FILE [--baseline DIR] [--baseline-snapshot FILE] [--reps 10] [--rounds 2] [--top 10] [--queries 60]
// --baseline-snapshot: the baseline's own snapshot, saved by its scripts/search-index.ts, where the snapshot
// format changed between the two commits.

import path from 'node:path';
import { args, DEFAULT_URL } from './lib.ts';
import { type BenchQuery, queryClasses } from './searchQueries.ts';

const a = args();
const url = process.env.DATABASE_URL ?? DEFAULT_URL;
const snapshot = a.get('snapshot');
if (!snapshot) throw new Error('--snapshot FILE is required (a snapshot saved by scripts/search-index.ts)');
const reps = Number(a.get('reps') ?? 10);
const rounds = Number(a.get('rounds') ?? 2);
const top = Number(a.get('top') ?? 10);

type Search = (q: BenchQuery) => void;

/** An engine of the checkout at `root` over the snapshot, as a function searching one query for 51 hits. */
async function engineOf(root: string, snapshot: string): Promise<Search> {
  const src = (f: string) => import(path.join(root, 'src/search', f));
  const [{ SearchEngine }, { prepareQuery }, { classMask }, { loadSnapshot }] = await Promise.all([
    src('engine.ts'),
    src('query.ts'),
    src('service.ts'),
    src('snapshot.ts'),
  ]);
  const loaded = await loadSnapshot(snapshot);
  if (!loaded) throw new Error(`${root}: could not load ${snapshot}`);
  const engine = new SearchEngine(loaded.index, loaded.seq);
  return (q) => {
    engine.search(prepareQuery(q.text, q.mode), { classes: q.classes ? classMask(q.classes) : null, status: null }, 51, null);
  };
}

const classes = await queryClasses(url, Number(a.get('queries') ?? 60));
const queries = Object.entries(classes).flatMap(([cls, qs]) => qs.map((q) => ({ cls, q })));
const engines: [string, Search][] = [['this checkout', await engineOf(path.resolve(import.meta.dirname, '..'), snapshot)]];
const baseline = a.get('baseline');
if (baseline) engines.push([`baseline ${baseline}`, await engineOf(path.resolve(baseline), a.get('baseline-snapshot') ?? snapshot)]);
for (const [, search] of engines) for (const { q } of queries) search(q);

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const means = new Map<string, number[]>();
const slowest = new Map<string, Map<string, number>>();
for (let r = 1; r <= rounds; r++) {
  for (const [name, search] of engines) {
    const all: number[] = [];
    const per = slowest.get(name) ?? new Map<string, number>();
    slowest.set(name, per);
    for (const { cls, q } of queries) {
      let sum = 0;
      for (let i = 0; i < reps; i++) {
        const c0 = process.cpuUsage();
        search(q);
        const c = process.cpuUsage(c0);
        const ms = (c.user + c.system) / 1000;
        all.push(ms);
        sum += ms;
      }
      const key = `${cls}: ${q.text}${q.classes ? ` [${q.classes.join(',')}]` : ''}`;
      per.set(key, (per.get(key) ?? 0) + sum / reps / rounds);
    }
    all.sort((x, y) => x - y);
    const mean = all.reduce((x, y) => x + y, 0) / all.length;
    means.set(name, [...(means.get(name) ?? []), mean]);
    const f = (x: number) => x.toFixed(2);
    const spread = `p50 ${f(pct(all, 50))} p95 ${f(pct(all, 95))} p99 ${f(pct(all, 99))}`;
    console.log(`round ${r}, ${name}: ${all.length} searches, CPU ms ${spread} mean ${f(mean)}`);
  }
}
if (baseline) {
  const avg = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
  const [mine, theirs] = engines.map(([name]) => avg(means.get(name)!));
  console.log(`mean CPU per search, this checkout / baseline: ${(mine / theirs).toFixed(2)}`);
}
for (const [name, per] of slowest) {
  console.log(`slowest, ${name}:`);
  for (const [key, ms] of [...per].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`  ${ms.toFixed(2).padStart(7)} ms  ${key}`);
}
