// Developer's check for changes to the analysis' speed (issue 21): screens --n register names x 3 classes (its
// own and two drawn at random, as bench/clearance.ts's speed part draws them) with the analysis in process,
// times each, and writes every finding (application number and overall score, best first) to --out, one
// line per name; `--compare OLD` then says how many answers are unchanged and, where one changed, how
// much of its first 10 and first 500 it kept. Reads the database only.
//   DATABASE_URL=... [SEARCH_SNAPSHOT=FILE] npx tsx bench/clearance/dump.ts --n 300 --out /tmp/a.jsonl [--compare /tmp/b.jsonl]
//     [--cpu-prof: run node with --cpu-prof instead] [--seed 21]
import fs from 'node:fs';
import { loadConfig } from '../../src/config.ts';
import { createRoot } from '../../src/root.ts';
import { Analyser } from '../../src/threats/analysis.ts';
import { ThreatRepository } from '../../src/threats/repository.ts';
import { TrademarkRepository } from '../../src/trademarks/repository.ts';
import { args, DEFAULT_URL } from '../lib.ts';
import { Rng } from '../rng.ts';
import { liveNames, threeClasses } from './names.ts';

const a = args();
const n = Number(a.get('n') ?? 300);
const seed = Number(a.get('seed') ?? 21);
const out = a.get('out') ?? '/tmp/clearance-dump.jsonl';
const url = process.env.DATABASE_URL ?? DEFAULT_URL;
const config = loadConfig({ ...process.env, DATABASE_URL: url, SEARCH_CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
const deps = createRoot(config);
const engine = await deps.search.ready();
const size = engine.indexes[0].n;
const names = await liveNames(url, n, seed, size);
const analyser = new Analyser(deps.search, new TrademarkRepository(deps.db), new ThreatRepository(deps.db), deps.logos.texts);
await deps.logos.texts.search('WARM', 1);
await analyser.analyse({ text: 'WARM', classes: [1], logo: null, filed: null });
const r = new Rng(seed + 1);
const lines: string[] = [];
const times: number[] = [];
let cpuMs = 0;
for (const m of names) {
  const classes = threeClasses(m.class_number, r);
  const s = performance.now();
  const c0 = process.cpuUsage();
  const f = await analyser.analyse({ text: m.word_mark, classes: [...classes].sort((x, y) => x - y), logo: null, filed: null });
  const t = performance.now() - s;
  const cpu = process.cpuUsage(c0);
  cpuMs += (cpu.user + cpu.system) / 1000;
  times.push(t);
  lines.push(
    JSON.stringify({
      name: m.word_mark,
      classes,
      ms: Math.round(t),
      f: f.slice(0, 500).map((x) => `${x.row.application_number}:${x.score.overall}`),
    }),
  );
}
fs.writeFileSync(out, `${lines.join('\n')}\n`);
const pct = (p: number) => [...times].sort((x, y) => x - y)[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
console.log(
  `${names.length} names x 3 classes: p50 ${pct(50).toFixed(0)} ms, p95 ${pct(95).toFixed(0)} ms, p99 ${pct(99).toFixed(0)} ms, ` +
    `sum ${(times.reduce((x, y) => x + y, 0) / 1000).toFixed(1)} s wall, ${(cpuMs / 1000).toFixed(1)} s CPU`,
);
const slow = lines
  .map((l) => JSON.parse(l) as { name: string; ms: number; classes: number[] })
  .sort((x, y) => y.ms - x.ms)
  .slice(0, 8);
console.log(`slowest: ${slow.map((x) => `${x.name} [${x.classes}] ${x.ms}`).join('; ')}`);
const old = a.get('compare');
if (old) {
  const before = fs
    .readFileSync(old, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { f: string[] });
  let same = 0;
  let top10 = 0;
  let all = 0;
  let changed = 0;
  for (const [i, l] of lines.entries()) {
    const x = (JSON.parse(l) as { f: string[] }).f;
    const y = before[i]?.f ?? [];
    if (x.join() === y.join()) {
      same++;
      continue;
    }
    changed++;
    const keep = (k: number) => {
      const ys = new Set(y.slice(0, k));
      return ys.size ? x.slice(0, k).filter((v) => ys.has(v)).length / ys.size : 1;
    };
    top10 += keep(10);
    all += keep(500);
    if (changed <= 5) console.log(`changed: ${JSON.parse(l).name}: first 10 ${x.slice(0, 10)} (was ${y.slice(0, 10)})`);
  }
  const share = (x: number) => (changed ? ((100 * x) / changed).toFixed(1) : '-');
  console.log(
    `against ${old}: ${same}/${lines.length} answers unchanged; the ${changed} changed keep on average ` +
      `${share(top10)}% of their first 10, ${share(all)}% of all`,
  );
}
await deps.close();
process.exit(0);
