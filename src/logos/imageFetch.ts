import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import { AppError } from '../errors.ts';
import { refusalReason } from '../outbound/addresses.ts';
import { ImageError, MAX_IMAGE_BYTES, requireImageFormat, SNIFF_BYTES } from './imageInput.ts';

// Fetching an image a client names by URL, without letting the client reach what only this server
// can reach. The host is resolved here and every address checked; the connection is made to the
// checked address (no second lookup for a DNS answer to change in between) and the address the
// socket actually connected to is checked again. Redirects are followed by hand, each hop checked
// the same way. The body may not pass 5 MB, the whole fetch not its deadline, and the bytes must be
// an accepted image (imageInput.ts) whatever the Content-Type says; an SVG is checked where it is drawn.

const MAX_REDIRECTS = 3;
const ACCEPT = 'image/png, image/jpeg, image/webp, image/gif, image/svg+xml';

/** True for addresses a client must never make us reach: anything but global unicast (src/outbound/addresses.ts). */
export function isForbiddenAddress(addr: string): boolean {
  return refusalReason(addr) !== null;
}

export interface FetchOptions {
  timeoutMs: number;
  maxBytes?: number;
  /** Tests only: host:port pairs admitted although their addresses are loopback. */
  allow?: Set<string>;
  /** Tests only: a CA to trust for the local HTTPS server. */
  ca?: string | Buffer;
  /** Name resolution (a stand-in in tests that check refusal without connecting). */
  resolve?: (host: string) => Promise<string[]>;
}

const refused = (msg: string) => new AppError('image_url_refused', msg);
const unreachable = (msg: string) => new AppError('image_url_unreachable', msg);

/**
 * The URL did not answer before the fetch's deadline: unreachable to the client, but the time was spent (a bulk item
 * is charged, docs/logos.md).
 */
export class FetchDeadlineError extends AppError {
  constructor(message: string) {
    super('image_url_unreachable', message);
  }
}

async function resolveAll(host: string): Promise<string[]> {
  const r = await dns.lookup(host, { all: true, verbatim: true });
  return r.map((a) => a.address);
}

/** The addresses the URL's host may be reached at; refuses the URL when any of them is forbidden. */
export async function vetUrl(url: URL, opts: FetchOptions): Promise<{ addresses: string[]; admitted: boolean }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused(`only http and https URLs are fetched, not ${url.protocol.replace(':', '')}`);
  if (url.username || url.password) throw refused('URLs with credentials are not fetched');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const admitted = opts.allow?.has(`${host}:${port}`) ?? false;
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (opts.resolve ?? resolveAll)(host);
    } catch {
      throw unreachable(`the host ${host} could not be resolved`);
    }
  }
  if (!addresses.length) throw unreachable(`the host ${host} has no address`);
  if (!admitted) {
    const bad = addresses.find(isForbiddenAddress);
    if (bad) throw refused(`the host ${host} resolves to ${bad}, a ${refusalReason(bad)} address: only public hosts are fetched`);
  }
  return { addresses, admitted };
}

/** GETs an image by URL under every rule above; the bytes are an accepted image of at most 5 MB. An aborted signal ends the fetch. */
export async function fetchImage(raw: string, opts: FetchOptions, signal?: AbortSignal): Promise<Buffer> {
  const deadline = Date.now() + opts.timeoutMs;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('image_url is not a valid URL');
  }
  for (let hop = 0; ; hop++) {
    const vetted = await vetUrl(url, opts);
    const r = await get(url, vetted, opts, deadline, signal);
    if ('location' in r) {
      if (hop >= MAX_REDIRECTS) throw unreachable(`more than ${MAX_REDIRECTS} redirects`);
      try {
        url = new URL(r.location, url);
      } catch {
        throw unreachable('the server redirected to an invalid URL');
      }
      continue;
    }
    try {
      requireImageFormat(r.body.subarray(0, SNIFF_BYTES));
    } catch (err) {
      if (err instanceof ImageError)
        throw new AppError(err.code, `${err.message} (the URL answered ${r.contentType ?? 'no Content-Type'})`);
      throw err;
    }
    return r.body;
  }
}

type Got = { location: string } | { body: Buffer; contentType?: string };

function get(
  url: URL,
  vetted: { addresses: string[]; admitted: boolean },
  opts: FetchOptions,
  deadline: number,
  signal?: AbortSignal,
): Promise<Got> {
  const max = opts.maxBytes ?? MAX_IMAGE_BYTES;
  const address = vetted.addresses[0];
  // The connection goes to the address checked above, whatever a second lookup would say.
  const lookup: LookupFunction = (_host, o, cb) => {
    const family = net.isIP(address);
    if ((o as { all?: boolean }).all)
      (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else cb(null, address, family);
  };
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise<Got>((resolve, reject) => {
    const left = deadline - Date.now();
    if (left <= 0) return reject(new FetchDeadlineError('the image URL did not answer in time'));
    if (signal?.aborted) return reject(signal.reason);
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => fail(signal!.reason);
    const settle = () => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const fail = (err: unknown) => {
      if (!settle()) return;
      req.destroy();
      reject(err);
    };
    timer = setTimeout(
      () => fail(new FetchDeadlineError(`the image URL did not answer within ${Math.round(opts.timeoutMs / 1000)} s`)),
      left,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    const req = mod.request(
      url,
      {
        method: 'GET',
        lookup,
        agent: false,
        ca: opts.ca,
        headers: { 'User-Agent': 'Nishaan-logo-search/1', Accept: ACCEPT },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          settle();
          resolve({ location: res.headers.location });
          return;
        }
        if (status !== 200) return fail(unreachable(`the image URL answered HTTP ${status}`));
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > max)
          return fail(new AppError('image_url_too_large', `the image at the URL is ${declared} bytes; at most ${max} are accepted`));
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > max) return fail(new AppError('image_url_too_large', `the image at the URL is larger than ${max} bytes`));
          chunks.push(c);
        });
        res.on('end', () => {
          if (!settle()) return;
          resolve({ body: Buffer.concat(chunks), contentType: res.headers['content-type'] });
        });
        res.on('error', () => fail(unreachable('the connection to the image URL broke')));
      },
    );
    req.on('socket', (socket) => {
      socket.once('connect', () => {
        const actual = socket.remoteAddress ?? '';
        // Whatever happened between the check and the connect, the peer must be an address we vetted.
        if (!vetted.addresses.includes(actual) || (!vetted.admitted && isForbiddenAddress(actual))) {
          fail(refused(`the connection went to ${actual}, which is not an allowed address`));
        }
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => fail(unreachable(`the image URL could not be reached (${err.code ?? err.message})`)));
    req.end();
  });
}
