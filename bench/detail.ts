// GET /v1/trademarks/{app_no}/ throughput and latency: the API (one process) beside a bare
// node:http + pg handler running the same query, same sample of marks, same load, one run.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/nishaan_bench npx tsx bench/detail.ts [--duration 30] [--connections 16]
import { fork, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
const duration = Number(args.get('duration') ?? 30);
const connections = Number(args.get('connections') ?? 16);
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/nishaan_bench';

async function sample(n: number): Promise<string[]> {
  const c = new pg.Client(url);
  await c.connect();
  const total = (await c.query('select count(*)::int as n from trademarks')).rows[0].n as number;
  const pct = Math.min(100, Math.max(0.001, (n * 3 * 100) / Math.max(total, 1)));
  const r = await c.query(`select application_number from trademarks tablesample system (${pct}) limit ${n}`);
  await c.end();
  console.log(`registry: ${total} marks; sampled ${r.rows.length} application numbers`);
  return r.rows.map((x) => x.application_number);
}

function start(script: string, port: number): Promise<ChildProcess> {
  const child = fork(new URL(script, import.meta.url).pathname, [], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), DB_POOL_MAX: String(connections) },
    execArgv: ['--import', 'tsx'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

async function load(port: number, apps: string[], seconds: number) {
  let i = 0;
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, path: `/v1/trademarks/${apps[i++ % apps.length]}/` }) }],
  });
}

async function measure(name: string, script: string, port: number, apps: string[]) {
  const child = await start(script, port);
  try {
    await load(port, apps, 5); // warm-up: pool connections, JIT, page cache
    const r = await load(port, apps, duration);
    const row = { name, rps: r.requests.average, p50: r.latency.p50, p97_5: r.latency.p97_5, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
    console.log(JSON.stringify(row));
    return row;
  } finally {
    child.kill('SIGTERM');
  }
}

const apps = await sample(20_000);
const bare = await measure('bare node:http + pg', './servers/bare.ts', 3901, apps);
const api = await measure('Nishaan API (Express, 1 process)', './servers/api.ts', 3902, apps);
console.log(`\n${duration}s x ${connections} connections, GET /v1/trademarks/{app_no}/`);
console.log('| server | req/s | p50 ms | p97.5 ms | p99 ms | non-2xx |');
console.log('|---|---|---|---|---|---|');
for (const r of [bare, api]) console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p97_5} | ${r.p99} | ${r.non2xx} |`);
console.log(`\nthroughput ratio API / bare = ${(api.rps / bare.rps).toFixed(2)} (target >= 0.5); API p50 = ${api.p50} ms (target <= 3)`);
