// POSTs to URLs customers give us, guarded: HTTPS only, every resolved address vetted by the
// AddressPolicy before connecting and the address actually connected to vetted again (so neither DNS
// rebinding nor an IP literal can reach a private network), no redirects followed, a deadline for the
// whole exchange, and at most `maxResponseBytes` of the answer read.
import dns from 'node:dns';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import type { Config } from '../config.ts';
import { AddressPolicy } from './addresses.ts';

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface OutboundOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  /** Extra certificate authorities (PEM) trusted besides the usual roots. */
  ca?: string;
  maxResponseBytes?: number;
  /** How much of a refused answer's body is kept for the delivery log. */
  excerptBytes?: number;
  maxSockets?: number;
  /** Name resolution; tests stub it to prove refusals without connecting anywhere. */
  resolve?: Resolver;
}

export interface PostResult {
  /** The HTTP status, when an answer came. */
  status: number | null;
  latencyMs: number;
  /** Why the attempt failed before or instead of an answer (refused address, timeout, TLS…). */
  error: string | null;
  /** The start of the answer's body (non-2xx answers only). */
  excerpt: string | null;
}

/** A refusal by the address policy (never retried differently from other failures, but named). */
export class AddressRefused extends Error {
  constructor(host: string, ip: string, why: string) {
    super(`address refused: ${host} resolves to ${ip} (${why})`);
    this.name = 'AddressRefused';
  }
}

export class OutboundClient {
  private readonly agent: https.Agent;
  private readonly resolve: Resolver;
  private readonly maxResponseBytes: number;
  private readonly excerptBytes: number;

  constructor(private readonly opts: OutboundOptions) {
    this.resolve = opts.resolve ?? systemResolver;
    this.maxResponseBytes = opts.maxResponseBytes ?? 64 * 1024;
    this.excerptBytes = opts.excerptBytes ?? 1024;
    const policy = opts.policy;
    const resolve = this.resolve;
    const lookup = vettedLookup(policy, resolve);
    this.agent = new (class extends https.Agent {
      override createConnection(options: https.RequestOptions, cb?: (err: Error | null, s: Duplex) => void): Duplex | undefined {
        const host = options.host ?? '';
        if (net.isIP(host)) {
          const why = policy.check(host);
          if (why) {
            process.nextTick(() => cb?.(new AddressRefused(host, host, why), undefined as unknown as Duplex));
            return undefined;
          }
        }
        const socket = tls.connect({ ...(options as tls.ConnectionOptions), lookup });
        // The address connected to is what counts, whatever resolved it.
        socket.once('connect', () => {
          const ip = socket.remoteAddress ?? '';
          const why = policy.check(ip);
          if (why) socket.destroy(new AddressRefused(host, ip, why));
        });
        return socket;
      }
    })({
      keepAlive: true,
      maxSockets: opts.maxSockets ?? 256,
      // One context for every connection: given as `ca`, the roots would be parsed again for each one.
      secureContext: tls.createSecureContext({ ca: opts.ca ? [...tls.rootCertificates, opts.ca] : undefined, minVersion: 'TLSv1.2' }),
    });
  }

  /** Vets a URL's host now (registration); a delivery vets again at every connection. */
  async vet(url: string): Promise<string | null> {
    const host = hostOf(new URL(url));
    const ips = net.isIP(host) ? [host] : (await this.resolve(host).catch(() => [])).map((a) => a.address);
    if (!ips.length) return null; // unresolvable now: not a private address; delivery will tell
    const refused = ips.map((ip) => [ip, this.opts.policy.check(ip)] as const).filter(([, why]) => why);
    return refused.length === ips.length ? `${host} resolves to ${refused[0][0]} (${refused[0][1]})` : null;
  }

  post(url: string, headers: Record<string, string>, body: string): Promise<PostResult> {
    const started = performance.now();
    const done = (r: Omit<PostResult, 'latencyMs'>): PostResult => ({ ...r, latencyMs: Math.round(performance.now() - started) });
    const u = new URL(url);
    if (u.protocol !== 'https:') return Promise.resolve(done({ status: null, error: 'only https URLs are delivered to', excerpt: null }));
    return new Promise((resolve) => {
      let settled = false;
      const finish = (r: Omit<PostResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(r));
      };
      const req = https.request(
        {
          protocol: 'https:',
          hostname: hostOf(u),
          port: u.port || 443,
          path: `${u.pathname}${u.search}`,
          method: 'POST',
          agent: this.agent,
          servername: net.isIP(hostOf(u)) ? undefined : hostOf(u),
          headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let read = 0;
          res.on('data', (c: Buffer) => {
            read += c.length;
            if (chunks.reduce((n, b) => n + b.length, 0) < this.excerptBytes) chunks.push(c);
            // Reading stops at the cap: the status is all that decides, and the socket is not reused.
            if (read > this.maxResponseBytes) {
              res.destroy();
              finish(result(status, chunks, this.excerptBytes));
            }
          });
          res.on('end', () => finish(result(status, chunks, this.excerptBytes)));
          res.on('error', (err) => finish({ status, error: `answer cut short: ${err.message}`, excerpt: null }));
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        finish({ status: null, error: `no answer within ${this.opts.timeoutMs} ms`, excerpt: null });
      }, this.opts.timeoutMs);
      req.on('error', (err) => finish({ status: null, error: describe(err), excerpt: null }));
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function hostOf(u: URL): string {
  return u.hostname.replace(/^\[(.*)\]$/, '$1');
}

function result(status: number, chunks: Buffer[], excerptBytes: number): Omit<PostResult, 'latencyMs'> {
  const ok = status >= 200 && status < 300;
  const excerpt = ok ? null : Buffer.concat(chunks).subarray(0, excerptBytes).toString('utf8');
  let error: string | null = null;
  if (status >= 300 && status < 400) error = `redirect not followed (HTTP ${status})`;
  else if (!ok) error = `HTTP ${status}`;
  return { status, error, excerpt };
}

function describe(err: Error & { code?: string }): string {
  if (err instanceof AddressRefused) return err.message;
  return err.code ? `${err.code}: ${err.message}` : err.message;
}

/** A net lookup that hands the socket only addresses the policy admits (all of them refused: an error). */
function vettedLookup(policy: AddressPolicy, resolve: Resolver): net.LookupFunction {
  return (hostname, options, callback) => {
    const cb = callback as (err: Error | null, address?: string | dns.LookupAddress[], family?: number) => void;
    resolve(hostname).then(
      (all) => {
        const ok = all.filter((a) => policy.check(a.address) === null);
        if (!ok.length) {
          const first = all[0];
          const err = first
            ? new AddressRefused(hostname, first.address, policy.check(first.address)!)
            : new Error(`${hostname} did not resolve`);
          return cb(Object.assign(err, { code: 'EADDRREFUSED' }));
        }
        const wanted = options.family ? ok.filter((a) => a.family === options.family) : ok;
        const list = wanted.length ? wanted : ok;
        if (options.all) cb(null, list);
        else cb(null, list[0].address, list[0].family);
      },
      (err: Error) => cb(err),
    );
  };
}

/** The guarded client for webhook requests, from the configuration (allow-list, CA file, timeout). */
export function outboundClient(config: Config, resolve?: Resolver): OutboundClient {
  return new OutboundClient({
    policy: new AddressPolicy(config.WEBHOOK_ALLOW_ADDRESSES),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    ca: config.WEBHOOK_CA_FILE ? fs.readFileSync(config.WEBHOOK_CA_FILE, 'utf8') : undefined,
    resolve,
  });
}
