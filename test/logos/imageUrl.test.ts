import net from 'node:net';
import { expect } from 'chai';
import { AppError } from '../../src/errors.ts';
import { fetchImage, isForbiddenAddress, vetUrl } from '../../src/logos/imageFetch.ts';
import { FENCE_ERROR } from '../helpers/fence.ts';
import { type ImageServer, startImageServer } from '../helpers/imageServer.ts';
import { addLogos, createLogoApp, drawLogo, indexPending, type LogoTestApp } from '../helpers/logos.ts';

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('image URL fetching', function () {
  this.timeout(60_000);

  describe('address classifier', () => {
    it('refuses private, loopback, link-local, reserved and multicast addresses, in every IPv6 disguise', () => {
      for (const a of [
        '10.0.0.1',
        '10.255.255.255',
        '172.16.0.1',
        '172.31.9.9',
        '192.168.1.1',
        '127.0.0.1',
        '127.8.8.8',
        '169.254.169.254',
        '100.64.0.1',
        '0.0.0.0',
        '224.0.0.1',
        '255.255.255.255',
        '198.18.0.1',
        '192.0.2.5',
        '::1',
        '::',
        'fe80::1',
        'fd00::1',
        'fc12::3',
        'ff02::1',
        '::ffff:127.0.0.1',
        '::ffff:7f00:1',
        '::ffff:10.0.0.1',
        '64:ff9b::a00:1',
        '2002:a00:1::1',
        '2001:db8::1',
        'not-an-ip',
        // IPv4-translated (::ffff:0:0/96) and IPv4-compatible (::/96) forms, and translation prefixes whatever they carry.
        '::ffff:0:127.0.0.1',
        '::ffff:0:7f00:1',
        '::127.0.0.1',
        '::7f00:1',
        '::8.8.8.8',
        '2002:5db8:d822::1',
        '64:ff9b::808:808',
        '2001::1',
      ]) {
        expect(isForbiddenAddress(a), a).to.equal(true);
      }
    });

    it('lets public addresses through', () => {
      for (const a of [
        '93.184.216.34',
        '8.8.8.8',
        '172.32.0.1',
        '100.128.0.1',
        '2606:4700::1111',
        '::ffff:93.184.216.34',
        '2a00:1450:4001::200e',
      ]) {
        expect(isForbiddenAddress(a), a).to.equal(false);
      }
    });

    it('refuses a host whose name resolves to a private address, judged after resolution and without connecting', async () => {
      const resolve = async (host: string) => (host === 'evil.example' ? ['93.184.216.35', '10.0.0.7'] : ['93.184.216.34']);
      const err = await refusal(vetUrl(new URL('https://evil.example/logo.png'), { timeoutMs: 1000, resolve }));
      expect(err.code).to.equal('image_url_refused');
      expect(err.message).to.contain('10.0.0.7');
      const ok = await vetUrl(new URL('https://good.example/logo.png'), { timeoutMs: 1000, resolve });
      expect(ok).to.deep.equal({ addresses: ['93.184.216.34'], admitted: false });
      expect((await refusal(vetUrl(new URL('ftp://good.example/x'), { timeoutMs: 1000, resolve }))).code).to.equal('image_url_refused');
      expect((await refusal(vetUrl(new URL('http://u:p@good.example/x'), { timeoutMs: 1000, resolve }))).code).to.equal(
        'image_url_refused',
      );
    });

    it('is backed by the test fence: a connection that got past the guard to a non-loopback address fails here', async () => {
      // Admitted on purpose, so only the fence stands between this test and the network.
      const err = await refusal(fetchImage('http://10.1.2.3/logo.png', { timeoutMs: 2000, allow: new Set(['10.1.2.3:80']) }));
      expect(err.code).to.equal('image_url_unreachable');
      expect(err.message).to.contain(FENCE_ERROR);
      const sock = net.connect({ host: '192.0.2.1', port: 80 });
      const e = await new Promise<NodeJS.ErrnoException>((resolve) => sock.once('error', resolve));
      expect(e.code).to.equal(FENCE_ERROR);
    });
  });

  describe('POST /v1/logo-search/image-url/ and bulk-image-url', () => {
    let server: ImageServer;
    let t: LogoTestApp;
    let closedPort: number;
    let logo: Buffer;

    before(async () => {
      logo = await drawLogo({ slug: 'docker', size: 120, ink: [0, 120, 200] });
      const big = Buffer.concat([logo, Buffer.alloc(5 * 1024 * 1024 + 1 - logo.length)]);
      server = await startImageServer({
        '/logo.png': (res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(logo),
        '/mislabelled': (res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(logo),
        '/page.html': (res) =>
          res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><html><body>not a logo</body></html>'),
        '/huge.png': (res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(big),
        '/huge-chunked.png': (res) => {
          res.writeHead(200, { 'Content-Type': 'image/png' });
          res.end(big);
        },
        '/slow.png': () => undefined,
        '/gone.png': (res) => res.writeHead(404).end(),
        '/to-private': (res) => res.writeHead(302, { Location: 'http://10.0.0.5/logo.png' }).end(),
        '/to-metadata': (res) => res.writeHead(301, { Location: 'http://169.254.169.254/latest/meta-data/' }).end(),
        '/to-logo': (res) => res.writeHead(302, { Location: '/logo.png' }).end(),
      });
      const probe = net.createServer().listen(0, '127.0.0.1');
      await new Promise((r) => probe.once('listening', r));
      closedPort = (probe.address() as net.AddressInfo).port;
      await new Promise((r) => probe.close(r));
      t = await createLogoApp({
        IMAGE_FETCH_TEST_ALLOW: `${server.hostPort},127.0.0.1:${closedPort}`,
        IMAGE_FETCH_TEST_CA: server.caFile,
        IMAGE_FETCH_TIMEOUT_MS: '1500',
      });
      await addLogos(t.app, [
        { app: '5100001', mark: 'WHALE', draw: { slug: 'docker' } },
        { app: '5100002', mark: 'CAT', draw: { slug: 'github' } },
      ]);
      await indexPending(t);
    });
    after(async () => {
      await t?.close();
      await server?.close();
    });

    const search = (image_url: string) => t.app.post('/v1/logo-search/image-url/').send({ image_url, similarity_level: 'low' });

    it('fetches a PNG from an admitted local HTTPS server (following a redirect) and finds the logo', async () => {
      for (const p of ['/logo.png', '/to-logo', '/mislabelled']) {
        const res = await search(`${server.origin}${p}`);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.results[0]).to.include({ application_number: '5100001', model: res.body.model });
      }
    });

    it('refuses HTML, bodies over 5 MB, slow servers, HTTP errors and closed ports with 400 and a precise code', async () => {
      const cases: [string, string][] = [
        [`${server.origin}/page.html`, 'not_an_image'],
        [`${server.origin}/huge.png`, 'image_url_too_large'],
        [`${server.origin}/huge-chunked.png`, 'image_url_too_large'],
        [`${server.origin}/slow.png`, 'image_url_unreachable'],
        [`${server.origin}/gone.png`, 'image_url_unreachable'],
        [`http://127.0.0.1:${closedPort}/logo.png`, 'image_url_unreachable'],
      ];
      for (const [url, code] of cases) {
        const res = await search(url);
        expect(res.status, url).to.equal(400);
        expect(res.body.code, url).to.equal(code);
      }
    });

    it('refuses private and loopback hosts, and redirects to them, without connecting', async () => {
      // image_url_refused is decided before any connection: one attempted would have met the fence (unreachable).
      for (const url of [
        'http://10.0.0.1/logo.png',
        'http://127.0.0.1:9/logo.png',
        'http://[::1]/logo.png',
        'http://169.254.169.254/',
        `${server.origin}/to-private`,
        `${server.origin}/to-metadata`,
        'http://[::ffff:192.168.0.1]/x.png',
        'http://0x7f000001/x.png',
      ]) {
        const res = await search(url);
        expect(res.status, url).to.equal(400);
        expect(res.body.code, url).to.equal('image_url_refused');
      }
      const bad = await t.app.post('/v1/logo-search/image-url/').send({ image_url: 'file:///etc/passwd' });
      expect(bad.status).to.equal(400);
      expect(bad.body.details[0].parameter).to.equal('image_url');
    });

    it('answers each URL of a bulk request, charging only the ones that were searched', async () => {
      const c = await t.app.client({ bulk_logo_limit: 100, quotas: { logo_searches: 10 } });
      const urls = [`${server.origin}/logo.png`, `${server.origin}/page.html`, 'http://10.0.0.9/x.png', `${server.origin}/logo.png`];
      const res = await c.post('/v1/logo-search/bulk-image-url/').send({ image_urls: urls, similarity_level: 'low' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.requested).to.equal(4);
      expect(res.body.results.map((r: { error: { code: string } | null }) => r.error?.code ?? null)).to.deep.equal([
        null,
        'not_an_image',
        'image_url_refused',
        null,
      ]);
      expect(res.body.results[0].results[0].application_number).to.equal('5100001');
      expect(res.body.results[3].results[0].application_number).to.equal('5100001');
      // Three distinct URLs charged up front, two of them failed: one credit spent.
      expect(res.body.charged).to.equal(1);
      expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(1);
    });
  });
});
