// Which addresses an outbound request (webhook deliveries, and any fetch of a URL a customer gave us)
// may connect to: public unicast only. Loopback, private, link-local, shared (CGNAT), multicast,
// documentation and reserved ranges are refused, in IPv4 and IPv6, and so are IPv6 forms that embed an
// IPv4 address (mapped, NAT64, 6to4) when the embedded address is refused.
import net from 'node:net';

const V4_REFUSED: [string, number, string][] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V6_REFUSED: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'discard'],
  ['2001::', 23, 'IETF protocol assignments'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function blockList(entries: [string, number, string][], type: 'ipv4' | 'ipv6') {
  return entries.map(([addr, prefix, why]) => {
    const b = new net.BlockList();
    b.addSubnet(addr, prefix, type);
    return { b, why };
  });
}

const V4 = blockList(V4_REFUSED, 'ipv4');
const V6 = blockList(V6_REFUSED, 'ipv6');

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedV4(ip: string): string | null {
  const words = expandV6(ip);
  if (!words) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zero(0, 5) && words[5] === 0xffff) return v4(words[6], words[7]);
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return v4(words[6], words[7]);
  if (words[0] === 0x2002) return v4(words[1], words[2]);
  return null;
}

/** The eight 16-bit words of an IPv6 address (with or without an embedded dotted quad). */
function expandV6(ip: string): number[] | null {
  let s = ip.toLowerCase().split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const p = dotted[1].split('.').map(Number);
    s = s.slice(0, -dotted[1].length) + `${((p[0] << 8) | p[1]).toString(16)}:${((p[2] << 8) | p[3]).toString(16)}`;
  }
  const [head, tail] = s.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail ? tail.split(':') : [];
  const fill = s.includes('::') ? 8 - h.length - t.length : 0;
  const words = [...h, ...Array(fill).fill('0'), ...t].map((w) => parseInt(w, 16));
  return words.length === 8 && words.every((w) => w >= 0 && w <= 0xffff) ? words : null;
}

/** Why an address may not be connected to, or null when it is public unicast. Anything unparsable is refused. */
export function refusalReason(ip: string): string | null {
  const family = net.isIP(ip);
  if (family === 4) return V4.find(({ b }) => b.check(ip, 'ipv4'))?.why ?? null;
  if (family === 6) {
    const inner = embeddedV4(ip);
    if (inner !== null) {
      const why = refusalReason(inner);
      return why ? `${why} (embedded in ${ip})` : null;
    }
    return V6.find(({ b }) => b.check(ip, 'ipv6'))?.why ?? null;
  }
  return 'not an IP address';
}

/** Parses `a.b.c.d`, `a.b.c.d/n`, `::1`, `fd00::/8`… into a block list; throws naming a bad entry. */
export function parseAllowList(spec: string): net.BlockList {
  const list = new net.BlockList();
  for (const raw of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [addr, prefix] = raw.split('/');
    const family = net.isIP(addr);
    const max = family === 4 ? 32 : 128;
    const n = prefix === undefined ? max : Number(prefix);
    if (!family || !Number.isInteger(n) || n < 0 || n > max || (prefix !== undefined && !/^\d+$/.test(prefix))) {
      throw new Error(`not an address or CIDR range: ${raw}`);
    }
    list.addSubnet(addr, n, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}

/** Public addresses, plus whatever a (test-only) allow-list admits. */
export class AddressPolicy {
  private readonly allow: net.BlockList;

  constructor(allowList = '') {
    this.allow = parseAllowList(allowList);
  }

  /** Null when the address may be connected to, else why not. */
  check(ip: string): string | null {
    // A socket may report an IPv4 peer in its IPv4-mapped IPv6 form.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped) return this.check(mapped[1]);
    const why = refusalReason(ip);
    if (why === null) return null;
    const family = net.isIP(ip);
    if (family && this.allow.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return null;
    return why;
  }
}
