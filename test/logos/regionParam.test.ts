import { expect } from 'chai';
import sharp from 'sharp';
import { expectBadParam } from '../helpers/http.ts';
import { type ImageServer, startImageServer } from '../helpers/imageServer.ts';
import { addLogos, createLogoApp, drawLogo, indexPending, type LogoTestApp } from '../helpers/logos.ts';

// Searching part of an upload (issue 44, item 3): `region` (x,y,w,h in the upload's pixels) searches only the box a
// user drew, as EUIPO's image search lets one crop; a box that is malformed, too small or not inside the image is a
// 400 naming region.

const MARKS = [
  { app: '5700001', mark: '', draw: { slug: 'github' } },
  { app: '5700002', mark: '', draw: { slug: 'docker' } },
  { app: '5700003', mark: '', draw: { slug: 'firefox' } },
];

/** A 640 × 400 sheet: the github logo at (40, 60), the docker logo at (420, 180), each 160 px. */
async function sheet(): Promise<Buffer> {
  const [a, b] = await Promise.all([drawLogo({ slug: 'github', size: 160 }), drawLogo({ slug: 'docker', size: 160 })]);
  return sharp({ create: { width: 640, height: 400, channels: 3, background: '#ffffff' } })
    .composite([
      { input: a, left: 40, top: 60 },
      { input: b, left: 420, top: 180 },
    ])
    .png()
    .toBuffer();
}

describe('logo search: a region of the upload', function () {
  this.timeout(60_000);
  let t: LogoTestApp;
  let page: Buffer;
  let server: ImageServer;
  const search = (region?: string) => {
    const req = t.app.post('/v1/logo-search/image/').attach('uploaded_file', page, 'sheet.png').field('similarity_level', 'low');
    return region === undefined ? req : req.field('region', region);
  };
  const first = (res: { body: { results: { application_number: string }[] } }) => res.body.results[0]?.application_number;

  before(async () => {
    page = await sheet();
    server = await startImageServer({ '/sheet.png': (res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(page) });
    t = await createLogoApp({ IMAGE_FETCH_TEST_ALLOW: server.hostPort, IMAGE_FETCH_TEST_CA: server.caFile });
    await addLogos(t.app, MARKS);
    expect(await indexPending(t)).to.deep.equal({ done: MARKS.length, failed: 0 });
  });
  after(async () => {
    await t?.close();
    await server?.close();
  });

  it('searches only the box drawn: each logo of a sheet of two, first by its own box', async () => {
    const left = await search('30,50,180,180');
    expect(left.status, JSON.stringify(left.body)).to.equal(200);
    expect(first(left)).to.equal('5700001');
    const right = await search('410,170,180,180');
    expect(first(right)).to.equal('5700002');
    expect(right.body.results[0].clip_similarity).to.be.greaterThan(
      left.body.results.find((r: { application_number: string }) => r.application_number === '5700002')?.clip_similarity ?? 0,
    );
  });

  it('takes region with an image URL too', async () => {
    const body = { image_url: `${server.origin}/sheet.png`, region: '410,170,180,180', similarity_level: 'low' };
    const res = await t.app.post('/v1/logo-search/image-url/').send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(first(res)).to.equal('5700002');
  });

  it('refuses a box that is malformed, too small or not inside the image, naming region, and charges nothing', async () => {
    const c = await t.app.client({ quotas: { logo_searches: 20 } });
    for (const bad of ['10,10', '10,10,200,-5', 'a,b,c,d', '0,0,8,300', '600,300,100,150', '0,0,641,400']) {
      const res = await c.post('/v1/logo-search/image/').attach('uploaded_file', page, 'sheet.png').field('region', bad);
      expectBadParam(res, 'region');
    }
    const outside = await c.post('/v1/logo-search/image/').attach('uploaded_file', page, 'sheet.png').field('region', '600,300,100,150');
    expect(outside.body.error).to.match(/not inside the image, which is 640×400 pixels/);
    expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(0);
  });
});
