// `npm start`: prepares the database (pgvector, migrations, reference data, a demo registry on first
// start), then runs one API process per core and the workers process. The ML sidecar joins here.
import cluster from 'node:cluster';
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { prepareDatabase } from './migrate.ts';
import { seedDemoRegistry } from './demo.ts';
import { ensureSearchSnapshot } from '../src/search/manager.ts';

const config = loadConfig();

const CRASH_WINDOW_MS = 30_000;
const MAX_CRASHES = 5;
const RESTART_DELAY_MS = 250;

async function primary(): Promise<void> {
  const t0 = Date.now();
  await prepareDatabase(config.DATABASE_URL);
  await seedDemoRegistry(config);
  // Built once here, so every API process starts from the same snapshot instead of each building its own.
  const built = await ensureSearchSnapshot(config.DATABASE_URL, config.searchSnapshot);
  if (built) console.error(`search index built in ${(built.ms / 1000).toFixed(1)} s (${built.marks.toLocaleString('en')} marks)`);
  const n = Math.max(1, Math.min(os.availableParallelism(), 8));
  let stopping = false;
  let workers: ChildProcess | undefined;
  const startWorkers = () => {
    workers = fork(new URL('../workers/main.ts', import.meta.url).pathname, [], { execArgv: ['--import', 'tsx'] });
    workers.once('exit', (code) => {
      if (stopping) return;
      console.error(`workers process exited (${code}); starting another`);
      setTimeout(startWorkers, 1000);
    });
  };
  startWorkers();

  const stop = (exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    const apiDone = new Promise<void>((resolve) => {
      const check = () => Object.keys(cluster.workers ?? {}).length === 0 && resolve();
      cluster.on('exit', check);
      check();
    });
    const workersDone = new Promise<void>((resolve) => {
      if (!workers || workers.exitCode !== null) return resolve();
      workers.once('exit', () => resolve());
    });
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    workers?.kill('SIGTERM');
    void Promise.all([apiDone, workersDone]).then(() => process.exit(exitCode));
  };
  process.on('SIGINT', () => stop());
  process.on('SIGTERM', () => stop());

  for (let i = 0; i < n; i++) cluster.fork();
  // An API process that dies at once (port taken, bad configuration) would die again however often it
  // is restarted: restart with a growing delay, and give up when crashes keep coming.
  const crashes: number[] = [];
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const now = Date.now();
    crashes.push(now);
    while (crashes[0] <= now - CRASH_WINDOW_MS) crashes.shift();
    const how = code !== null ? `code ${code}` : `signal ${signal}`;
    if (crashes.length >= MAX_CRASHES) {
      console.error(`api processes exited ${crashes.length} times within ${CRASH_WINDOW_MS / 1000} s (last: ${how}); ` +
        'giving up: the errors above say why (a port already in use, for one)');
      stop(1);
      return;
    }
    const delay = Math.min(RESTART_DELAY_MS * 2 ** (crashes.length - 1), 10_000);
    console.error(`api process ${worker.process.pid} exited (${how}); starting another in ${delay} ms`);
    setTimeout(() => stopping || cluster.fork(), delay);
  });
  let ready = 0;
  cluster.on('listening', () => {
    if (++ready === n) console.error(`Nishaan API on http://${config.HOST}:${config.PORT} (${n} API processes + workers, ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  });
}

async function apiProcess(): Promise<void> {
  const server = await startServer(config);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

(cluster.isPrimary ? primary() : apiProcess()).catch((err) => {
  console.error(err);
  process.exit(1);
});
