import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { AddressPolicy } from '../../src/outbound/addresses.ts';
import { OutboundClient, type Resolver } from '../../src/outbound/client.ts';
import { Receiver, testCertificate } from '../helpers/receiver.ts';

// Refusals are proven without connecting anywhere: names resolve through stubs, and a refused address
// is never handed to a socket (the test fence would turn such a connection into a different error).
describe('outbound client', () => {
  let receiver: Receiver;
  const resolved: string[] = [];
  const stub: Resolver = async (host) => {
    resolved.push(host);
    const table: Record<string, string[]> = {
      'internal.example': ['10.1.2.3'],
      'metadata.example': ['169.254.169.254'],
      'mixed.example': ['192.168.0.5', '127.0.0.1'],
      'receiver.example': ['127.0.0.1'],
      'v6.example': ['fd00::1'],
    };
    return (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const client = (allow = '127.0.0.1', timeoutMs = 2000) =>
    new OutboundClient({
      policy: new AddressPolicy(allow),
      timeoutMs,
      ca: testCertificate().cert,
      resolve: stub,
      maxResponseBytes: 64 * 1024,
    });

  before(async () => {
    receiver = await new Receiver().start();
  });
  after(() => receiver.close());

  it('posts to an admitted address and reports the answer', async () => {
    const c = client();
    const r = await c.post(`${receiver.url}/ok`, { 'Content-Type': 'application/json' }, '{"a":1}');
    expect(r).to.deep.include({ status: 200, error: null, excerpt: null });
    expect(receiver.received.at(-1)!.body).to.equal('{"a":1}');
    c.close();
  });

  it('refuses names that resolve to private, link-local or unique-local addresses, before connecting', async () => {
    const c = client();
    const before = receiver.received.length;
    for (const host of ['internal.example', 'metadata.example', 'v6.example']) {
      const r = await c.post(`https://${host}:${new URL(receiver.url).port}/x`, {}, '{}');
      expect(r.status, host).to.equal(null);
      expect(r.error, host).to.match(/^address refused: .* \((private|link-local|unique local \(private\))\)$/);
      expect(await c.vet(`https://${host}/x`)).to.match(/resolves to/);
    }
    expect(receiver.received.length).to.equal(before);
    c.close();
  });

  it('connects only to the admitted address of a name that resolves to several', async () => {
    const c = client();
    const r = await c.post(`https://mixed.example:${new URL(receiver.url).port}/mixed`, {}, '{}');
    // The certificate names 127.0.0.1 and localhost, not mixed.example: the connection reached the receiver and TLS refused the name.
    expect(r.error).to.match(/ERR_TLS_CERT_ALTNAME_INVALID|altnames/);
    expect(await c.vet('https://mixed.example/x')).to.equal(null);
    c.close();
  });

  it('refuses private IP literals and loopback outside the allow-list', async () => {
    const c = client('');
    for (const url of ['https://10.0.0.1/x', 'https://[fe80::1]/x', receiver.url]) {
      const r = await c.post(url, {}, '{}');
      expect(r.error, url).to.match(/^address refused/);
      expect(await c.vet(url), url).to.match(/resolves to/);
    }
    c.close();
  });

  it('refuses plain http', async () => {
    const r = await client().post('http://receiver.example/x', {}, '{}');
    expect(r.error).to.equal('only https URLs are delivered to');
  });

  it('trusts only the configured certificate authority besides the usual roots', async () => {
    const c = new OutboundClient({ policy: new AddressPolicy('127.0.0.1'), timeoutMs: 2000 });
    const r = await c.post(`${receiver.url}/untrusted`, {}, '{}');
    expect(r.status).to.equal(null);
    expect(r.error).to.match(/self[- ]signed|SELF_SIGNED|unable to verify/i);
    c.close();
  });

  it('gives up at the deadline when the endpoint does not answer', async () => {
    receiver.answer = (r) => (r.path === '/slow' ? 'hang' : { status: 200 });
    const c = client('127.0.0.1', 300);
    const r = await c.post(`${receiver.url}/slow`, {}, '{}');
    expect(r).to.deep.include({ status: null, error: 'no answer within 300 ms' });
    // It waited for the deadline (a timer never fires early); how much longer a loaded machine took is not the client's.
    expect(r.latencyMs).to.be.at.least(250);
    c.close();
    receiver.answer = () => ({ status: 200 });
  });

  it('stops reading an answer past the cap, keeping only an excerpt of a refusal', async () => {
    const { key, cert } = testCertificate();
    const big = https.createServer({ key, cert }, (_req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 1600 && res.write(chunk)) sent++;
        if (sent < 1600) res.once('drain', pump);
        else res.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
    const c = client();
    const r = await c.post(`https://127.0.0.1:${(big.address() as AddressInfo).port}/`, {}, '{}');
    expect(r.status).to.equal(500);
    expect(r.excerpt).to.have.length(1024);
    expect(r.error).to.equal('HTTP 500');
    c.close();
    big.closeAllConnections();
    await new Promise<void>((resolve) => big.close(() => resolve()));
  });
});
