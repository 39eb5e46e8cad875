// How npm start's API processes share connections: each accepting its own from the shared socket (SCHED_NONE,
// what npm start uses) against Node's default round robin through the supervisor, in the same run on one
// database. Per policy and kind of client (a new connection per request, or kept-alive connections): requests
// per second, and each API process's share of them (its request log lines).
//
//   nice -n 10 npx tsx bench/clusterPolicy.ts [--seconds 8] [--clients 16]

import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { createDb } from '../src/db/knex.ts';
import { createAccount } from '../test/helpers/accounts.ts';
import { freePort, startStack } from '../test/helpers/stack.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, clients: { type: 'string', default: '16' } } });
const seconds = Number(values.seconds);
const clients = Number(values.clients);
const name = `nishaan_bench_cluster_${randomBytes(3).toString('hex')}`;
const url = `postgres://postgres@127.0.0.1:5432/${name}`;

async function run(policy: 'rr' | 'none', keepAlive: boolean): Promise<{ rps: number; shares: number[] }> {
  const port = await freePort();
  const stack = await startStack({
    PORT: String(port),
    ML_URL: `http://127.0.0.1:${await freePort()}`,
    DATABASE_URL: url,
    DEMO_RECORDS: '0',
    LOG_LEVEL: 'info',
    NODE_ENV: 'development',
    SEARCH_SNAPSHOT: '',
    CLEARANCE_WORKERS: '1',
    QUEUE_PREFIX: name,
    RATE_LIMIT_PREFIX: name,
    RATE_IP_PER_MINUTE: '100000000',
    RATE_KEY_PER_SECOND: '100000000',
    API_CONNECTIONS: policy === 'rr' ? 'round-robin' : 'kernel',
  });
  try {
    const db = createDb(url, 1);
    const { key } = await createAccount(db, { concurrency: 10 });
    await db.destroy();
    const agent = keepAlive ? new http.Agent({ keepAlive: true, maxSockets: clients }) : false;
    let n = 0;
    let go = true;
    const one = () =>
      new Promise<void>((resolve) => {
        const req = http.get(`http://127.0.0.1:${port}/v1/journals/?limit=1`, { agent, headers: { 'X-API-Key': key } }, (res) => {
          res.resume();
          res.on('end', () => {
            n++;
            resolve();
          });
        });
        req.on('error', () => resolve());
      });
    const from = stack.log().length;
    const t0 = performance.now();
    const loops = Array.from({ length: clients }, async () => {
      while (go) await one();
    });
    await new Promise((r) => setTimeout(r, seconds * 1000));
    go = false;
    await Promise.all(loops);
    const rps = n / ((performance.now() - t0) / 1000);
    const byPid = new Map<string, number>();
    for (const line of stack.log().slice(from).split('\n')) {
      const m = /"pid":(\d+).*"msg":"request"/.exec(line);
      if (m) byPid.set(m[1]!, (byPid.get(m[1]!) ?? 0) + 1);
    }
    const total = [...byPid.values()].reduce((a, b) => a + b, 0);
    return { rps, shares: [...byPid.values()].map((v) => v / total).sort((a, b) => b - a) };
  } finally {
    await stack.stop();
  }
}

const admin = createDb('postgres://postgres@127.0.0.1:5432/postgres', 1);
await admin.raw(`create database ${name}`);
try {
  const { migrateLatest } = await import('../src/db/migrate.ts');
  const db = createDb(url, 1);
  await migrateLatest(db);
  await db.destroy();
  console.log(`${clients} clients, ${seconds} s each, GET /v1/journals/?limit=1 through npm start`);
  for (const keepAlive of [false, true]) {
    const rr = await run('rr', keepAlive);
    const none = await run('none', keepAlive);
    const pct = (s: number[]) => s.map((x) => `${(x * 100).toFixed(0)} %`).join(' / ');
    const kind = keepAlive ? 'kept-alive connections' : 'a new connection per request';
    console.log(
      `${kind}: round robin ${rr.rps.toFixed(0)} req/s (${pct(rr.shares)}), each process accepting ` +
        `${none.rps.toFixed(0)} req/s (${pct(none.shares)}); ratio ${(none.rps / rr.rps).toFixed(2)}`,
    );
  }
} finally {
  await admin.raw(`drop database if exists ${name} with (force)`);
  await admin.destroy();
}
