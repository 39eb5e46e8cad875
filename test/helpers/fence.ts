// The outbound fence of every test process: a TCP connection to anything outside 127.0.0.0/8 fails
// before a packet leaves (an IP outside the range is refused; a name is resolved, and only its
// 127.x addresses are connected to). Unix sockets are untouched. Installed by test/setup.ts, and by
// `--import` in the processes tests start.
import dns from 'node:dns';
import net from 'node:net';

export const FENCE_ERROR = 'EFENCED';

const inRange = (ip: string) => net.isIPv4(ip) && ip.startsWith('127.');

function fenced(what: string): Error {
  return Object.assign(new Error(`test fence: no connection outside 127.0.0.0/8 (${what})`), { code: FENCE_ERROR });
}

type Lookup = (hostname: string, options: dns.LookupOptions, cb: (...args: unknown[]) => void) => void;

function fencedLookup(inner: Lookup): Lookup {
  return (hostname, options, cb) => {
    inner(hostname, { ...options, all: true }, (err: unknown, all: unknown) => {
      if (err) return cb(err);
      const ok = (all as dns.LookupAddress[]).filter((a) => inRange(a.address));
      if (!ok.length) return cb(fenced(`${hostname} → ${(all as dns.LookupAddress[]).map((a) => a.address).join(', ')}`));
      if (options.all) cb(null, ok);
      else cb(null, ok[0].address, ok[0].family);
    });
  };
}

let installed = false;

export function installFence(): void {
  if (installed) return;
  installed = true;
  const connect = net.Socket.prototype.connect as (...args: unknown[]) => net.Socket;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    // Node calls connect with [options, cb] (normalised, an array) or with the user's own arguments.
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const options = (
      typeof first === 'object' && first !== null ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined }
    ) as Omit<net.TcpNetConnectOpts, 'lookup'> & { path?: string; lookup?: Lookup };
    if (!options.path) {
      const host = options.host ?? 'localhost';
      if (net.isIP(host)) {
        if (!inRange(host)) {
          process.nextTick(() => this.destroy(fenced(host)));
          return this;
        }
      } else if (typeof first === 'object' && first !== null) {
        options.lookup = fencedLookup((options.lookup as Lookup | undefined) ?? (dns.lookup as unknown as Lookup));
      } else {
        // connect(port, host[, cb]) with a name: the same call in its options form, with the fenced lookup.
        const cb = args.find((a) => typeof a === 'function');
        const opts = { port: Number(options.port), host, lookup: fencedLookup(dns.lookup as unknown as Lookup) };
        return connect.apply(this, cb ? [opts, cb] : [opts]);
      }
    }
    return connect.apply(this, args);
  } as typeof net.Socket.prototype.connect;
}
