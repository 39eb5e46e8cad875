// The local cluster (npm run cluster) under load (issue 45): searches a second through HAProxy with two API nodes and
// with one, then each failover with mixed traffic running (searches, mark details, clearances, which write):
// an API node killed, the PostgreSQL primary killed (Patroni promotes the replica; HAProxy follows its /primary
// check), the Redis master killed (the Sentinels promote the replica). For each: the requests that failed, and the
// window from the first failure to the first success after it and to the last failure. The part killed is started
// again after each (a PostgreSQL primary comes back as a replica, pg_rewind as needed).
// With --memory-snapshot and --memory-database (the 7.7M register's snapshot and database), it then measures the
// memory of a machine's API processes, the index shared against a copy each at the same count (bench/indexMemory.ts),
// and prints it with the rest: the local cluster's own register is the demo's, too small to tell.
//   npx tsx bench/cluster.ts [--duration 15] [--loops 8] [--parts api,postgres,redis]
//     [--memory-snapshot /tmp/big.snapshot --memory-database postgres://postgres@127.0.0.1:5432/nishaan_big]
import { execFileSync } from 'node:child_process';
import { clusterFromEnv } from '../scripts/cluster/localCluster.ts';
import { get, sleep, until } from '../scripts/cluster/processes.ts';
import { createBenchAccounts } from './account.ts';
import { args, measure } from './lib.ts';

const a = args();
const duration = Number(a.get('duration') ?? 15);
const loops = Number(a.get('loops') ?? 8);
const parts = (a.get('parts') ?? 'api,postgres,redis').split(',');

// The API nodes run with limits no load here reaches (as bench/lib.ts's loadEnv does), so that the figures are the
// service's, not refusals: started again with them if they were running.
const cluster = clusterFromEnv({ RATE_KEY_PER_SECOND: '1000000', RATE_IP_PER_MINUTE: '100000000' });
const API = cluster.apiUrl;
await cluster.parts.stop('api1');
await cluster.parts.stop('api2');
await cluster.up();
const keys = await createBenchAccounts(cluster.pgUrl(), loops);
const WORDS = ['SUNRISE', 'GOLD', 'SHREE', 'KINGFISHER', 'GANESH', 'STAR', 'TIGER', 'LOTUS', 'ROYAL', 'AMRIT'];
const marks = (
  (await (await fetch(`${API}/v1/trademarks/?word_mark=gold&limit=50`, { headers: { 'x-api-key': keys[0] } })).json()) as {
    results: { application_number: string }[];
  }
).results.map((r) => r.application_number);

// Throughput of searches through HAProxy, two API nodes and then one.
const searchPaths = WORDS.flatMap((w) => [`/v1/trademarks/?word_mark=${w}`, `/v1/trademarks/?word_mark=${w}&classes=30`]);
const rate: string[] = [];
for (const nodes of [2, 1]) {
  if (nodes === 1) {
    await cluster.parts.stop('api2');
    await until('HAProxy marking api2 down', async () => (await get(`${API}/readyz`))?.status === 200, 10_000);
    await sleep(3000);
  }
  const r = await measure(`${nodes} API node${nodes > 1 ? 's' : ''}`, cluster.ports.haproxyApi, searchPaths, {
    duration,
    connections: 16,
    keys,
  });
  rate.push(`| ${nodes} | ${r.rps.toFixed(0)} | ${r.p50} / ${r.p99} | ${r.non2xx} |`);
}
await restart('api2');

interface Outcome {
  at: number;
  ok: boolean;
  kind: string;
  status: number;
}

/** Mixed traffic on `loops` keys until stopped: what each request got, and when. */
function traffic(): { stop: () => Promise<Outcome[]> } {
  const out: Outcome[] = [];
  let running = true;
  const one = async (key: string, i: number) => {
    const kind = ['search', 'detail', 'clearance'][i % 3];
    const at = performance.now();
    let status = 0;
    try {
      const r =
        kind === 'clearance'
          ? await fetch(`${API}/v1/clearance/`, {
              method: 'POST',
              headers: { 'x-api-key': key, 'content-type': 'application/json' },
              body: JSON.stringify({ word_mark: `${WORDS[i % WORDS.length]} FOODS`, classes: [29, 30] }),
              signal: AbortSignal.timeout(15_000),
            })
          : await fetch(
              kind === 'search'
                ? `${API}/v1/trademarks/?word_mark=${WORDS[i % WORDS.length]}`
                : `${API}/v1/trademarks/${marks[i % marks.length]}/`,
              {
                headers: { 'x-api-key': key },
                signal: AbortSignal.timeout(15_000),
              },
            );
      await r.arrayBuffer();
      status = r.status;
    } catch {
      status = 0;
    }
    out.push({ at, ok: status >= 200 && status < 300, kind, status });
  };
  const runs = keys.map(async (key, k) => {
    for (let i = k; running; i += keys.length) {
      await one(key, i);
      await sleep(20);
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(runs);
      return out;
    },
  };
}

/** `up` starts again whatever is stopped, and waits until every part answers. */
async function restart(name: string): Promise<void> {
  await cluster.up();
  if (cluster.parts.pidOf(name) === null) throw new Error(`${name} did not come back`);
}

async function leader(): Promise<string> {
  const node = await cluster.pgNode('primary');
  if (!node) throw new Error('no PostgreSQL primary');
  return node;
}

const failovers: string[] = [];
for (const part of parts) {
  const victim = part === 'api' ? 'api1' : part === 'postgres' ? await leader() : cluster.redisMaster();
  const t = traffic();
  await sleep(5000);
  const killedAt = performance.now();
  await cluster.parts.stop(victim, true);
  await sleep(40_000);
  const out = (await t.stop()).sort((x, y) => x.at - y.at);
  const failed = out.filter((o) => !o.ok && o.at >= killedAt - 1000);
  const first = failed[0]?.at;
  const recovered = first === undefined ? undefined : out.find((o) => o.ok && o.at > first)?.at;
  const last = failed.at(-1)?.at;
  const ms = (x: number | undefined) => (x === undefined || first === undefined ? '—' : `${((x - first) / 1000).toFixed(1)} s`);
  const byKind = ['search', 'detail', 'clearance'].map((k) => `${failed.filter((f) => f.kind === k).length}`).join(' / ');
  const statuses = [...new Set(failed.map((f) => f.status))].join(', ') || '—';
  failovers.push(
    `| ${part} (${victim} killed) | ${out.length} | ${failed.length} (${byKind}) | ${statuses} | ${ms(recovered)} | ${ms(last)} |`,
  );
  console.log(failovers.at(-1));
  await restart(victim);
}

console.log('\n| API nodes | search req/s | p50 / p99 ms | non-2xx |\n|---|---|---|---|');
for (const r of rate) console.log(r);
console.log(
  '\n| failover | requests | failed (search / detail / clearance) | failures got | first failure → first success | → last failure |',
);
console.log('|---|---|---|---|---|---|');
for (const f of failovers) console.log(f);

const memorySnapshot = a.get('memory-snapshot');
const memoryDatabase = a.get('memory-database');
if (memorySnapshot && memoryDatabase) {
  // After the cluster's figures, so that its processes do not share the cores with this measure's.
  const table = execFileSync(
    process.execPath,
    ['--import', 'tsx', new URL('./indexMemory.ts', import.meta.url).pathname, '--snapshot', memorySnapshot, '--processes', '2,4'],
    { env: { ...process.env, DATABASE_URL: memoryDatabase }, encoding: 'utf8', maxBuffer: 16 * 2 ** 20 },
  );
  console.log(`\nA machine's API processes at the size of ${memoryDatabase.split('/').pop()}: map (one copy) and read (a copy each)`);
  console.log(table.slice(table.lastIndexOf('| load |')));
} else {
  console.log("\nA machine's API processes: give --memory-snapshot and --memory-database (the 7.7M register) to measure them here");
}
