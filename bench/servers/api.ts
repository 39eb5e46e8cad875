// One Nishaan API process for the benchmarks (the same code `npm start` runs per core).
// BENCH_UNGUARDED=1 builds it with the checks off, for bench/auth.ts's comparison.
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';

const server = await startServer(
  loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
    URL_SIGNING_SECRET: 'bench-signing-secret-0123456789',
    JWT_SECRET: 'bench-jwt-secret-0123456789-0123456789',
    WEBHOOK_SECRET_KEY: 'bench-webhook-secret-key-0123456789-0123456789',
  }),
  { unguarded: process.env.BENCH_UNGUARDED === '1' },
);
process.send?.('ready');
// The heap's share of this process's memory, for bench/indexMemory.ts (through the cluster's primary).
process.on('message', (m) => m === 'heap' && process.send?.({ heap: process.memoryUsage() }));
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void server.close().then(() => process.exit(0)));
