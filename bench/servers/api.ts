// One Nishaan API process for bench/detail.ts (the same code `npm start` runs per core).
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';

const server = await startServer(loadConfig({ ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'production', URL_SIGNING_SECRET: 'bench-signing-secret-0123456789' }));
process.send?.('ready');
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void server.close().then(() => process.exit(0)));
