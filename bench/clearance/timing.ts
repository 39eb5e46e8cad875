// One sitting of issue 41's speed measures for the checkout at --root (this one by default), for beside.ts: names
// drawn from the register (seeded, live or pending, with words), --warm of them screened untimed first, then one
// clearance of each of --latency names in three classes (its own and two at random), then --batch names two at a
// time, as the batch worker runs them. The checkout's own code is loaded (its src/, by path), so that a worktree of
// older code is timed on the same names by the same loop. Prints one line of JSON.
//   DATABASE_URL=... SEARCH_SNAPSHOT=FILE npx tsx bench/clearance/timing.ts [--root DIR] [--latency 200] [--batch 1000]
//     [--warm 100] [--seed 21]
import path from 'node:path';
import { args, DEFAULT_URL } from '../lib.ts';
import { Rng } from '../rng.ts';
import { liveNames, threeClasses } from './names.ts';

const a = args();
const root = path.resolve(a.get('root') ?? '.');
const latency = Number(a.get('latency') ?? 200);
const batch = Number(a.get('batch') ?? 1000);
const warm = Number(a.get('warm') ?? 100);
const seed = Number(a.get('seed') ?? 21);
const url = process.env.DATABASE_URL ?? DEFAULT_URL;

const { loadConfig } = await import(path.join(root, 'src/config.ts'));
const { createRoot } = await import(path.join(root, 'src/root.ts'));
const deps = createRoot(loadConfig({ ...process.env, DATABASE_URL: url, SEARCH_CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' }));
const engine = await deps.search.ready();

const names = await liveNames(url, warm + latency + batch, seed, engine.indexes[0].n);
const r = new Rng(seed);
const items = names.map((m) => ({ name: m.word_mark, classes: threeClasses(m.class_number, r) }));
const screen = (it: { name: string; classes: number[] }) =>
  deps.services.clearance.screen(
    { word_mark: it.name, classes: it.classes, status: ['live', 'pending'], limit: 20, offset: 0 },
    async () => {},
  );

for (const it of items.slice(0, warm)) await screen(it);
const times: number[] = [];
for (const it of items.slice(warm, warm + latency)) {
  const s = performance.now();
  await screen(it);
  times.push(performance.now() - s);
}
const sorted = [...times].sort((x, y) => x - y);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const queue = items.slice(warm + latency);
let next = 0;
const lane = async () => {
  while (next < queue.length) await screen(queue[next++]);
};
const s = performance.now();
await Promise.all([lane(), lane()]);
const batchS = (performance.now() - s) / 1000;

console.log(JSON.stringify({ root, names: times.length, p50: pct(50), p95: pct(95), p99: pct(99), batch: queue.length, batchS }));
process.exit(0);
