import fs from 'node:fs';
import { expect } from 'chai';
import sharp from 'sharp';
import { ICON_DIR } from '../../src/ingest/generator/raster.ts';
import { ImageError, openImage, SVG_RENDER_SIDE, sniff } from '../../src/logos/imageInput.ts';
import { decodeLogo } from '../../src/logos/pixels/image.ts';
import { type ImageServer, startImageServer } from '../helpers/imageServer.ts';
import { addLogos, createLogoApp, drawLogo, indexPending, type LogoTestApp } from '../helpers/logos.ts';

// The formats logo search takes (JPEG, PNG, WebP, GIF's first frame, SVG), judged by their bytes, and
// the SVGs it refuses to draw (src/logos/imageInput.ts, svgSafety.ts). Fixtures are made here from PNGs
// and from a simple-icons path.

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const svg = (inner: string, attrs = 'width="40" height="40"') => Buffer.from(`<svg ${NS} ${attrs}>${inner}</svg>`);

/** The github glyph as a vector logo drawn as drawLogo draws it: 80 % of a 96-px white square, in drawLogo's ink. */
function vectorLogo(slug: string): Buffer {
  const d = /\bd="([^"]+)"/.exec(fs.readFileSync(`${ICON_DIR}${slug}.svg`, 'utf8'))![1];
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n<!-- Generator: a drawing program, as most SVGs begin -->\n' +
      `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" width="96" height="96" viewBox="0 0 96 96">` +
      '<defs><rect id="paper" width="96" height="96"/></defs><use xlink:href="#paper" fill="#fff"/>' +
      `<svg x="9.6" y="9.6" width="76.8" height="76.8" viewBox="0 0 24 24"><path style="fill:rgb(20,40,160)" d="${d}"/></svg></svg>`,
  );
}

/** The error an image is refused with. */
async function refusal(p: Promise<unknown>): Promise<ImageError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ImageError) return err;
    throw err;
  }
  throw new Error('expected the image to be refused');
}

// Each refused SVG: what it holds, and words of the refusal.
const UNSAFE: [string, Buffer, RegExp][] = [
  [
    'an external xlink:href',
    svg(
      '<image xlink:href="http://169.254.169.254/latest/logo.png" width="9" height="9"/>',
      `width="40" height="40" xmlns:xlink="http://www.w3.org/1999/xlink"`,
    ),
    /xlink:href on <image> refers to "http:\/\/169\.254/,
  ],
  ['a file href', svg('<image href="file:///etc/passwd" width="9" height="9"/>'), /refers to "file:\/\/\/etc\/passwd"/],
  [
    'an href spelt with character references',
    svg('<image href="&#104;ttp://x.example/a.png" width="9" height="9"/>'),
    /"http:\/\/x\.example/,
  ],
  [
    'an XInclude',
    svg('<text><xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd" parse="text"/></text>'),
    /xi:include/,
  ],
  [
    'a url() in a style attribute, CSS-escaped',
    svg('<rect style="fill:\\75rl(https://x.example/p)" width="9" height="9"/>'),
    /url\(\) in style/,
  ],
  [
    'a url() in <style>, split by a CDATA section',
    svg('<style>.a{fill:ur<![CDATA[l(https://x.example/p)]]>}</style>'),
    /url\(\) in <style>/,
  ],
  ['an @import', svg('<style>@import "https://x.example/a.css";</style>'), /@import/],
  ['an inline SVG image', svg('<image href="data:image/svg+xml;base64,PHN2Zy8+" width="9" height="9"/>'), /not a base64 PNG/],
  [
    'a billion-laughs entity',
    Buffer.from(
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
        `<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><svg ${NS} width="40" height="40"><text>&c;</text></svg>`,
    ),
    /DOCTYPE or ENTITY/,
  ],
  [
    "a DOCTYPE naming the W3C's DTD",
    Buffer.from(`<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg ${NS}/>`),
    /DOCTYPE/,
  ],
  ['a <script>', svg('<script>alert(1)</script>'), /<script> element/],
  ['a <foreignObject>', svg('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>'), /<foreignObject>/],
  [
    'a stylesheet instruction',
    Buffer.from(`<?xml version="1.0"?><?xml-stylesheet href="https://x.example/a.css"?><svg ${NS}/>`),
    /processing instruction/,
  ],
  ['another encoding', Buffer.from(`<?xml version="1.0" encoding="UTF-16"?><svg ${NS}/>`), /encoding "UTF-16"/],
  ['an absurd viewBox', svg('', 'viewBox="0 0 1e30 1e30"'), /viewBox/],
];

describe('logo search: image formats', function () {
  this.timeout(120_000);
  let github: Buffer;
  let docker: Buffer;
  /** github then docker, as one animated GIF. */
  let animated: Buffer;

  before(async () => {
    github = await drawLogo({ slug: 'github' });
    docker = await drawLogo({ slug: 'docker' });
    animated = await sharp([github, docker], { join: { animated: true } })
      .gif()
      .toBuffer();
  });

  describe('by their bytes', () => {
    it('names each format by its bytes, an SVG after its XML declaration and comments', async () => {
      const jpeg = await drawLogo({ slug: 'github', format: 'jpeg' });
      const webp = await sharp(github).webp().toBuffer();
      expect([github, jpeg, webp, animated, vectorLogo('github')].map((b) => sniff(b))).to.deep.equal([
        'png',
        'jpeg',
        'webp',
        'gif',
        'svg',
      ]);
      expect(sniff(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), svg('')]))).to.equal('svg');
      expect(sniff(Buffer.from('<!doctype html><html><svg></svg></html>'))).to.equal(null);
      expect(sniff(Buffer.from('hello, this is a text file'))).to.equal(null);
    });

    it('decodes the first frame of an animated GIF', async () => {
      expect((await sharp(animated).metadata()).pages).to.equal(2);
      const first = await sharp(animated).png().toBuffer();
      const second = await sharp(animated, { page: 1 }).png().toBuffer();
      expect((await decodeLogo(animated)).grey.equals((await decodeLogo(first)).grey)).to.equal(true);
      expect((await decodeLogo(animated)).grey.equals((await decodeLogo(second)).grey)).to.equal(false);
    });

    it('draws an SVG at most SVG_RENDER_SIDE pixels a side, whatever size it claims up to 10,000; past that it is refused', async () => {
      for (const [w, h] of [
        [10_000, 5_000],
        [24, 24],
      ]) {
        const opened = await openImage(svg(`<rect width="${w}" height="${h}" fill="navy"/>`, `width="${w}" height="${h}"`));
        const { info } = await opened.pipeline().raw().toBuffer({ resolveWithObject: true });
        expect(Math.max(info.width, info.height), `${w}×${h}`).to.be.within(SVG_RENDER_SIDE * 0.9, SVG_RENDER_SIDE);
        expect(opened.format).to.equal('svg');
      }
      const huge = await refusal(openImage(svg('', 'width="1000000000" height="1000000000"')));
      expect(huge.code).to.equal('image_dimensions');
      expect(huge.message).to.contain('at most 10000');
      expect((await refusal(openImage(svg('', 'width="10001mm" height="10"')))).code).to.equal('image_dimensions');
      // Drawn 512 wide, it would be 2 pixels high: too thin to be a logo.
      expect((await refusal(openImage(svg('', 'width="2000" height="10"')))).code).to.equal('image_dimensions');
    });

    for (const [what, bytes, message] of UNSAFE) {
      it(`refuses an SVG with ${what} (svg_refused), before drawing it`, async () => {
        const err = await refusal(decodeLogo(bytes));
        expect(err.code, err.message).to.equal('svg_refused');
        expect(err.message).to.match(message);
      });
    }

    it('stops drawing an SVG after 5 s: one whose <use> elements instance groups of <use>, eight deep (10^8 paths)', async () => {
      let defs = '<path id="l0" d="M0 0 L 50 80 L 90 10 Z M 5 5 L 60 60 L 10 90 Z"/>';
      for (let i = 1; i <= 8; i++)
        defs += `<g id="l${i}">${Array.from({ length: 10 }, (_, j) => `<use href="#l${i - 1}" x="${j}"/>`).join('')}</g>`;
      const bomb = svg(`<defs>${defs}</defs><use href="#l8"/>`, 'width="100" height="100"');
      expect(bomb.length).to.be.below(2500);
      const err = await refusal(decodeLogo(bomb));
      expect(err.code).to.equal('svg_refused');
      expect(err.message).to.contain('took longer than 5 s to draw');
    });

    it("allows references to the SVG's own elements and inline PNG, JPEG, GIF and WebP images", async () => {
      const inline = async (b: Buffer, type: string) =>
        `<image href="data:image/${type};base64,${b.toString('base64')}" width="40" height="40"/>`;
      const parts = [
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#000"/></linearGradient></defs>',
        '<rect fill="url(#g)" width="9" height="9"/><use href="#g"/>',
        await inline(github, 'png'),
        await inline(await sharp(github).jpeg().toBuffer(), 'jpeg'),
        await inline(await sharp(github).webp().toBuffer(), 'webp'),
        await inline(animated, 'gif'),
      ];
      const d = await decodeLogo(svg(parts.join('')));
      expect(d.source.format).to.equal('svg');
      expect(d.width).to.be.within(SVG_RENDER_SIDE * 0.9, SVG_RENDER_SIDE);
    });

    it('refuses malformed XML as corrupt, and an inline image that is an SVG by its bytes', async () => {
      expect((await refusal(decodeLogo(svg('<rect>')))).code).to.equal('image_corrupt');
      expect((await refusal(decodeLogo(svg('<rect a=1/>')))).code).to.equal('image_corrupt');
      const disguised = svg(`<image href="data:image/png;base64,${svg('').toString('base64')}" width="9" height="9"/>`);
      expect((await refusal(decodeLogo(disguised))).code).to.equal('svg_refused');
    });
  });

  describe('through the API', () => {
    let t: LogoTestApp;
    let server: ImageServer;
    const files: Record<string, Buffer> = {};

    before(async () => {
      files['logo.jpg'] = await drawLogo({ slug: 'github', format: 'jpeg' });
      files['logo.webp'] = await sharp(github).webp({ lossless: true }).toBuffer();
      files['logo.gif'] = animated;
      files['logo.svg'] = vectorLogo('github');
      files['evil.svg'] = UNSAFE[0][1];
      server = await startImageServer(
        Object.fromEntries(
          Object.entries(files).map(([name, b]) => [`/${name}`, (res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(b)]),
        ),
      );
      t = await createLogoApp({ IMAGE_FETCH_TEST_ALLOW: server.hostPort, IMAGE_FETCH_TEST_CA: server.caFile });
      await addLogos(t.app, [
        { app: '5300001', mark: '', draw: { slug: 'github' } },
        { app: '5300002', mark: '', draw: { slug: 'docker' } },
        { app: '5300003', mark: '', draw: { slug: 'firefox' } },
      ]);
      expect(await indexPending(t)).to.deep.equal({ done: 3, failed: 0 });
    });
    after(async () => {
      await t?.close();
      await server?.close();
    });

    const upload = (file: Buffer, name: string) =>
      t.app.post('/v1/logo-search/image/').attach('uploaded_file', file, name).field('similarity_level', 'low');
    const ranked = (res: { body: { results: { application_number: string; clip_similarity: number }[] } }) =>
      res.body.results.map((r) => [r.application_number, r.clip_similarity]);

    it('searches with a JPEG, a WebP, a GIF and an SVG upload, each finding the logo it shows', async () => {
      for (const name of ['logo.jpg', 'logo.webp', 'logo.gif', 'logo.svg']) {
        const res = await upload(files[name], name);
        expect(res.status, `${name}: ${JSON.stringify(res.body)}`).to.equal(200);
        expect(res.body.results[0].application_number, name).to.equal('5300001');
      }
    });

    it("searches an animated GIF by its first frame: the answer is its first frame's as a PNG, not its second's", async () => {
      const gif = await upload(animated, 'moving.gif');
      const first = await upload(await sharp(animated).png().toBuffer(), 'first.png');
      const second = await upload(await sharp(animated, { page: 1 }).png().toBuffer(), 'second.png');
      expect(ranked(gif)).to.deep.equal(ranked(first));
      expect(second.body.results[0].application_number).to.equal('5300002');
      expect(ranked(gif)).to.not.deep.equal(ranked(second));
    });

    it('refuses a text file named .png and other image types with 400 naming the accepted ones, and costs nothing', async () => {
      const c = await t.app.client({ quotas: { logo_searches: 5 } });
      const text = await c.post('/v1/logo-search/image/').attach('uploaded_file', Buffer.from('hello, not a logo'), 'logo.png');
      expect(text.status).to.equal(400);
      expect(text.body.code).to.equal('not_an_image');
      expect(text.body.error).to.contain('JPEG, PNG, WebP, GIF (its first frame) or SVG');
      const tiff = await c.post('/v1/logo-search/image/').attach('uploaded_file', await sharp(github).tiff().toBuffer(), 'logo.tif');
      expect(tiff.status).to.equal(400);
      expect(tiff.body.code).to.equal('unsupported_image_type');
      expect(tiff.body.error).to.match(/TIFF.*JPEG, PNG, WebP, GIF/);
      const svgz = await c.post('/v1/logo-search/image/').attach('uploaded_file', Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]), 'logo.svgz');
      expect(svgz.body.code).to.equal('unsupported_image_type');
      const unsafe = await c.post('/v1/logo-search/image/').attach('uploaded_file', UNSAFE[0][1], 'evil.svg');
      expect(unsafe.status).to.equal(400);
      expect(unsafe.body.code).to.equal('svg_refused');
      expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(0);
    });

    it('refuses a WebP or an SVG named as another format (image_type_mismatch)', async () => {
      const webp = await upload(files['logo.webp'], 'logo.png');
      expect(webp.status).to.equal(400);
      expect(webp.body.code).to.equal('image_type_mismatch');
      expect(webp.body.error).to.contain('is a WebP file');
      expect((await upload(files['logo.svg'], 'logo.gif')).body.code).to.equal('image_type_mismatch');
    });

    it('keeps the 5 MB limit for SVG: 413 past it', async () => {
      const padded = Buffer.concat([files['logo.svg'], Buffer.from(`<!--${'x'.repeat(5 * 1024 * 1024)}-->`)]);
      const res = await upload(padded, 'big.svg');
      expect(res.status).to.equal(413);
      expect(res.body.code).to.equal('payload_too_large');
    });

    it('answers each file of a bulk upload, an unsafe SVG its own error', async () => {
      const c = await t.app.client({ bulk_logo_limit: 100, quotas: { logo_searches: 10 } });
      let req = c.post('/v1/logo-search/bulk-image/').field('similarity_level', 'low');
      for (const name of ['logo.webp', 'logo.gif', 'logo.svg', 'evil.svg']) req = req.attach('uploaded_files', files[name], name);
      const res = await req.attach('uploaded_files', Buffer.from('plain text'), 'notes.png');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const items = res.body.results as { file: string; error: { code: string } | null; results: { application_number: string }[] }[];
      expect(items.map((i) => [i.file, i.error?.code ?? i.results[0].application_number])).to.deep.equal([
        ['logo.webp', '5300001'],
        ['logo.gif', '5300001'],
        ['logo.svg', '5300001'],
        ['evil.svg', 'svg_refused'],
        ['notes.png', 'not_an_image'],
      ]);
      expect(res.body.charged).to.equal(3);
      expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(3);
    });

    it('fetches WebP, GIF and SVG by URL, judged by their bytes whatever the Content-Type; an unsafe SVG is refused', async () => {
      for (const name of ['logo.webp', 'logo.gif', 'logo.svg']) {
        const res = await t.app.post('/v1/logo-search/image-url/').send({ image_url: `${server.origin}/${name}`, similarity_level: 'low' });
        expect(res.status, `${name}: ${JSON.stringify(res.body)}`).to.equal(200);
        expect(res.body.results[0].application_number).to.equal('5300001');
      }
      const evil = await t.app.post('/v1/logo-search/image-url/').send({ image_url: `${server.origin}/evil.svg` });
      expect(evil.status).to.equal(400);
      expect(evil.body.code).to.equal('svg_refused');
      const c = await t.app.client({ bulk_logo_limit: 100, quotas: { logo_searches: 10 } });
      const bulk = await c
        .post('/v1/logo-search/bulk-image-url/')
        .send({ image_urls: [`${server.origin}/logo.svg`, `${server.origin}/evil.svg`], similarity_level: 'low' });
      expect(bulk.status).to.equal(200);
      expect(bulk.body.results.map((r: { error: { code: string } | null }) => r.error?.code ?? null)).to.deep.equal([null, 'svg_refused']);
      expect(bulk.body.charged).to.equal(1);
    });
  });
});
