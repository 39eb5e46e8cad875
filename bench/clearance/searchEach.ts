// Developer's check for SearchEngine.searchEach (issue 21): the several-word SMART searches a three-class
// clearance makes (the whole mark, want 300; less its first and less its last word, want 40), made for the
// class groups of --n register names x 3 classes (drawn as bench/clearance/dump.ts draws them) once as
// separate searches per group and once through searchEach, alternating name by name in one process, so
// that both meet the same load. Prints the CPU time of each way and checks that the answers are the same.
//   DATABASE_URL=... [SEARCH_SNAPSHOT=FILE] npx tsx bench/clearance/searchEach.ts --n 100 [--seed 21] [--rounds 3]
import { loadConfig } from '../../src/config.ts';
import { createRoot } from '../../src/root.ts';
import { prepareQuery } from '../../src/search/query.ts';
import { classMask } from '../../src/search/service.ts';
import type { Filter, IndexHit } from '../../src/search/types.ts';
import { relatedClasses } from '../../src/threats/classes.ts';
import { args, DEFAULT_URL } from '../lib.ts';
import { Rng } from '../rng.ts';
import { liveNames, threeClasses } from './names.ts';

const a = args();
const n = Number(a.get('n') ?? 100);
const seed = Number(a.get('seed') ?? 21);
const rounds = Number(a.get('rounds') ?? 3);
const url = process.env.DATABASE_URL ?? DEFAULT_URL;
const config = loadConfig({ ...process.env, DATABASE_URL: url, SEARCH_CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
const deps = createRoot(config);
const engine = await deps.search.ready();
const size = engine.indexes[0].n;
const names = await liveNames(url, n, seed, size);

const r = new Rng(seed + 1);
const cases: { text: string; want: number; filters: Filter[] }[] = [];
for (const m of names) {
  const classes = threeClasses(m.class_number, r);
  const groups = new Map<number, number[]>();
  for (const cls of classes) {
    const g = relatedClasses(cls);
    groups.set(g[0], g);
  }
  if (groups.size < 2) continue;
  const filters = [...groups.values()].map((g) => ({ classes: classMask(g), status: null }));
  const words = prepareQuery(m.word_mark, 'SMART').words;
  if (words.length < 2) continue;
  cases.push({ text: words.join(' '), want: 300, filters });
  if (words.length >= 3) {
    cases.push({ text: words.slice(1).join(' '), want: 40, filters });
    cases.push({ text: words.slice(0, -1).join(' '), want: 40, filters });
  }
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const key = (h: IndexHit) => `${h.appNo} ${h.strategy} ${h.dist} ${h.len}`;
let separate = 0;
let together = 0;
let differ = 0;
for (let round = 0; round < rounds; round++) {
  for (const [i, x] of cases.entries()) {
    const q = prepareQuery(x.text, 'SMART');
    const ways = [
      () => x.filters.map((f) => engine.search(q, f, x.want, null).hits),
      () => engine.searchEach(q, x.filters, x.want, false).map((res) => res.hits),
    ];
    // Which way goes first alternates, so that neither always finds the caches warm.
    const order = (i + round) % 2 ? [1, 0] : [0, 1];
    const got: IndexHit[][][] = [];
    for (const w of order) {
      const s = cpu();
      got[w] = ways[w]();
      if (w === 0) separate += cpu() - s;
      else together += cpu() - s;
    }
    if (got[0].map((h) => h.map(key).join()).join('|') !== got[1].map((h) => h.map(key).join()).join('|')) differ++;
  }
}
console.log(
  `${cases.length} several-word SMART searches (${names.length} names x 3 classes, class groups of each) x ${rounds} rounds: ` +
    `separate searches per group ${(separate / 1000).toFixed(2)} s CPU, searchEach ${(together / 1000).toFixed(2)} s CPU ` +
    `(${((100 * together) / separate).toFixed(0)} %); answers that differ: ${differ}`,
);
await deps.close();
process.exit(0);
