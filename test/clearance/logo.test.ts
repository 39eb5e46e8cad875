import { expect } from 'chai';
import { type ImageServer, startImageServer } from '../helpers/imageServer.ts';
import { addLogos, createLogoApp, drawLogo, indexPending, type LogoTestApp } from '../helpers/logos.ts';

// POST /v1/clearance/ with a logo: uploaded (multipart) or by URL, embedded by the real sidecar and
// compared with the register's indexed logos.

interface Result {
  application_number: string;
  matching_criteria: string;
  visual_similarity_percentage: number;
  reasons: string[];
  logo_url: { url: string; expires_in: string } | null;
}

describe('POST /v1/clearance/ (logos)', function () {
  this.timeout(60_000);
  let t: LogoTestApp;
  let server: ImageServer;
  let copy: Buffer;

  before(async () => {
    // A recoloured copy of a registered logo, under another name.
    copy = await drawLogo({ slug: 'docker', size: 140, ink: [200, 30, 30] });
    server = await startImageServer({
      '/copy.png': (res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(copy),
      '/page.html': (res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><p>not a logo</p>'),
    });
    t = await createLogoApp({ IMAGE_FETCH_TEST_ALLOW: server.hostPort, IMAGE_FETCH_TEST_CA: server.caFile });
    await addLogos(t.app, [
      { app: '5200001', mark: 'ORCHID', draw: { slug: 'docker' } },
      { app: '5200002', mark: 'ZEBRA', draw: { slug: 'github' } },
    ]);
    await t.app.deps.db('trademarks').whereIn('application_number', ['5200001', '5200002']).update({ class_number: 29 });
    expect(await indexPending(t)).to.deep.equal({ done: 2, failed: 0 });
    await t.app.deps.search.sync();
  });
  after(async () => {
    await t?.close();
    await server?.close();
  });

  const copied = (results: Result[]) => results.find((r) => r.application_number === '5200001');

  it('finds a look-alike logo from an upload, with a logo reason, its logo link, and both credits charged', async () => {
    const c = await t.app.client();
    const res = await c
      .post('/v1/clearance/')
      .field('word_mark', 'QUOLMEX')
      .field('classes', '29,30')
      .attach('uploaded_file', copy, 'proposal.png');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.query.logo).to.deep.equal({ source: 'upload', model: t.sidecar.model.model });
    const hit = copied(res.body.results)!;
    expect(hit, JSON.stringify(res.body.results)).to.include({ matching_criteria: 'visual' });
    expect(hit.visual_similarity_percentage).to.be.greaterThan(0);
    expect(
      hit.reasons.some((r) => /^logo 0\.\d\d alike$|^logo 1\.00 alike$/.test(r)),
      hit.reasons.join('; '),
    ).to.equal(true);
    expect(hit.reasons).to.include('same class 29');
    expect(hit.logo_url!.url).to.match(/\/files\/logos\/5200001\.png\?/);
    expect(hit.logo_url!.expires_in).to.equal('30 minutes');
    expect(await t.app.used(c.account.accountId, 'clearances')).to.equal(2);
    expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(1);
  });

  it('takes a logo alone, by URL', async () => {
    const c = await t.app.client();
    const res = await c.post('/v1/clearance/').send({ classes: [29], logo_url: `${server.origin}/copy.png` });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.query).to.include({ word_mark: null });
    expect(res.body.query.logo).to.deep.equal({ source: 'url', model: t.sidecar.model.model });
    expect(copied(res.body.results)).to.include({ matching_criteria: 'visual' });
    expect(await t.app.used(c.account.accountId, 'clearances')).to.equal(1);
    expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(1);
  });

  it('refuses a URL that is not an image or not public, and two logos, with 400, charging nothing', async () => {
    const c = await t.app.client();
    for (const [body, code] of [
      [{ classes: [29], logo_url: `${server.origin}/page.html` }, 'not_an_image'],
      [{ classes: [29], logo_url: 'http://10.0.0.1/logo.png' }, 'image_url_refused'],
    ] as const) {
      const res = await c.post('/v1/clearance/').send(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.code, JSON.stringify(body)).to.equal(code);
    }
    const both = await c
      .post('/v1/clearance/')
      .field('classes', '29')
      .field('logo_url', `${server.origin}/copy.png`)
      .attach('uploaded_file', copy, 'proposal.png');
    expect(both.status).to.equal(400);
    expect(both.body.details.map((d: { parameter: string }) => d.parameter)).to.include('logo_url');
    const gif = await c.post('/v1/clearance/').field('classes', '29').attach('uploaded_file', Buffer.from('GIF89a....'), 'logo.gif');
    expect(gif.status).to.equal(400);
    expect(['unsupported_image_type', 'not_an_image', 'image_corrupt']).to.include(gif.body.code);
    expect(await t.app.used(c.account.accountId, 'clearances')).to.equal(0);
    expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(0);
  });
});
