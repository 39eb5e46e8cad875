// A local cluster of every kind of part a deployment past one machine has, on this machine (issue 45, item 7):
//   npm run cluster -- up | status | down
// PostgreSQL 15 managed by Patroni on 5433 and 5434 with one etcd; Redis master 6380, replica 6381 and Sentinels
// 26380-26382; the ML sidecar (3101), a workers node, two API nodes (3001, 3002); HAProxy on 8080 (API), 5000
// (PostgreSQL's primary) and 5001 (its replicas). The Node parts find each other only through HAProxy's
// PostgreSQL ports, the Sentinels, the object store (var/cluster/objects) and ML_URL, as separate machines would.
// `up` installs Debian's packages when missing, starts what is not running and waits until each part answers;
// the first `up` imports the demo register (DEMO_RECORDS marks, 50,000 unless set). Everything lives under
// var/cluster/: `down` stops the parts and keeps their data; `down --wipe` removes it too. docs/deploy.md.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { haproxyConfig, patroniConfig, sentinelConfig } from './cluster/configs.ts';
import { DATABASE, PORTS, SENTINEL_NAME } from './cluster/ports.ts';
import { DIR, get, listening, pidOf, ROOT, startPart, stopPart, until } from './cluster/processes.ts';

const PG_URL = (port: number) => `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`;

/** What every Node part of the cluster is given: where the shared engines are, and its own folders. */
function nodeEnv(name: string, roles: string, extra: Record<string, string> = {}): Record<string, string> {
  const own = path.join(DIR, name);
  return {
    NODE_ROLES: roles,
    HOST: '127.0.0.1',
    DATABASE_URL: PG_URL(PORTS.haproxyPrimary),
    DATABASE_REPLICA_URLS: PG_URL(PORTS.haproxyReplicas),
    REDIS_SENTINELS: PORTS.sentinels.map((p) => `127.0.0.1:${p}`).join(','),
    REDIS_SENTINEL_NAME: SENTINEL_NAME,
    OBJECT_STORE_DIR: path.join(DIR, 'objects'),
    SECRETS_FILE: path.join(DIR, 'secrets.env'),
    SEARCH_SNAPSHOT: path.join(own, 'index.snapshot'),
    SEARCH_SNAPSHOT_SHARE: 'true',
    UPLOAD_DIR: path.join(own, 'uploads'),
    DEMO_DIR: path.join(DIR, 'demo'),
    ML_URL: `http://127.0.0.1:${PORTS.sidecar}`,
    TRUSTED_PROXIES: '127.0.0.1/32',
    DRAIN_NOTICE_MS: '3000',
    ...extra,
  };
}

const node = (name: string, roles: string, extra?: Record<string, string>) => ({
  command: process.execPath,
  args: ['--import', 'tsx', path.join(ROOT, 'scripts', 'start.ts')],
  env: nodeEnv(name, roles, extra),
});

async function patroniRole(port: number): Promise<string | null> {
  const r = await get(`http://127.0.0.1:${port}/patroni`);
  return r ? ((JSON.parse(r.body) as { role?: string; state?: string }).role ?? null) : null;
}

/** Waits for a line the part prints once started, in what its log gained since `from`. */
function logSays(name: string, from: number, text: string) {
  return async () => {
    const file = path.join(DIR, 'log', `${name}.log`);
    const all = fs.readFileSync(file);
    return all.subarray(from).toString().includes(text);
  };
}

const logSize = (name: string) => {
  try {
    return fs.statSync(path.join(DIR, 'log', `${name}.log`)).size;
  } catch {
    return 0;
  }
};

async function up(): Promise<void> {
  execFileSync('bash', [path.join(ROOT, 'scripts', 'ensure-cluster-packages.sh')], { stdio: 'inherit' });
  execFileSync('bash', [path.join(ROOT, 'scripts', 'ensure-pgvector.sh')], { stdio: 'inherit' });
  for (const d of ['etcd', 'pg1', 'pg2', 'redis', 'objects']) fs.mkdirSync(path.join(DIR, d), { recursive: true });
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', path.join(DIR, 'pg1'), path.join(DIR, 'pg2')]);
  const say = (m: string) => console.error(`[cluster] ${m}`);

  startPart('etcd', {
    command: 'etcd',
    args: [
      ...['--name', 'nishaan-etcd', '--data-dir', path.join(DIR, 'etcd')],
      ...['--listen-client-urls', `http://127.0.0.1:${PORTS.etcd}`, '--advertise-client-urls', `http://127.0.0.1:${PORTS.etcd}`],
      ...[
        '--listen-peer-urls',
        `http://127.0.0.1:${PORTS.etcdPeer}`,
        '--initial-advertise-peer-urls',
        `http://127.0.0.1:${PORTS.etcdPeer}`,
      ],
      ...['--initial-cluster', `nishaan-etcd=http://127.0.0.1:${PORTS.etcdPeer}`],
    ],
  });
  await until('etcd answering', async () => (await get(`http://127.0.0.1:${PORTS.etcd}/health`))?.status === 200, 30_000, 'etcd');
  say('etcd up');

  for (const pg of ['pg1', 'pg2'] as const) {
    const file = patroniConfig(DIR, pg);
    if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', file]);
    startPart(pg, { command: 'patroni', args: [file], asPostgres: true });
  }
  const role = async (check: string) =>
    (await get(`http://127.0.0.1:${PORTS.patroni1}/${check}`))?.status === 200 ||
    (await get(`http://127.0.0.1:${PORTS.patroni2}/${check}`))?.status === 200;
  await until('a PostgreSQL primary (the Patroni leader)', () => role('primary'), 120_000, 'pg1');
  await until('a PostgreSQL replica streaming from it', () => role('replica'), 180_000, 'pg2');
  say('PostgreSQL primary and replica up (Patroni)');

  startPart('redis-master', { command: 'redis-server', args: redisArgs(PORTS.redisMaster) });
  startPart('redis-replica', {
    command: 'redis-server',
    args: [...redisArgs(PORTS.redisReplica), '--replicaof', '127.0.0.1', String(PORTS.redisMaster)],
  });
  for (const p of PORTS.sentinels)
    startPart(`sentinel-${p}`, { command: 'redis-server', args: [sentinelConfig(path.join(DIR, 'redis'), p), '--sentinel'] });
  for (const p of [PORTS.redisMaster, PORTS.redisReplica, ...PORTS.sentinels]) await until(`Redis on ${p}`, () => listening(p), 20_000);
  say('Redis master, replica and Sentinels up');

  startPart('haproxy', { command: 'haproxy', args: ['-f', haproxyConfig(DIR)] });
  await until('HAProxy', () => listening(PORTS.haproxyPrimary), 20_000, 'haproxy');
  say('HAProxy up');

  startPart('sidecar', node('sidecar', 'sidecar'));
  const workersLog = logSize('workers');
  const workersWere = pidOf('workers');
  startPart('workers', node('workers', 'workers,clearance', { CLEARANCE_WORKERS: '1' }));
  // The workers node prepares the database and, on the first up, imports the demo register: the API nodes after it.
  if (!workersWere)
    await until(
      'the workers node (database prepared, demo register imported)',
      logSays('workers', workersLog, 'Nishaan node running'),
      30 * 60_000,
      'workers',
    );
  say('workers node up');
  for (const [name, port] of [
    ['api1', PORTS.api1],
    ['api2', PORTS.api2],
  ] as const) {
    startPart(name, node(name, 'api', { PORT: String(port), API_PROCESSES: '1' }));
  }
  for (const [name, port] of [
    ['api1', PORTS.api1],
    ['api2', PORTS.api2],
  ] as const) {
    await until(`${name} ready`, async () => (await get(`http://127.0.0.1:${port}/readyz`))?.status === 200, 10 * 60_000, name);
  }
  await until(
    'the API through HAProxy',
    async () => (await get(`http://127.0.0.1:${PORTS.haproxyApi}/readyz`))?.status === 200,
    30_000,
    'haproxy',
  );
  say(`up: the API at http://127.0.0.1:${PORTS.haproxyApi} (HAProxy), PostgreSQL at 127.0.0.1:${PORTS.haproxyPrimary}`);
}

function redisArgs(port: number): string[] {
  const dir = path.join(DIR, 'redis');
  return [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--dbfilename',
    `dump-${port}.rdb`,
    '--appendonly',
    'yes',
    '--appendfilename',
    `appendonly-${port}.aof`,
    '--save',
    '',
  ];
}

const ORDER = [
  'api1',
  'api2',
  'workers',
  'sidecar',
  'haproxy',
  ...PORTS.sentinels.map((p) => `sentinel-${p}`),
  'redis-replica',
  'redis-master',
  'pg2',
  'pg1',
  'etcd',
];

async function down(wipe: boolean): Promise<void> {
  for (const name of ORDER) if (await stopPart(name)) console.error(`[cluster] ${name} stopped`);
  if (wipe) fs.rmSync(DIR, { recursive: true, force: true });
}

async function status(): Promise<void> {
  const rows: [string, string, string][] = [];
  const row = async (name: string, detail: () => Promise<string>) => {
    const pid = pidOf(name);
    rows.push([name, pid ? `running (${pid})` : 'stopped', pid ? await detail().catch((e: Error) => e.message) : '']);
  };
  await row('etcd', async () => `health ${(await get(`http://127.0.0.1:${PORTS.etcd}/health`))?.body ?? 'no answer'}`);
  await row('pg1', async () => `${PORTS.pg1}, ${(await patroniRole(PORTS.patroni1)) ?? 'no answer'}`);
  await row('pg2', async () => `${PORTS.pg2}, ${(await patroniRole(PORTS.patroni2)) ?? 'no answer'}`);
  for (const [name, port] of [
    ['redis-master', PORTS.redisMaster],
    ['redis-replica', PORTS.redisReplica],
  ] as const) {
    await row(name, async () => `${port}, ${redisCli(port, 'ROLE').split('\n')[0]}`);
  }
  for (const p of PORTS.sentinels) {
    await row(
      `sentinel-${p}`,
      async () => `master at ${redisCli(p, 'SENTINEL', 'get-master-addr-by-name', SENTINEL_NAME).replace('\n', ':')}`,
    );
  }
  await row(
    'haproxy',
    async () => `API ${PORTS.haproxyApi}: ${(await get(`http://127.0.0.1:${PORTS.haproxyApi}/readyz`))?.status ?? 'no answer'}`,
  );
  await row('sidecar', async () => `${PORTS.sidecar}: ${(await listening(PORTS.sidecar)) ? 'listening' : 'not listening'}`);
  await row('workers', async () => 'workers, clearance');
  for (const [name, port] of [
    ['api1', PORTS.api1],
    ['api2', PORTS.api2],
  ] as const) {
    await row(name, async () => `${port}: readyz ${(await get(`http://127.0.0.1:${port}/readyz`))?.status ?? 'no answer'}`);
  }
  for (const [name, state, detail] of rows) console.log(`${name.padEnd(16)} ${state.padEnd(18)} ${detail}`);
}

function redisCli(port: number, ...args: string[]): string {
  return execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8', timeout: 3000 }).trim();
}

const [command, flag] = process.argv.slice(2);
const run = command === 'up' ? up() : command === 'down' ? down(flag === '--wipe') : command === 'status' ? status() : null;
if (!run) {
  console.error('usage: npm run cluster -- up | status | down [--wipe]');
  process.exit(2);
}
run.catch((err: Error) => {
  console.error(`[cluster] ${err.message}`);
  process.exit(1);
});
