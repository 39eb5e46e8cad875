// Search time in process on a saved snapshot, for one or more checkouts of the code in one run (a worktree of an
// earlier commit beside this one): every query of bench/search.ts's classes, a warm-up pass, then `passes` timed.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/nishaan_big npx tsx bench/snapshotLatency.ts \
//     --snapshot /tmp/big.snapshot [--roots /tmp/before,.] [--rounds 2] [--passes 3] [--queries 60]
// --queries N: queries of each class (250: more sets worth keeping than a process keeps, so that kept sets come and go).
import path from 'node:path';
import { args, DEFAULT_URL } from './lib.ts';
import { type BenchQuery, queryClasses } from './searchQueries.ts';

const a = args();
const url = process.env.DATABASE_URL ?? DEFAULT_URL;
const snapshot = a.get('snapshot') ?? 'var/search/index.snapshot';
const roots = (a.get('roots') ?? '.').split(',').map((r) => path.resolve(r));
const rounds = Number(a.get('rounds') ?? 2);
const passes = Number(a.get('passes') ?? 3);
const classes = await queryClasses(url, Number(a.get('queries') ?? 60));

const pct = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

async function timeRoot(root: string): Promise<{ total: number; perClass: string[] }> {
  const { SearchEngine } = await import(`${root}/src/search/engine.ts`);
  const { prepareQuery } = await import(`${root}/src/search/query.ts`);
  const { classMask } = await import(`${root}/src/search/service.ts`);
  const { loadSnapshot } = await import(`${root}/src/search/snapshot.ts`);
  const loaded = await loadSnapshot(snapshot);
  const engine = new SearchEngine(loaded.index, loaded.seq);
  const time = (q: BenchQuery) => {
    const t0 = performance.now();
    engine.search(prepareQuery(q.text, q.mode), { classes: q.classes ? classMask(q.classes) : null, status: null }, 51, null);
    return performance.now() - t0;
  };
  for (const qs of Object.values(classes)) for (const q of qs) time(q);
  let total = 0;
  const perClass = Object.entries(classes).map(([name, qs]) => {
    const xs: number[] = [];
    for (let p = 0; p < passes; p++) for (const q of qs) xs.push(time(q));
    total += xs.reduce((s, x) => s + x, 0);
    return `${name} ${pct(xs, 50).toFixed(2)} / ${pct(xs, 95).toFixed(1)}`;
  });
  return { total, perClass };
}

// Each checkout's modules are its own (imported by path); the roots take turns, `rounds` times.
for (let r = 0; r < rounds; r++) {
  for (const root of roots) {
    const { total, perClass } = await timeRoot(root);
    console.log(`${root}: whole set ${total.toFixed(0)} ms | p50 / p95 ms: ${perClass.join(' | ')}`);
  }
}
process.exit(0);
