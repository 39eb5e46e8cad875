// `npm start`: prepares the database (pgvector, migrations, reference data, a demo registry on first
// start), then runs one API process per core. Workers and the ML sidecar join here as they are built.
import cluster from 'node:cluster';
import os from 'node:os';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { prepareDatabase } from './migrate.ts';
import { seedDemoRegistry } from './demo.ts';

const config = loadConfig();

async function primary(): Promise<void> {
  const t0 = Date.now();
  await prepareDatabase(config.DATABASE_URL);
  await seedDemoRegistry(config);
  const n = Math.max(1, Math.min(os.availableParallelism(), 8));
  let stopping = false;
  for (let i = 0; i < n; i++) cluster.fork();
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    console.error(`api process ${worker.process.pid} exited (${code}); starting another`);
    cluster.fork();
  });
  let ready = 0;
  cluster.on('listening', () => {
    if (++ready === n) console.error(`Nishaan API on http://${config.HOST}:${config.PORT} (${n} processes, ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
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
