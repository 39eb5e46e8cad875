import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';
import { type AppOptions, buildApp } from './http/app.ts';
import { createRoot } from './root.ts';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Starts one API process; close() stops accepting, lets in-flight requests finish, then disconnects. */
export async function startServer(config: Config, appOptions: AppOptions = {}): Promise<RunningServer> {
  const root = createRoot(config);
  const { app } = buildApp(root, appOptions);
  // Callers are cached only while this process hears of every change (src/accounts/callerCache.ts).
  await root.listener.start();
  root.replicas.start();
  // Searches are answered from the moment the process listens; so are limits and sessions, if Redis is there
  // (a Redis away is no reason not to serve what does not need it: docs/outages.md).
  await Promise.all([root.search.ready(), root.connections.ready()]);
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  // Once closing, every answer closes its connection (those in flight included): a kept-alive connection
  // would otherwise hold the close open until the grace period, which then cuts the requests still
  // running on other connections.
  let draining = false;
  const answering = new Set<http.ServerResponse>();
  server.prependListener('request', (_req, res) => {
    if (draining) return void (res.shouldKeepAlive = false);
    answering.add(res);
    res.once('close', () => answering.delete(res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.HOST}:${port}`;
  if (!config.PUBLIC_BASE_URL) root.baseUrl.value = url;

  let closing: Promise<void> | undefined;
  return {
    url,
    close() {
      closing ??= (async () => {
        // Out of a load balancer's rotation first (GET /readyz answers 503), still serving meanwhile; then drained.
        root.readiness.drain();
        if (config.DRAIN_NOTICE_MS > 0) await new Promise((r) => setTimeout(r, config.DRAIN_NOTICE_MS));
        draining = true;
        for (const res of answering) if (!res.headersSent) res.shouldKeepAlive = false;
        const done = new Promise<void>((resolve) => server.close(() => resolve()));
        // Should an answer already on its way have said keep-alive, its connection goes once it is idle.
        const idle = setInterval(() => server.closeIdleConnections(), 100);
        // Past the grace period, remaining connections are cut so shutdown always ends.
        const timer = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_GRACE_MS);
        await done;
        clearInterval(idle);
        clearTimeout(timer);
        await root.close();
      })();
      return closing;
    },
  };
}
