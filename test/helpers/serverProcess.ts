import { type ChildProcess, fork } from 'node:child_process';

export interface ServerProcess {
  url: string;
  pid: number;
  /** How it ended, once it has: null while it runs. */
  exited(): { code: number | null; signal: NodeJS.Signals | null } | null;
  /** Its output so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

const SCRIPT = new URL('./serverMain.ts', import.meta.url).pathname;

/** A real API process (src/server.ts) on a free loopback port, configured only through its environment. */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child: ChildProcess = fork(SCRIPT, [], {
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  let ended: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  child.once('exit', (code, signal) => (ended = { code, signal }));
  return new Promise((resolve, reject) => {
    child.once('message', (m) => {
      const url = (m as { url: string }).url;
      resolve({
        url,
        pid: child.pid!,
        exited: () => ended,
        output: () => out,
        stop: () =>
          new Promise((done) => {
            if (ended) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`server process exited ${code}: ${out}`)));
  });
}
