// `npm start`: prepares the database (pgvector, migrations, reference data, a demo registry on first
// start), then runs one API process per core, the workers process and the ML sidecar.
import cluster from 'node:cluster';
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { prepareDatabase } from './migrate.ts';
import { seedDemoRegistry } from './demo.ts';

const config = loadConfig();

const CRASH_WINDOW_MS = 30_000;
const MAX_CRASHES = 5;
const RESTART_DELAY_MS = 250;

/** A TypeScript script of this folder (or one given relative to it) in a child process of its own. */
const forkTs = (script: string) => fork(new URL(script, import.meta.url).pathname, [], { execArgv: ['--import', 'tsx'] });

async function primary(): Promise<void> {
  const t0 = Date.now();
  await prepareDatabase(config.DATABASE_URL);
  await seedDemoRegistry(config);
  // Built once, before the API processes start, so every one of them loads the same snapshot instead of
  // building its own; in a child process, so that the build's memory goes back when it exits.
  const built = await searchSnapshot();
  if (built) console.error(`search index built in ${(built.ms / 1000).toFixed(1)} s (${built.marks.toLocaleString('en')} marks)`);
  const n = Math.max(1, Math.min(os.availableParallelism(), 8));
  let stopping = false;
  // Child processes kept running: started again a second after they exit, until stopping.
  const keep = (script: string, what: string) => {
    const h: { child?: ChildProcess } = {};
    const run = () => {
      h.child = forkTs(script);
      h.child.once('exit', (code) => {
        if (stopping) return;
        console.error(`${what} exited (${code}); starting another`);
        setTimeout(run, 1000);
      });
    };
    run();
    return h;
  };
  const workers = keep('../workers/main.ts', 'workers process');
  // The ML sidecar (workers/sidecar/): embeddings and OCR on loopback at ML_URL. Not waited for: the API
  // serves at once, and logo indexing (in the workers process) starts when the sidecar answers.
  const sidecar = keep('../workers/sidecar/main.ts', 'ML sidecar');

  const stop = (exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    const apiDone = new Promise<void>((resolve) => {
      const check = () => Object.keys(cluster.workers ?? {}).length === 0 && resolve();
      cluster.on('exit', check);
      check();
    });
    const exited = (c?: ChildProcess) => new Promise<void>((resolve) => {
      if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
    });
    const workersDone = exited(workers.child);
    const sidecarDone = exited(sidecar.child);
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    workers.child?.kill('SIGTERM');
    sidecar.child?.kill('SIGTERM');
    void Promise.all([apiDone, workersDone, sidecarDone]).then(() => process.exit(exitCode));
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
    if (++ready === n) console.error(`Nishaan API on http://${config.HOST}:${config.PORT} (${n} API processes + workers + ML sidecar, ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  });
}

/** Runs scripts/search-snapshot.ts: what it built, or null when the snapshot was current. */
function searchSnapshot(): Promise<{ ms: number; marks: number } | null> {
  return new Promise((resolve, reject) => {
    const child = forkTs('./search-snapshot.ts');
    let built: { ms: number; marks: number } | null = null;
    child.once('message', (m) => (built = (m as { built: typeof built }).built));
    child.once('error', reject);
    child.once('exit', (code, signal) => (code === 0 ? resolve(built)
      : reject(new Error(`building the search index failed (${code !== null ? `code ${code}` : `signal ${signal}`}); the error above says why`))));
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
