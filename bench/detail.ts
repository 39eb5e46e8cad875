// GET /v1/trademarks/{app_no}/ throughput and latency: the API (one process) beside a bare
// node:http + pg handler running the same query, same sample of marks, same load, one run.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/nishaan_bench npx tsx bench/detail.ts [--duration 30] [--connections 16]

import { createBenchAccounts } from './account.ts';
import { args, DEFAULT_URL, detailPaths, loadEnv, measure, sampleMarks, startProcess, table } from './lib.ts';

const a = args();
const o = { duration: Number(a.get('duration') ?? 30), connections: Number(a.get('connections') ?? 16) };
const url = process.env.DATABASE_URL ?? DEFAULT_URL;
const env = loadEnv(url, o.connections);
const paths = detailPaths(await sampleMarks(url, 20_000));
const keys = await createBenchAccounts(url, 4);
const rows = [];
const servers = [
  ['bare node:http + pg', './servers/bare.ts', 3901, '1'],
  ['Nishaan API, checks off', './servers/api.ts', 3902, '1'],
  ['Nishaan API, auth + limits + quota', './servers/api.ts', 3903, '0'],
] as const;
for (const [name, script, port, unguarded] of servers) {
  const child = await startProcess(script, { ...env, PORT: String(port), BENCH_UNGUARDED: unguarded });
  try {
    rows.push(await measure(name, port, paths, { ...o, keys }));
  } finally {
    child.kill('SIGTERM');
  }
}
console.log(`\n${o.duration}s x ${o.connections} connections, GET /v1/trademarks/{app_no}/`);
table(rows);
const [bare, api, guarded] = rows;
console.log(`\nthroughput ratio API / bare = ${(api.rps / bare.rps).toFixed(2)} (target >= 0.5); API p50 = ${api.p50} ms (target <= 3)`);
console.log(`with auth + limits + quota: ratio ${(guarded.rps / bare.rps).toFixed(2)}, p50 ${guarded.p50} ms`);
