// The local cluster's processes (scripts/cluster.ts): each started detached in a process group of its own, its
// output in log/NAME.log and its group's id in run/NAME.pid under the cluster's folder, so that `status` and
// `down` find it again from another shell, and a test can kill one part as a machine failing would.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
/** Where `npm run cluster` keeps everything, unless CLUSTER_DIR names another folder. */
export const DEFAULT_DIR = path.join(ROOT, 'var', 'cluster');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface Start {
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Run as the postgres user (PostgreSQL refuses to run as root). */
  asPostgres?: boolean;
}

/** The parts of one cluster, by name: their pid files and logs under `dir`. */
export class Parts {
  constructor(readonly dir: string) {}

  logFile(name: string): string {
    return path.join(this.dir, 'log', `${name}.log`);
  }

  pidOf(name: string): number | null {
    try {
      const pid = Number(fs.readFileSync(path.join(this.dir, 'run', `${name}.pid`), 'utf8'));
      return pid > 0 && alive(pid) ? pid : null;
    } catch {
      return null;
    }
  }

  /** Starts a part unless it runs already; its process group id. */
  start(name: string, s: Start): number {
    const running = this.pidOf(name);
    if (running) return running;
    fs.mkdirSync(path.join(this.dir, 'log'), { recursive: true });
    fs.mkdirSync(path.join(this.dir, 'run'), { recursive: true });
    const log = fs.openSync(this.logFile(name), 'a');
    const root = process.getuid?.() === 0;
    const [command, args] = s.asPostgres && root ? ['runuser', ['-u', 'postgres', '--', s.command, ...s.args]] : [s.command, s.args];
    const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ['ignore', log, log], env: { ...process.env, ...s.env } });
    fs.closeSync(log);
    child.unref();
    if (!child.pid) throw new Error(`${name}: ${command} could not be started`);
    fs.writeFileSync(path.join(this.dir, 'run', `${name}.pid`), String(child.pid));
    return child.pid;
  }

  /** Stops a part's whole process group: SIGTERM (SIGKILL with `hard`), then SIGKILL after `graceMs`. */
  async stop(name: string, hard = false, graceMs = 30_000): Promise<boolean> {
    const pid = this.pidOf(name);
    if (!pid) return false;
    const signal = (sig: NodeJS.Signals) => {
      try {
        process.kill(-pid, sig);
      } catch {
        // Gone already.
      }
    };
    signal(hard ? 'SIGKILL' : 'SIGTERM');
    const until = Date.now() + graceMs;
    while (alive(pid) && Date.now() < until) await sleep(100);
    if (alive(pid)) signal('SIGKILL');
    while (alive(pid)) await sleep(50);
    fs.rmSync(path.join(this.dir, 'run', `${name}.pid`), { force: true });
    return true;
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it holds, or fails naming `what` and the log to read. */
export async function until(what: string, check: () => Promise<boolean>, withinMs: number, logFile?: string): Promise<void> {
  const end = Date.now() + withinMs;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await sleep(250);
  }
  const hint = logFile ? `; see ${logFile}` : '';
  throw new Error(`${what} not within ${Math.round(withinMs / 1000)} s${hint}`);
}

export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.setTimeout(1000, () => {
      s.destroy();
      resolve(false);
    });
  });
}

/** GET on loopback: status and body, or null when nothing answers within 2 s. */
export async function get(url: string): Promise<{ status: number; body: string } | null> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return { status: r.status, body: await r.text() };
  } catch {
    return null;
  }
}
