// A local cluster of every kind of part a deployment past one machine has (issue 45, item 7; docs/deploy.md, "A local
// cluster"): PostgreSQL 15 managed by Patroni on two nodes with one etcd; a Redis master, a replica and three
// Sentinels; the ML sidecar, a workers node and two API nodes; HAProxy in front of the API nodes and of PostgreSQL's
// primary and replicas. The Node parts find each other only through HAProxy's PostgreSQL ports, the Sentinels, the
// object store (DIR/objects) and ML_URL, as separate machines would. `npm run cluster` runs one on the documented
// ports under var/cluster/; test/cluster/cluster.test.ts runs one of its own on ports it found free.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { haproxyConfig, patroniConfig, sentinelConfig } from './configs.ts';
import { type ClusterPorts, clusterPorts, DATABASE, SENTINEL_NAME } from './ports.ts';
import { DEFAULT_DIR, get, listening, Parts, ROOT, until } from './processes.ts';

export interface ClusterOptions {
  dir: string;
  ports: ClusterPorts;
  /** Given to every Node part over what it gets anyway (limits for a benchmark, a test's webhook settings). */
  env?: Record<string, string>;
  say?: (message: string) => void;
}

// Stopped in this order: the API nodes first, the engines they need last.
const ORDER = ['api1', 'api2', 'workers', 'sidecar', 'haproxy', 'sentinel-0', 'sentinel-1', 'sentinel-2', 'redis-replica', 'redis-master'];
const ENGINES = ['pg2', 'pg1', 'etcd'];

export class LocalCluster {
  readonly parts: Parts;
  readonly dir: string;
  readonly ports: ClusterPorts;
  private readonly say: (message: string) => void;

  constructor(private readonly o: ClusterOptions) {
    this.dir = o.dir;
    this.ports = o.ports;
    this.parts = new Parts(o.dir);
    this.say = o.say ?? ((m) => console.error(`[cluster] ${m}`));
  }

  /** PostgreSQL through HAProxy: its primary (`replicas` false) or its replicas. */
  pgUrl(replicas = false): string {
    return `postgres://postgres:postgres@127.0.0.1:${replicas ? this.ports.haproxyReplicas : this.ports.haproxyPrimary}/${DATABASE}`;
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${this.ports.haproxyApi}`;
  }

  /** Starts whatever is not running and waits until each part answers; the first `up` imports the demo register. */
  async up(): Promise<void> {
    const { ports, dir, parts } = this;
    execFileSync('bash', [path.join(ROOT, 'scripts', 'ensure-cluster-packages.sh')], { stdio: 'inherit' });
    execFileSync('bash', [path.join(ROOT, 'scripts', 'ensure-pgvector.sh')], { stdio: 'inherit' });
    for (const d of ['etcd', 'pg1', 'pg2', 'redis', 'objects']) fs.mkdirSync(path.join(dir, d), { recursive: true });
    const root = process.getuid?.() === 0;
    if (root) {
      // PostgreSQL runs as postgres: it must reach its folders through the cluster's (a test's is made 0700).
      fs.chmodSync(dir, 0o755);
      execFileSync('chown', ['-R', 'postgres:postgres', path.join(dir, 'pg1'), path.join(dir, 'pg2')]);
    }

    const etcdUrl = (port: number) => `http://127.0.0.1:${port}`;
    parts.start('etcd', {
      command: 'etcd',
      args: [
        ...['--name', 'nishaan-etcd', '--data-dir', path.join(dir, 'etcd')],
        ...['--listen-client-urls', etcdUrl(ports.etcd), '--advertise-client-urls', etcdUrl(ports.etcd)],
        ...['--listen-peer-urls', etcdUrl(ports.etcdPeer), '--initial-advertise-peer-urls', etcdUrl(ports.etcdPeer)],
        ...['--initial-cluster', `nishaan-etcd=${etcdUrl(ports.etcdPeer)}`],
      ],
    });
    await until('etcd answering', async () => (await get(`${etcdUrl(ports.etcd)}/health`))?.status === 200, 30_000, parts.logFile('etcd'));
    this.say('etcd up');

    for (const pg of ['pg1', 'pg2'] as const) {
      const file = patroniConfig(dir, ports, pg);
      if (root) execFileSync('chown', ['postgres:postgres', file]);
      parts.start(pg, { command: 'patroni', args: [file], asPostgres: true });
    }
    await until(
      'a PostgreSQL primary (the Patroni leader)',
      async () => (await this.pgNode('primary')) !== null,
      120_000,
      parts.logFile('pg1'),
    );
    await until(
      'a PostgreSQL replica streaming from it',
      async () => (await this.pgNode('replica')) !== null,
      180_000,
      parts.logFile('pg2'),
    );
    this.say('PostgreSQL primary and replica up (Patroni)');

    parts.start('redis-master', { command: 'redis-server', args: this.redisArgs(ports.redisMaster) });
    parts.start('redis-replica', {
      command: 'redis-server',
      args: [...this.redisArgs(ports.redisReplica), '--replicaof', '127.0.0.1', String(ports.redisMaster)],
    });
    ports.sentinels.forEach((p, i) => {
      parts.start(`sentinel-${i}`, { command: 'redis-server', args: [sentinelConfig(path.join(dir, 'redis'), ports, p), '--sentinel'] });
    });
    for (const p of [ports.redisMaster, ports.redisReplica, ...ports.sentinels]) await until(`Redis on ${p}`, () => listening(p), 20_000);
    this.say('Redis master, replica and Sentinels up');

    parts.start('haproxy', { command: 'haproxy', args: ['-f', haproxyConfig(dir, ports)] });
    await until('HAProxy', () => listening(ports.haproxyPrimary), 20_000, parts.logFile('haproxy'));
    this.say('HAProxy up');

    parts.start('sidecar', this.node('sidecar', 'sidecar', {}));
    const workersLog = this.logSize('workers');
    const workersWere = parts.pidOf('workers');
    parts.start('workers', this.node('workers', 'workers,clearance', { CLEARANCE_WORKERS: '1' }));
    // The workers node prepares the database and, on the first up, imports the demo register: the API nodes after it.
    if (!workersWere) {
      const said = async () => fs.readFileSync(parts.logFile('workers')).subarray(workersLog).toString().includes('Nishaan node running');
      await until('the workers node (database prepared, demo register imported)', said, 30 * 60_000, parts.logFile('workers'));
    }
    this.say('workers node up');
    for (const name of ['api1', 'api2'] as const) {
      parts.start(name, this.node(name, 'api', { PORT: String(ports[name]), API_PROCESSES: '1' }));
    }
    for (const name of ['api1', 'api2'] as const) {
      const ready = async () => (await get(`http://127.0.0.1:${ports[name]}/readyz`))?.status === 200;
      await until(`${name} ready`, ready, 10 * 60_000, parts.logFile(name));
    }
    await until(
      'the API through HAProxy',
      async () => (await get(`${this.apiUrl}/readyz`))?.status === 200,
      30_000,
      parts.logFile('haproxy'),
    );
    this.say(`up: the API at ${this.apiUrl} (HAProxy), PostgreSQL at 127.0.0.1:${ports.haproxyPrimary}`);
  }

  /** Stops every part (the API nodes first), keeping its data unless `wipe`. */
  async down(wipe: boolean): Promise<void> {
    for (const name of [...ORDER, ...ENGINES]) if (await this.parts.stop(name)) this.say(`${name} stopped`);
    if (wipe) fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** Each part: running or stopped, and what it says of itself. */
  async status(): Promise<[string, string, string][]> {
    const { ports, parts } = this;
    const rows: [string, string, string][] = [];
    const row = async (name: string, detail: () => Promise<string>) => {
      const pid = parts.pidOf(name);
      rows.push([name, pid ? `running (${pid})` : 'stopped', pid ? await detail().catch((e: Error) => e.message) : '']);
    };
    await row('etcd', async () => `health ${(await get(`http://127.0.0.1:${ports.etcd}/health`))?.body ?? 'no answer'}`);
    for (const pg of ['pg1', 'pg2'] as const) await row(pg, async () => `${ports[pg]}, ${(await this.patroniRole(pg)) ?? 'no answer'}`);
    for (const [name, port] of [
      ['redis-master', ports.redisMaster],
      ['redis-replica', ports.redisReplica],
    ] as const) {
      await row(name, async () => `${port}, ${redisCli(port, 'ROLE').split('\n')[0]}`);
    }
    for (const [i, p] of ports.sentinels.entries()) {
      const master = () => redisCli(p, 'SENTINEL', 'get-master-addr-by-name', SENTINEL_NAME).replace('\n', ':');
      await row(`sentinel-${i}`, async () => `${p}, master at ${master()}`);
    }
    await row('haproxy', async () => `API ${ports.haproxyApi}: ${(await get(`${this.apiUrl}/readyz`))?.status ?? 'no answer'}`);
    await row('sidecar', async () => `${ports.sidecar}: ${(await listening(ports.sidecar)) ? 'listening' : 'not listening'}`);
    await row('workers', async () => 'workers, clearance');
    for (const name of ['api1', 'api2'] as const) {
      await row(name, async () => `${ports[name]}: readyz ${(await get(`http://127.0.0.1:${ports[name]}/readyz`))?.status ?? 'no answer'}`);
    }
    return rows;
  }

  /** The PostgreSQL node that Patroni's REST check `check` ('primary' or 'replica') answers 200 on, if any. */
  async pgNode(check: 'primary' | 'replica'): Promise<'pg1' | 'pg2' | null> {
    for (const [name, port] of [
      ['pg1', this.ports.patroni1],
      ['pg2', this.ports.patroni2],
    ] as const) {
      if ((await get(`http://127.0.0.1:${port}/${check}`))?.status === 200) return name;
    }
    return null;
  }

  /** The Redis part the Sentinels name master now. */
  redisMaster(): 'redis-master' | 'redis-replica' {
    const port = Number(redisCli(this.ports.sentinels[0]!, 'SENTINEL', 'get-master-addr-by-name', SENTINEL_NAME).split('\n')[1]);
    return port === this.ports.redisMaster ? 'redis-master' : 'redis-replica';
  }

  private async patroniRole(pg: 'pg1' | 'pg2'): Promise<string | null> {
    const r = await get(`http://127.0.0.1:${pg === 'pg1' ? this.ports.patroni1 : this.ports.patroni2}/patroni`);
    return r ? ((JSON.parse(r.body) as { role?: string }).role ?? null) : null;
  }

  /** What every Node part is given: where the shared engines are, and its own folders. */
  private node(name: string, roles: string, extra: Record<string, string>) {
    const own = path.join(this.dir, name);
    const env: Record<string, string> = {
      NODE_ROLES: roles,
      HOST: '127.0.0.1',
      DATABASE_URL: this.pgUrl(),
      DATABASE_REPLICA_URLS: this.pgUrl(true),
      REDIS_SENTINELS: this.ports.sentinels.map((p) => `127.0.0.1:${p}`).join(','),
      REDIS_SENTINEL_NAME: SENTINEL_NAME,
      OBJECT_STORE_DIR: path.join(this.dir, 'objects'),
      SECRETS_FILE: path.join(this.dir, 'secrets.env'),
      SEARCH_SNAPSHOT: path.join(own, 'index.snapshot'),
      SEARCH_SNAPSHOT_SHARE: 'true',
      UPLOAD_DIR: path.join(own, 'uploads'),
      DEMO_DIR: path.join(this.dir, 'demo'),
      ML_URL: `http://127.0.0.1:${this.ports.sidecar}`,
      TRUSTED_PROXIES: '127.0.0.1/32',
      DRAIN_NOTICE_MS: '3000',
      ...this.o.env,
      ...extra,
    };
    return { command: process.execPath, args: ['--import', 'tsx', path.join(ROOT, 'scripts', 'start.ts')], env };
  }

  private redisArgs(port: number): string[] {
    const dir = path.join(this.dir, 'redis');
    return [
      ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--dbfilename', `dump-${port}.rdb`],
      ...['--appendonly', 'yes', '--appendfilename', `appendonly-${port}.aof`, '--save', ''],
    ];
  }

  private logSize(name: string): number {
    try {
      return fs.statSync(this.parts.logFile(name)).size;
    } catch {
      return 0;
    }
  }
}

/** The cluster `npm run cluster` runs: under CLUSTER_DIR (var/cluster/), on CLUSTER_PORTS_FROM's ports or the documented ones. */
export function clusterFromEnv(env: Record<string, string> = {}): LocalCluster {
  const from = Number(process.env.CLUSTER_PORTS_FROM) || undefined;
  return new LocalCluster({ dir: process.env.CLUSTER_DIR || DEFAULT_DIR, ports: clusterPorts(from), env });
}

function redisCli(port: number, ...args: string[]): string {
  return execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8', timeout: 3000 }).trim();
}
