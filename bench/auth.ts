// What authentication, limits and quotas cost per request: the same API process and endpoint
// (GET /v1/trademarks/{app_no}/) with the checks on and switched off, same sample, one run.
// Limits are set high enough not to refuse: the checks run in full (key lookup, Redis admission
// with limits, concurrency slot and credit), they just never say no.
// Both servers run side by side and are measured in turns, off-on-on-off, so that a machine
// warming up (page cache, PostgreSQL buffers) favours neither; the figures are the means of the turns.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/nishaan_bench npx tsx bench/auth.ts \
//     [--duration 30] [--connections 16] [--rate N] [--accounts 8]

import { createBenchAccounts } from './account.ts';
import { args, DEFAULT_URL, detailPaths, loadEnv, measure, type Row, sampleMarks, startProcess, table } from './lib.ts';

const a = args();
// --rate N caps the offered load (requests per second) to see the cost below saturation.
const o = {
  duration: Number(a.get('duration') ?? 30),
  connections: Number(a.get('connections') ?? 16),
  rate: a.has('rate') ? Number(a.get('rate')) : undefined,
};
const url = process.env.DATABASE_URL ?? DEFAULT_URL;
const env = loadEnv(url, o.connections);
const paths = detailPaths(await sampleMarks(url, 20_000));
// Plans allow at most 10 requests in flight: enough accounts that 16 connections never meet that limit.
const keys = await createBenchAccounts(url, Number(a.get('accounts') ?? 8));
const servers = { off: { port: 3911, unguarded: '1' }, on: { port: 3912, unguarded: '0' } } as const;
const children = await Promise.all(
  Object.values(servers).map((s) => startProcess('./servers/api.ts', { ...env, PORT: String(s.port), BENCH_UNGUARDED: s.unguarded })),
);
const turns: Record<'off' | 'on', Row[]> = { off: [], on: [] };
try {
  for (const which of ['off', 'on', 'on', 'off'] as const) {
    turns[which].push(await measure(which === 'off' ? 'checks off' : 'auth + limits + quota', servers[which].port, paths, { ...o, keys }));
  }
} finally {
  for (const c of children) c.kill('SIGTERM');
}
const mean = (rows: Row[], name: string): Row => ({
  name,
  rps: avg(rows.map((r) => r.rps)),
  p50: avg(rows.map((r) => r.p50)),
  p97_5: avg(rows.map((r) => r.p97_5)),
  p99: avg(rows.map((r) => r.p99)),
  non2xx: rows.reduce((s, r) => s + r.non2xx, 0),
});
function avg(xs: number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}
const off = mean(turns.off, 'checks off (mean of 2 turns)');
const on = mean(turns.on, 'auth + limits + quota (mean of 2 turns)');
console.log(`\n${o.duration}s x ${o.connections} connections per turn${o.rate ? ` at ${o.rate} req/s` : ''}, GET /v1/trademarks/{app_no}/`);
table([...turns.off, ...turns.on, off, on]);
console.log(
  `\np50 added by the checks = ${(on.p50 - off.p50).toFixed(1)} ms (target <= 1); ` +
    `throughput ratio on/off = ${(on.rps / off.rps).toFixed(2)}`,
);
