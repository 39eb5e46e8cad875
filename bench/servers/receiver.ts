// The webhook receiver of bench/webhooks.ts, in a process of its own: HTTPS with the certificate named
// in TLS_KEY/TLS_CERT, answering 200 at once, noting when each webhook-id first arrived.
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

const arrivals: [string, number][] = [];
let count = 0;
const server = https.createServer(
  { key: fs.readFileSync(process.env.TLS_KEY!), cert: fs.readFileSync(process.env.TLS_CERT!) },
  (req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      arrivals.push([String(req.headers['webhook-id'] ?? ''), Date.now()]);
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
    });
  },
);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
// The driver asks for what arrived since it last asked.
process.on('message', () => process.send?.({ count, arrivals: arrivals.splice(0) }));
process.on('SIGTERM', () => process.exit(0));
