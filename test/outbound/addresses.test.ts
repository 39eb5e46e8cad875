import { expect } from 'chai';
import { AddressPolicy, parseAllowList, refusalReason } from '../../src/outbound/addresses.ts';

describe('outbound address classifier', () => {
  it('refuses every non-public IPv4 range', () => {
    const refused: Record<string, RegExp> = {
      '0.0.0.0': /this network/,
      '10.0.0.1': /private/,
      '10.255.255.255': /private/,
      '100.64.0.1': /shared/,
      '127.0.0.1': /loopback/,
      '127.255.0.9': /loopback/,
      '169.254.169.254': /link-local/,
      '172.16.0.1': /private/,
      '172.31.255.254': /private/,
      '192.0.0.8': /protocol assignments/,
      '192.0.2.1': /documentation/,
      '192.168.1.1': /private/,
      '198.18.0.1': /reserved/,
      '198.51.100.7': /documentation/,
      '203.0.113.9': /documentation/,
      '224.0.0.251': /multicast/,
      '240.0.0.1': /reserved/,
      '255.255.255.255': /broadcast/,
      '192.88.99.1': /reserved/,
    };
    for (const [ip, why] of Object.entries(refused)) expect(refusalReason(ip), ip).to.match(why);
  });

  it('admits public IPv4 unicast, right up to the edges of refused ranges', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '9.255.255.255',
      '11.0.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '169.253.255.255',
      '192.167.255.255',
      '223.255.255.255',
    ]) {
      expect(refusalReason(ip), ip).to.equal(null);
    }
  });

  it('refuses IPv6 outside global unicast, and every form that embeds an IPv4 address but the mapped one', () => {
    const refused: Record<string, RegExp> = {
      '::': /unspecified/,
      '::1': /loopback/,
      'fe80::1': /link-local/,
      'fe80::1%eth0': /link-local/,
      'fc00::1': /unique local/,
      'fd12:3456::1': /unique local/,
      'ff02::1': /multicast/,
      '2001:db8::1': /documentation/,
      '::ffff:127.0.0.1': /loopback/,
      '::ffff:10.0.0.1': /private/,
      '::ffff:7f00:1': /loopback/,
      '64:ff9b::192.168.0.1': /NAT64/,
      '2002:c0a8:0101::1': /6to4/,
      '100::1': /discard/,
      '2001::1': /Teredo/,
      'fec0::1': /site-local/,
      // The forms the adversarial pass got through: IPv4-translated ::ffff:0:0/96 and IPv4-compatible ::/96.
      '::ffff:0:127.0.0.1': /IPv4-translated/,
      '::ffff:0:7f00:1': /IPv4-translated/,
      '::7f00:1': /global unicast/,
      '::1:2:3:4': /global unicast/,
      // Translation prefixes are refused whatever they carry: only global unicast is reached.
      '64:ff9b::808:808': /NAT64/,
      '2002:5db8:d822::1': /6to4/,
    };
    for (const [ip, why] of Object.entries(refused)) expect(refusalReason(ip), ip).to.match(why);
    for (const ip of ['2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8']) expect(refusalReason(ip), ip).to.equal(null);
  });

  it('refuses what is not an address at all', () => {
    expect(refusalReason('example.com')).to.equal('not an IP address');
    expect(refusalReason('')).to.equal('not an IP address');
    expect(refusalReason('1.2.3')).to.equal('not an IP address');
  });

  it('admits what a (test-only) allow-list names, and nothing else besides public addresses', () => {
    const p = new AddressPolicy('127.0.0.1, 10.9.0.0/16, fd00::/8');
    expect(p.check('127.0.0.1')).to.equal(null);
    expect(p.check('::ffff:127.0.0.1')).to.equal(null);
    expect(p.check('127.0.0.2')).to.match(/loopback/);
    expect(p.check('10.9.3.4')).to.equal(null);
    expect(p.check('10.10.0.1')).to.match(/private/);
    expect(p.check('fd00::5')).to.equal(null);
    expect(p.check('8.8.4.4')).to.equal(null);
    expect(new AddressPolicy().check('127.0.0.1')).to.match(/loopback/);
  });

  it('names a malformed allow-list entry', () => {
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.1/x', '::1/129']) expect(() => parseAllowList(bad), bad).to.throw(bad);
  });
});
