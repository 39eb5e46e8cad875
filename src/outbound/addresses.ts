// Which addresses an outbound request (webhook deliveries, and any fetch of a URL a customer gave us)
// may connect to: global unicast only, as ipaddr.js's range tables judge it (a kept library, not a list
// of our own that misses forms such as ::/96 or ::ffff:0:0/96). An IPv4-mapped IPv6 address is judged as
// the IPv4 address it carries; every other IPv6 address must lie in 2000::/3 and in no special range, so
// translation forms (NAT64, 6to4, Teredo, IPv4-compatible, IPv4-translated) are refused whatever they carry.
import net from 'node:net';
import ipaddr from 'ipaddr.js';

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

// ipaddr.js's range names, as a client reads them in an error.
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'unspecified (this network)',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'shared address space (CGNAT)',
  private: 'private',
  uniqueLocal: 'unique local (private)',
  reserved: 'reserved (documentation, protocol assignments or future use)',
  benchmarking: 'benchmarking',
  discard: 'discard',
  deprecatedSiteLocal: 'site-local',
  ipv4Mapped: 'IPv4-mapped',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  '6to4': '6to4',
  teredo: 'Teredo',
  as112: 'AS112',
  as112v6: 'AS112',
  amt: 'AMT',
  orchid2: 'ORCHIDv2',
};

/**
 * The address parsed, an IPv4-mapped one as its IPv4 address. An IPv6 text's dotted tail is written as hex
 * first: ipaddr.js reads ::a.b.c.d (IPv4-compatible) as if it were ::ffff:a.b.c.d (mapped). The zone of a
 * scoped address says nothing about its range.
 */
function parse(ip: string): ipaddr.IPv4 | ipaddr.IPv6 {
  if (net.isIPv4(ip)) return ipaddr.IPv4.parse(ip);
  const text = ip
    .split('%')[0]
    .replace(
      /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
      (_m, a, b, c, d) => `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
    );
  const v6 = ipaddr.IPv6.parse(text);
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
}

/** Why an address may not be connected to, or null when it is global unicast. Anything unparsable is refused. */
export function refusalReason(ip: string): string | null {
  if (!net.isIP(ip)) return 'not an IP address';
  const addr = parse(ip);
  const range = addr.range();
  const words = RANGE_WORDS[range] ?? range;
  if (range !== 'unicast') return addr.kind() === 'ipv4' && ip !== addr.toString() ? `${words} (carried by ${ip})` : words;
  if (addr.kind() === 'ipv6' && !addr.match(GLOBAL_UNICAST_V6)) return 'outside IPv6 global unicast (2000::/3)';
  return null;
}

/** Parses `a.b.c.d`, `a.b.c.d/n`, `::1`, `fd00::/8`… into a block list; throws naming a bad entry. */
export function parseAllowList(spec: string): net.BlockList {
  const list = new net.BlockList();
  for (const raw of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
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
    const why = refusalReason(ip);
    if (why === null) return null;
    // A socket may report an IPv4 peer in its IPv4-mapped IPv6 form: the allow-list names the IPv4 address.
    const plain = net.isIP(ip) ? parse(ip).toString() : ip;
    const family = net.isIP(plain);
    if (family && this.allow.check(plain, family === 4 ? 'ipv4' : 'ipv6')) return null;
    return why;
  }
}
