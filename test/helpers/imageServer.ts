import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { writeLoopbackCertificate } from './tls.ts';

// A local HTTPS server for the image-URL tests: the only host the fetch may reach in tests (through
// IMAGE_FETCH_TEST_ALLOW), with a certificate made for the run and trusted through IMAGE_FETCH_TEST_CA.

export interface ImageServer {
  origin: string;
  hostPort: string;
  caFile: string;
  /** Requests the server saw, by path. */
  seen: string[];
  close(): Promise<void>;
}

export type Route = (res: import('node:http').ServerResponse) => void;

export async function startImageServer(routes: Record<string, Route>): Promise<ImageServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-tls-'));
  const { key, cert } = writeLoopbackCertificate(dir);
  const seen: string[] = [];
  const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
    seen.push(req.url ?? '');
    const route = routes[req.url ?? ''];
    if (!route) {
      res.writeHead(404).end('not found');
      return;
    }
    route(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    caFile: cert,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
