// Child process of startServerProcess: one API server, its URL sent to the parent.
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';

const server = await startServer(loadConfig());
process.send?.({ url: server.url });
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
