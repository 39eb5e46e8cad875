// A real HTTPS webhook receiver on an ephemeral loopback port, with a self-signed certificate made by
// the openssl CLI once per test process. Tests trust it through WEBHOOK_CA_FILE, as a customer's
// private CA would be, and admit 127.0.0.1 through the test-only WEBHOOK_ALLOW_ADDRESSES.
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { writeLoopbackCertificate } from './tls.ts';

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
  path: string;
}

let certs: { dir: string; key: string; cert: string; caFile: string } | undefined;

/** The receiver's key and certificate (SAN 127.0.0.1 and localhost); caFile is what WEBHOOK_CA_FILE names. */
export function testCertificate() {
  if (certs) return certs;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-tls-'));
  const { key, cert: caFile } = writeLoopbackCertificate(dir);
  certs = { dir, key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(caFile, 'utf8'), caFile };
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return certs;
}

/** What the receiver answers a request with: a status (and body), or nothing at all (hang). */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export class Receiver {
  readonly received: Received[] = [];
  /** Decides each answer; the default is 200. */
  answer: (r: Received, n: number) => Answer = () => ({ status: 200, body: 'ok' });
  private server!: https.Server;
  private waiters: { n: number; resolve: () => void }[] = [];
  url = '';

  async start(): Promise<this> {
    const { key, cert } = testCertificate();
    this.server = https.createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r: Received = {
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
          path: req.url ?? '',
        };
        this.received.push(r);
        const a = this.answer(r, this.received.length);
        for (const w of this.waiters.filter((x) => this.received.length >= x.n)) w.resolve();
        this.waiters = this.waiters.filter((x) => this.received.length < x.n);
        if (a === 'hang') return;
        res.writeHead(a.status, { 'Content-Type': 'text/plain', ...a.headers });
        res.end(a.body ?? '');
      });
    });
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Resolves once `n` requests in all have arrived (rejects after `ms`). */
  waitFor(n: number, ms = 20_000): Promise<void> {
    if (this.received.length >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`receiver got ${this.received.length} requests, expected ${n}`)), ms);
      this.waiters.push({
        n,
        resolve: () => {
          clearTimeout(t);
          resolve();
        },
      });
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
