import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';
import { createDeps, closeDeps } from './deps.ts';
import { buildApp, type AppOptions } from './http/app.ts';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Starts one API process; close() stops accepting, lets in-flight requests finish, then disconnects. */
export async function startServer(config: Config, appOptions: AppOptions = {}): Promise<RunningServer> {
  const deps = createDeps(config);
  const { app } = buildApp(deps, appOptions);
  // Callers are cached only while this process hears of every change (src/accounts/callerCache.ts).
  await deps.listener.start();
  // Searches are answered from the moment the process listens.
  await deps.search.ready();
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.HOST}:${port}`;
  if (!config.PUBLIC_BASE_URL) deps.baseUrl.value = url;

  let closing: Promise<void> | undefined;
  return {
    url,
    close() {
      closing ??= (async () => {
        const done = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Past the grace period, remaining connections are cut so shutdown always ends.
        const timer = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_GRACE_MS);
        await done;
        clearTimeout(timer);
        await closeDeps(deps);
      })();
      return closing;
    },
  };
}
