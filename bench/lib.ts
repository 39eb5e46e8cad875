// Shared by the benchmarks: argument parsing, sampling marks, starting server processes, load.
import { type ChildProcess, fork } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';

export function args(): Map<string, string> {
  const a = new Map<string, string>();
  for (let i = 2; i < process.argv.length; i += 2) a.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
  return a;
}

export const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/nishaan_bench';

/**
 * An API process's environment for a load run: a pool of `pool` connections, and limits high enough
 * never to refuse, so that the checks run in full but the figures are the endpoint's, not refusals.
 */
export const loadEnv = (url: string, pool: number) => ({
  DATABASE_URL: url,
  DB_POOL_MAX: String(pool),
  RATE_KEY_PER_SECOND: '1000000',
  RATE_IP_PER_MINUTE: '100000000',
  RATE_LIMIT_PREFIX: `bench:${process.pid}`,
});

/** Paths of GET /v1/trademarks/{app_no}/ for the sampled marks. */
export const detailPaths = (apps: string[]) => apps.map((a) => `/v1/trademarks/${a}/`);

export async function sampleMarks(url: string, n: number): Promise<string[]> {
  const c = new pg.Client(url);
  await c.connect();
  const total = (await c.query('select count(*)::int as n from trademarks')).rows[0].n as number;
  const pct = Math.min(100, Math.max(0.001, (n * 3 * 100) / Math.max(total, 1)));
  const r = await c.query(`select application_number from trademarks tablesample system (${pct}) limit ${n}`);
  await c.end();
  console.log(`registry: ${total} marks; sampled ${r.rows.length} application numbers`);
  return r.rows.map((x) => x.application_number);
}

export function startProcess(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(new URL(script, import.meta.url).pathname, [], { env: { ...process.env, ...env }, execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

export interface Row {
  name: string;
  rps: number;
  p50: number;
  p97_5: number;
  p99: number;
  non2xx: number;
}

/**
 * Warm-up, then a measured run; requests rotate over `paths` and over `keys` (accounts of their
 * own): a plan allows at most 10 requests in flight, so 16 connections on one key would measure
 * concurrency refusals instead of the endpoint.
 */
export async function measure(
  name: string,
  port: number,
  paths: string[],
  o: { duration: number; connections: number; keys: string[]; rate?: number },
): Promise<Row> {
  let i = 0;
  const run = (limit: { duration: number } | { amount: number }) =>
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: o.connections,
      ...limit,
      overallRate: o.rate,
      requests: [
        {
          setupRequest: (req) => {
            const n = i++;
            return { ...req, path: paths[n % paths.length], headers: { ...req.headers, 'x-api-key': o.keys[n % o.keys.length] } };
          },
        },
      ],
    });
  // Warm-up: every path once (at least 5 s), as the in-process latency runs each query once before
  // timing it. What a search makes on first use (ready answers for common words and short prefixes,
  // kept bitmaps) and the JIT are then warm; the timed run starts again at the first path.
  const t0 = performance.now();
  await run({ amount: paths.length });
  const rest = 5 - (performance.now() - t0) / 1000;
  if (rest >= 1) await run({ duration: Math.ceil(rest) });
  i = 0;
  const r = await run({ duration: o.duration });
  const row = { name, rps: r.requests.average, p50: r.latency.p50, p97_5: r.latency.p97_5, p99: r.latency.p99, non2xx: r.non2xx };
  console.log(JSON.stringify(row));
  return row;
}

export function table(rows: Row[]): void {
  console.log('| server | req/s | p50 ms | p97.5 ms | p99 ms | non-2xx |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p97_5} | ${r.p99} | ${r.non2xx} |`);
}
