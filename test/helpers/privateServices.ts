import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './stack.ts';

// A PostgreSQL cluster and a Redis server of a test's own (own ports, own temporary folders), to be stopped
// and started again while an app runs on them: the machine's shared servers are never touched.

const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface PrivateService {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open and nothing is answered, until resume(). */
  pause?(): void;
  resume?(): void;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

/** Resolves once something accepts connections on the port (or rejects after `ms`). */
async function listening(port: number, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`nothing listens on port ${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A fresh PostgreSQL 15 cluster (initdb, trust auth, fsync off) on a free loopback port, with the machine's
 * pgvector build (scripts/ensure-pgvector.sh installs it for these binaries). PostgreSQL refuses to run as
 * root: under root the cluster belongs to the postgres user.
 */
export async function privatePostgres(replicaOf?: PrivateService): Promise<PrivateService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const run = (bin: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, bin), ...args], { stdio: 'pipe' })
      : execFileSync(path.join(PG_BIN, bin), args, { stdio: 'pipe' });
  // A streaming replica: the primary's base backup, with what it needs to follow it (-R: standby.signal and
  // primary_conninfo), as an operator makes one with pg_basebackup.
  if (replicaOf)
    run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(replicaOf.port),
      '-U',
      'postgres',
      '-D',
      data,
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
    ]);
  else run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = async () => {
    run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
    await listening(port);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    // Fast shutdown: every session is ended (as a restart or failover ends them), then the server stops.
    stop: async () => {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
    },
    close: async () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Not running.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A Redis server on a free loopback port with its append-only file on, as an operator runs one whose data
 * matters: stopped (SIGTERM, which writes the file out) and started again, it keeps what it held.
 */
export async function privateRedis(): Promise<PrivateService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--logfile', 'redis.log'],
      { stdio: 'ignore' },
    );
    await listening(port);
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    start,
    stop,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    close: async () => {
      child?.kill('SIGCONT');
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the Sentinel on `port` counts `replica` a replica of `name` it could promote. */
async function knowsReplica(port: number, name: string, replica: number, ms = 60_000): Promise<void> {
  const sentinel = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  try {
    for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      const replicas = (await sentinel.call('SENTINEL', 'REPLICAS', name)) as string[][];
      const fields = replicas.map((r) => Object.fromEntries(r.flatMap((x, i) => (i % 2 ? [] : [[x, r[i + 1]]]))));
      if (fields.some((f) => f.port === String(replica) && f.flags === 'slave' && f['master-link-status'] === 'ok')) return;
    }
    throw new Error(`the Sentinel on ${port} did not see the replica on ${replica} within ${ms} ms`);
  } finally {
    sentinel.disconnect();
  }
}

export interface PrivateSentinel {
  /** REDIS_SENTINELS and REDIS_SENTINEL_NAME for it. */
  sentinels: string;
  name: string;
  ports: { master: number; replica: number; sentinels: number[] };
  /** Kills the master outright (SIGKILL), as a machine lost would: the Sentinels promote the replica. */
  killMaster(): void;
  /** Stops the i-th Sentinel where it stands (SIGSTOP): its port still takes connections, it answers nothing. */
  pauseSentinel(i: number): void;
  resumeSentinel(i: number): void;
  /** The end of each server's log, for a failure's message. */
  logs(): string;
  close(): Promise<void>;
}

/**
 * A Redis master, its replica and `count` Sentinels watching them (quorum 1, the master called down after 1 s), on
 * free loopback ports, nothing kept on disk: Redis as an operator runs it past one machine (docs/outages.md).
 */
export async function privateSentinel(name = 'nishaan-test', count = 1): Promise<PrivateSentinel> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-sentinel-'));
  const ports = { master: await freePort(), replica: await freePort(), sentinels: [] as number[] };
  for (let i = 0; i < count; i++) ports.sentinels.push(await freePort());
  const children: ChildProcess[] = [];
  const server = (args: string[]) => children.push(spawn('redis-server', args, { stdio: 'ignore' }));
  const common = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  server(['--port', String(ports.master), ...common, '--logfile', 'master.log']);
  server(['--port', String(ports.replica), ...common, '--logfile', 'replica.log', '--replicaof', '127.0.0.1', String(ports.master)]);
  await listening(ports.master);
  await listening(ports.replica);
  const names = ['master', 'replica'];
  for (const [i, port] of ports.sentinels.entries()) {
    // A Sentinel rewrites its configuration file: it must be its own, writable.
    const conf = path.join(dir, `sentinel-${i}.conf`);
    fs.writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${name} 127.0.0.1 ${ports.master} 1`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 5000`,
        '',
      ].join('\n'),
    );
    server([conf, '--sentinel', '--logfile', `sentinel-${i}.log`]);
    names.push(`sentinel-${i}`);
    await listening(port);
  }
  // A Sentinel learns the master's replicas from the master's INFO: until it has, it has nothing to promote, and a
  // master killed first is never replaced ("-failover-abort-no-good-slave").
  for (const port of ports.sentinels) await knowsReplica(port, name, ports.replica);
  return {
    sentinels: ports.sentinels.map((p) => `127.0.0.1:${p}`).join(','),
    name,
    ports,
    killMaster: () => children[0].kill('SIGKILL'),
    pauseSentinel: (i) => children[2 + i].kill('SIGSTOP'),
    resumeSentinel: (i) => children[2 + i].kill('SIGCONT'),
    logs: () =>
      names
        .map((n) => {
          const file = path.join(dir, `${n}.log`);
          const tail = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(-15).join('\n') : '(none)';
          return `--- ${n}\n${tail}`;
        })
        .join('\n'),
    close: async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once('exit', () => resolve());
              c.kill('SIGKILL');
            }),
        ),
      );
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
