import { fork, type ChildProcess } from 'node:child_process';

export interface ServerProcess {
  url: string;
  stop(): Promise<void>;
}

const SCRIPT = new URL('./serverMain.ts', import.meta.url).pathname;

/** A real API process (src/server.ts) on a free loopback port, configured only through its environment. */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child: ChildProcess = fork(SCRIPT, [], { env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' }, execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => {
      const url = (m as { url: string }).url;
      resolve({
        url,
        stop: () => new Promise((done) => {
          child.once('exit', () => done());
          child.kill('SIGTERM');
        }),
      });
    });
    child.once('exit', (code) => reject(new Error(`server process exited ${code}`)));
  });
}
