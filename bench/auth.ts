// What authentication, limits and quotas cost per request: the same API process and endpoint
// (GET /v1/trademarks/{app_no}/) with the checks on and switched off, same sample, one run.
// Limits are set high enough not to refuse: the checks run in full (key lookup, Redis limiters,
// concurrency slot, quota reservation), they just never say no.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/nishaan_bench npx tsx bench/auth.ts [--duration 30] [--connections 16] [--rate N] [--accounts 4]
import { args, DEFAULT_URL, measure, sampleMarks, startProcess, table } from './lib.ts';
import { createBenchAccounts } from './account.ts';

const a = args();
// --rate N caps the offered load (requests per second) to see the cost below saturation.
const o = { duration: Number(a.get('duration') ?? 30), connections: Number(a.get('connections') ?? 16), rate: a.has('rate') ? Number(a.get('rate')) : undefined };
const url = process.env.DATABASE_URL ?? DEFAULT_URL;
const env = {
  DATABASE_URL: url, DB_POOL_MAX: String(o.connections), RATE_KEY_PER_SECOND: '1000000', RATE_IP_PER_MINUTE: '100000000',
  RATE_LIMIT_PREFIX: `bench:${process.pid}`,
};
const apps = await sampleMarks(url, 20_000);
const keys = await createBenchAccounts(url, Number(a.get("accounts") ?? 4));
const rows = [];
for (const [name, unguarded, port] of [['checks off', '1', 3911], ['auth + limits + quota', '0', 3912]] as const) {
  const child = await startProcess('./servers/api.ts', { ...env, PORT: String(port), BENCH_UNGUARDED: unguarded });
  try {
    rows.push(await measure(name, port, apps, { ...o, keys }));
  } finally {
    child.kill('SIGTERM');
  }
}
console.log(`\n${o.duration}s x ${o.connections} connections${o.rate ? ` at ${o.rate} req/s` : ''}, GET /v1/trademarks/{app_no}/`);
table(rows);
const [off, on] = rows;
console.log(`\np50 added by the checks = ${on.p50 - off.p50} ms (target <= 1); throughput ratio on/off = ${(on.rps / off.rps).toFixed(2)}`);
