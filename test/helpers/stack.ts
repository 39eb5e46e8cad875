import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

const ROOT = new URL('../..', import.meta.url).pathname;

/** A loopback port nothing listens on now (the OS's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface Stack {
  child: ChildProcess;
  /** Everything it has printed so far. */
  log(): string;
  /** Resolves once its output matches `pattern`; rejects when it exits first or `ms` pass. */
  waitFor(pattern: RegExp, ms?: number): Promise<void>;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
}

/**
 * `npm start`'s script with `env` over this process's environment, started without waiting for anything;
 * with `npm`, through `npm start` itself (stop() then signals npm, as a service manager would).
 */
export function spawnStack(env: Record<string, string>, o: { npm?: boolean } = {}): Stack {
  const [cmd, args] = o.npm ? ['npm', ['start', '--silent']] : [process.execPath, ['--import', 'tsx', 'scripts/start.ts']];
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env } });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  child.stdout!.on('data', (d) => (out += d));
  return {
    child,
    log: () => out,
    waitFor: (pattern, ms = 170_000) =>
      new Promise((resolve, reject) => {
        const t0 = Date.now();
        const timer = setInterval(() => {
          if (pattern.test(out)) {
            clearInterval(timer);
            resolve();
          } else if (child.exitCode !== null || child.signalCode !== null || Date.now() - t0 > ms) {
            clearInterval(timer);
            reject(
              new Error(
                `npm start ${child.exitCode !== null ? `exited ${child.exitCode}` : 'never printed it'} (waiting for ${pattern}): ${out}`,
              ),
            );
          }
        }, 100);
      }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** `npm start` until it reports ready. */
export async function startStack(env: Record<string, string>, o: { npm?: boolean } = {}): Promise<Stack> {
  const stack = spawnStack(env, o);
  await stack.waitFor(/Nishaan API on/);
  return stack;
}

/** The processes `pid` started, with their command lines (Linux /proc). */
export function children(pid: number): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const p of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      out.push({ pid: Number(p), cmd: fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replaceAll('\0', ' ') });
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}
