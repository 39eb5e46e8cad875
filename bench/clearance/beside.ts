// Issue 41's speed measures beside older code, in one run: bench/clearance/timing.ts for this checkout and for the
// checkout at --base (a worktree of the code to compare with, its own search snapshot built by its own
// scripts/search-index.ts), alternated --sittings times, each sitting a fresh process, on the same names; prints each
// sitting's figures and the ratios this / base. A single clearance's tail moves by a tenth between sittings on two
// shared cores, so only alternated pairs are compared.
//   DATABASE_URL=... npx tsx bench/clearance/beside.ts --base DIR --base-snapshot FILE --snapshot FILE [--sittings 2]
//     [--latency 200] [--batch 1000] [--warm 100] [--seed 21]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { args } from '../lib.ts';

const a = args();
const base = a.get('base');
const baseSnapshot = a.get('base-snapshot');
const snapshot = a.get('snapshot');
if (!base || !baseSnapshot || !snapshot) throw new Error('--base DIR, --base-snapshot FILE and --snapshot FILE are required');
const sittings = Number(a.get('sittings') ?? 2);
const pass = ['latency', 'batch', 'warm', 'seed'].flatMap((k) => (a.has(k) ? [`--${k}`, a.get(k)!] : []));

interface Sitting {
  p50: number;
  p95: number;
  p99: number;
  batch: number;
  batchS: number;
}

function sit(root: string, file: string): Sitting {
  const timing = path.join(import.meta.dirname, 'timing.ts');
  const out = execFileSync('npx', ['tsx', timing, '--root', root, ...pass], {
    env: { ...process.env, SEARCH_SNAPSHOT: file },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  return JSON.parse(out.trim().split('\n').pop()!);
}

const f = (x: number) => (x < 10 ? x.toFixed(1) : x.toFixed(0));
console.log('| sitting | code | p50 ms | p95 ms | p99 ms | batch s | p95 this / base | batch this / base |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (let i = 1; i <= sittings; i++) {
  // Alternated: the first sitting measures this checkout first, the second the base first, and so on.
  const order = i % 2 ? ['this', 'base'] : ['base', 'this'];
  const got: Record<string, Sitting> = {};
  for (const who of order) got[who] = who === 'this' ? sit(process.cwd(), snapshot) : sit(path.resolve(base), baseSnapshot);
  for (const who of order) {
    const x = got[who];
    console.log(`| ${i} | ${who} | ${f(x.p50)} | ${f(x.p95)} | ${f(x.p99)} | ${x.batchS.toFixed(1)} (${x.batch} names) | | |`);
  }
  console.log(`| ${i} | ratio | | | | | ${(got.this.p95 / got.base.p95).toFixed(2)} | ${(got.this.batchS / got.base.batchS).toFixed(2)} |`);
}
