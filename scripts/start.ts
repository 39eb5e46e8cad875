// `npm start`: prepares the database (pgvector, migrations, reference data, a demo registry on first
// start) and builds the web app (scripts/build-web.ts), then runs one API process per core, the workers
// process, CLEARANCE_WORKERS - 1 batch clearance processes and the ML sidecar, and keeps them running: a
// process that exits is started again, sooner or later, but always (see Restarts).

import { type ChildProcess, fork } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config.ts';
import { removeUploadsOf } from '../src/http/uploads.ts';
import { releaseInstance } from '../src/limits/admission.ts';
import { createRoot } from '../src/root.ts';
import { startServer } from '../src/server.ts';
import { fixMallocThreshold } from './malloc.ts';

const config = loadConfig();
// Inherited by every process started from here (scripts/malloc.ts).
fixMallocThreshold();

// An API process's requests are cut at SHUTDOWN_GRACE_MS; a few seconds more close its connections to
// PostgreSQL and Redis. A process still there after that is killed: a stop always ends.
const KILL_AFTER_MS = config.SHUTDOWN_GRACE_MS + 5_000;

/**
 * When to start a process again after it exits. Giving up would leave the service down for good over
 * something passing (a port briefly taken, PostgreSQL restarting), so the wait doubles from 250 ms to
 * at most 30 s while exits keep coming soon after starts, and is back to 250 ms once a process has
 * run for 30 s.
 */
class Restarts {
  static readonly FIRST_MS = 250;
  static readonly MAX_MS = 30_000;
  static readonly STABLE_MS = 30_000;
  private delay = 0;
  /** Exits in a row that came soon after their process started. */
  quick = 0;

  next(ranMs: number): number {
    if (ranMs >= Restarts.STABLE_MS) {
      this.delay = 0;
      this.quick = 0;
    } else {
      this.quick++;
    }
    this.delay = Math.min(this.delay ? this.delay * 2 : Restarts.FIRST_MS, Restarts.MAX_MS);
    return this.delay;
  }

  /** What the log says besides the exit itself once exits keep coming. */
  note(others: string): string {
    if (this.quick < 3) return '';
    return (
      `; ${this.quick} exits in a row, each within ${Restarts.STABLE_MS / 1000} s of starting: backing off (at most ` +
      `${Restarts.MAX_MS / 1000} s between tries) while ${others} keep serving; the errors above say why (a port already in use, for one)`
    );
  }
}

const how = (code: number | null, signal: string | null) => (code !== null ? `code ${code}` : `signal ${signal}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// What each process started runs first: tsx, then whether it keeps source maps (scripts/sourceMaps.mjs).
const PRELOAD = ['--import', new URL('./sourceMaps.mjs', import.meta.url).pathname];

/** A TypeScript script of this folder (or one given relative to it) in a child process of its own. */
const forkTs = (script: string, args: string[] = []) =>
  fork(new URL(script, import.meta.url).pathname, args, { execArgv: ['--import', 'tsx', ...PRELOAD] });

/** Asks a child to stop (SIGTERM) and resolves once it has exited, killing it if it takes longer than KILL_AFTER_MS. */
function end(child: ChildProcess | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function primary(): Promise<void> {
  const t0 = Date.now();
  // This node's roles (NODE_ROLES; all four by default, one machine): a sidecar alone needs no database.
  const roles = config.nodeRoles;
  const register = roles.has('api') || roles.has('workers') || roles.has('clearance');
  if (register) {
    // Loaded here, not at the top: each API process runs this file too, and the demo generator (fonts, images)
    // and the migrations would stay in its memory for nothing.
    const [{ prepareDatabase }, { seedDemoRegistry }] = await Promise.all([import('./migrate.ts'), import('./demo.ts')]);
    await prepareDatabase(config.DATABASE_URL);
    await seedDemoRegistry(config);
  }
  // The web app the API processes serve (web/dist): built when its sources or the API document changed, in a
  // child process, so that nothing the build does to its process (Vite sets NODE_ENV) reaches the processes
  // started below, and its memory goes back when it ends.
  if (roles.has('api')) await runChild('./build-web.ts', 'building the web app', ['--serving']);
  // Built once, before the API processes start, so every one of them loads the same snapshot instead of
  // building its own; in a child process, so that the build's memory goes back when it exits.
  const built = register ? await searchSnapshot() : null;
  if (built) console.error(`search index built in ${(built.ms / 1000).toFixed(1)} s (${built.marks.toLocaleString('en')} marks)`);
  const n = roles.has('api') ? config.apiProcesses : 0;
  let stopping = false;

  // Child processes kept running: started again after they exit, until stopping.
  const keep = (script: string, what: string) => {
    const h: { child?: ChildProcess } = {};
    const restarts = new Restarts();
    const run = () => {
      const started = Date.now();
      h.child = forkTs(script);
      h.child.once('exit', (code, signal) => {
        if (stopping) return;
        const ran = Date.now() - started;
        const delay = restarts.next(ran);
        console.error(
          `${what} exited (${how(code, signal)}) after ${seconds(ran)}; starting another in ${delay} ms` +
            restarts.note('the API processes'),
        );
        setTimeout(() => stopping || run(), delay);
      });
    };
    run();
    return h;
  };
  const workers = roles.has('workers') ? keep('../workers/main.ts', 'workers process') : undefined;
  // Batch clearance on every core: the workers process screens chunks, and so do these (workers/clearance.ts).
  const clearance = roles.has('clearance')
    ? Array.from({ length: config.clearanceWorkers - (workers ? 1 : 0) }, (_, i) =>
        keep('../workers/clearance.ts', `batch clearance process ${i + (workers ? 2 : 1)}`),
      )
    : [];
  // The ML sidecar (workers/sidecar/): embeddings and OCR on loopback at ML_URL. Not waited for: the API
  // serves at once, and logo indexing (in the workers process) starts when the sidecar answers.
  const sidecar = roles.has('sidecar') ? keep('../workers/sidecar/main.ts', 'ML sidecar') : undefined;
  const running = [
    ...(n ? [`${n} API processes`] : []),
    ...(workers ? ['workers'] : []),
    ...(clearance.length ? [`${clearance.length} batch clearance`] : []),
    ...(sidecar ? ['ML sidecar'] : []),
  ].join(' + ');

  // What a dead API process held and could not give back: its concurrency slots in Redis (the account
  // would be short of them until their 60 s expiry, locked out if it has few) and its upload files.
  // Each API process is named (INSTANCE_ID) so that they can be found.
  // The supervisor's root: nothing but this Redis connection is ever used, and only what is used connects.
  const root = createRoot(config);
  const { redis } = root;
  redis.on('error', () => undefined); // reported by the command that failed
  const instances = new Map<number, { id: string; started: number }>();
  const cleanups = new Set<Promise<unknown>>();
  const release = (id: string): Promise<[number, number]> => {
    const p = Promise.all([
      releaseInstance(redis, config.RATE_LIMIT_PREFIX, id).catch((err: Error) => {
        console.error(`could not free the concurrency slots of api process ${id} (${err.message}); they expire within 60 s`);
        return 0;
      }),
      removeUploadsOf(config.uploadDir, id),
    ]);
    cleanups.add(p);
    void p.finally(() => cleanups.delete(p));
    return p;
  };
  // Each API process accepts its own connections from the shared socket (the kernel picks which). Node's default
  // on Linux, round robin, has this process accept them and hand each over: one handed to an API process as it
  // died was never closed nor handed to another, and its client waited for an answer until it gave up. Accepted
  // by the process itself, a connection dies with it (the client sees a reset). bench/clusterPolicy.ts: the two
  // processes still take about half each, and serve 1.13 times as many requests a second (bench/RESULTS.md).
  cluster.schedulingPolicy = config.API_CONNECTIONS === 'round-robin' ? cluster.SCHED_RR : cluster.SCHED_NONE;
  cluster.setupPrimary({ execArgv: [...process.execArgv, ...PRELOAD] });
  const forkApi = () => {
    const id = `api-${randomBytes(6).toString('hex')}`;
    const worker = cluster.fork({ INSTANCE_ID: id });
    instances.set(worker.id, { id, started: Date.now() });
  };

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.error(
      'stopping: the API processes finish their requests in flight, then the workers, batch clearance and ML sidecar processes stop',
    );
    // API processes first: the requests they are finishing may still need the workers (bulk logo
    // searches) and the sidecar (embeddings).
    await Promise.all(Object.values(cluster.workers ?? {}).map((w) => end((w as Worker).process as ChildProcess)));
    await Promise.all([end(workers?.child), end(sidecar?.child), ...clearance.map((c) => end(c.child))]);
    await Promise.all(cleanups);
    await root.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  for (let i = 0; i < n; i++) forkApi();
  const restarts = new Restarts();
  cluster.on('exit', (worker, code, signal) => {
    const instance = instances.get(worker.id)!;
    instances.delete(worker.id);
    const freed = release(instance.id);
    if (stopping) return;
    const ran = Date.now() - instance.started;
    const delay = restarts.next(ran);
    setTimeout(() => stopping || forkApi(), delay);
    void freed.then(([slots, files]) =>
      console.error(
        `api process ${worker.process.pid} exited (${how(code, signal)}) after ${seconds(ran)}; ` +
          (slots || files
            ? `freed its ${slots} concurrency slot${slots === 1 ? '' : 's'} and ${files} upload file${files === 1 ? '' : 's'}; `
            : '') +
          `starting another in ${delay} ms${restarts.note('the other API processes, the workers and the ML sidecar')}`,
      ),
    );
  });
  let ready = 0;
  cluster.on('listening', (worker) => {
    if (++ready === n)
      console.error(
        `Nishaan API on http://${config.HOST}:${config.PORT} (${running}, ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
      );
    else if (ready > n) console.error(`api process ${worker.process.pid} listening, in place of one that exited`);
  });
  if (!n) console.error(`Nishaan node running ${running}, no API processes (NODE_ROLES=${[...roles].join(',')})`);
}

/** Runs a script of this folder to its end: the last message it sent, if any; rejects when it fails. */
function runChild<T>(script: string, what: string, args: string[] = []): Promise<T | null> {
  return new Promise((resolve, reject) => {
    const child = forkTs(script, args);
    let said: T | null = null;
    child.on('message', (m) => (said = m as T));
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve(said) : reject(new Error(`${what} failed (${how(code, signal)}); the error above says why`)),
    );
  });
}

/** Runs scripts/search-snapshot.ts: what it built, or null when the snapshot was current. */
async function searchSnapshot(): Promise<{ ms: number; marks: number } | null> {
  const said = await runChild<{ built: { ms: number; marks: number } | null }>('./search-snapshot.ts', 'building the search index');
  return said?.built ?? null;
}

async function apiProcess(): Promise<void> {
  const server = await startServer(config);
  let ending = false;
  // Stops accepting, lets the requests in flight finish (those still running at SHUTDOWN_GRACE_MS are
  // cut), then exits; the timer bounds it should closing the connections hang.
  const drainAndExit = (code: number) => {
    if (ending) return;
    ending = true;
    console.error(
      `api process ${process.pid} stopping: no new requests; finishing those in flight (cut after ${config.SHUTDOWN_GRACE_MS / 1000} s)`,
    );
    setTimeout(() => process.exit(code), KILL_AFTER_MS).unref();
    void server.close().then(
      () => process.exit(code),
      () => process.exit(code || 1),
    );
  };
  process.on('SIGINT', () => drainAndExit(0));
  process.on('SIGTERM', () => drainAndExit(0));
  // A fault nothing caught leaves this process in a state it cannot vouch for: it goes (and the
  // supervisor starts another), but the other requests it is serving finish first instead of being cut.
  process.on('uncaughtException', (err) => {
    console.error(err);
    drainAndExit(1);
  });
}

(cluster.isPrimary ? primary() : apiProcess()).catch((err) => {
  console.error(err);
  process.exit(1);
});
