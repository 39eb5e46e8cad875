import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp, { type OverlayOptions } from 'sharp';
import { mergeHits, nearestLogos } from '../../src/logos/imageSearch.ts';
import { findClip } from '../../src/logos/models.ts';
import { LogoImage, loadEmbedder, regionImages } from '../../src/logos/pixels/embedders.ts';
import { decodeLogo } from '../../src/logos/pixels/image.ts';
import { findRegions } from '../../src/logos/pixels/regions.ts';
import { type Box, MAX_REGIONS, mergeScores, REGION_PENALTY } from '../../src/logos/regionScores.ts';
import type { Nearest } from '../../src/logos/repository.ts';
import { inkedIcon } from '../helpers/inkedIcon.ts';
import { addLogos, blob, createLogoApp, drawLogo, indexPending, type LogoTestApp } from '../helpers/logos.ts';

// Finding the logo in an upload (src/logos/pixels/regions.ts): a logo on a larger page among other drawing and
// a line of words is found by its region where the whole image alone finds something else; a clean logo
// still costs one embedding; odd images never fail because of it. Searched through the real sidecar.

const INK: [number, number, number] = [20, 40, 160];
const MARKS = [
  { app: '5300001', mark: '', draw: { slug: 'github' } },
  { app: '5300002', mark: '', draw: { slug: 'docker' } },
  { app: '5300003', mark: '', draw: { slug: 'firefox' } },
  { app: '5300004', mark: '', draw: { slug: 'python' } },
  { app: '5300005', mark: '', draw: { slug: 'apple' } },
];
// A registered logo that is the page's other drawing: what the page as a whole looks most like.
const DECOY = '5300009';

/** The page's other drawing: a grey block, a rule and a ring of dots, in a 640 × 480 SVG. */
function drawing(withBlock = true): Buffer {
  const dots = Array.from({ length: 8 }, (_, i) => {
    const a = (i / 8) * 2 * Math.PI;
    return `<circle cx="${500 + Math.cos(a) * 40}" cy="${390 + Math.sin(a) * 40}" r="9" fill="#444"/>`;
  }).join('');
  const block = withBlock ? '<rect x="380" y="40" width="220" height="150" fill="#8a8f99"/>' : '';
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480">${block}` +
      `<rect x="40" y="250" width="560" height="6" fill="#222"/>${dots}</svg>`,
  );
}

const words = (line: string) =>
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="60"><text x="320" y="40" text-anchor="middle" ' +
      `font-family="DejaVu Serif" font-weight="bold" font-size="30" fill="#222">${line}</text></svg>`,
  );

/** The logo (150 px, 7 % of the page) top left on a 640 × 480 page with other drawing and a line of words. */
async function page(slug: string | null): Promise<Buffer> {
  const layers: OverlayOptions[] = [
    { input: drawing(), left: 0, top: 0 },
    { input: words('Sunrise Foods Pvt Ltd'), left: 0, top: 275 },
  ];
  if (slug) layers.push({ input: (await inkedIcon(slug, 150, INK)).png, left: 40, top: 40 });
  return sharp({ create: { width: 640, height: 480, channels: 3, background: '#ffffff' } })
    .composite(layers)
    .png()
    .toBuffer();
}

/** An SVG of `w` × `h` on a plain background holding `body`, decoded as an upload is. */
const drawn = (w: number, h: number, body: string, bg = '#ffffff', colour = true) =>
  decodeLogo(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="${bg}"/>${body}</svg>`,
    ),
    { colour },
  );

/** A line of words in bold DejaVu Serif (or another face, italic, another ink). */
const textAt = (x: number, y: number, size: number, line: string, o: { family?: string; italic?: boolean; fill?: string } = {}) =>
  `<text x="${x}" y="${y}" font-family="${o.family ?? 'DejaVu Serif'}" font-weight="bold"${o.italic ? ' font-style="italic"' : ''} ` +
  `font-size="${size}" fill="${o.fill ?? '#222'}">${line}</text>`;

/** Whether a region's box contains a drawn box (x0, y0)..(x1, y1), drawn at `scale` of the decoded pixels. */
const holdsBox = (r: { box: Box }, x0: number, y0: number, x1: number, y1: number, scale = 1) =>
  r.box.left <= scale * x0 && r.box.top <= scale * y0 && r.box.left + r.box.width >= scale * x1 && r.box.top + r.box.height >= scale * y1;

const health = async (t: LogoTestApp) => (await (await fetch(`${t.sidecar.url}/health`)).json()) as { embedded: number };

describe('finding the logo in an upload', function () {
  this.timeout(90_000);
  let t: LogoTestApp;

  before(async () => {
    t = await createLogoApp();
    await addLogos(t.app, MARKS);
    // The decoy: the page's drawing and words without any logo, registered as a logo of its own.
    await addLogos(t.app, [{ app: DECOY, mark: '', draw: { slug: 'github' } }]);
    await t.app.deps.store.put(`logos/${DECOY}.png`, await page(null));
    expect(await indexPending(t)).to.deep.equal({ done: MARKS.length + 1, failed: 0 });
  });
  after(() => t.close());

  it('finds the logo on a page among other drawing and words, where the whole page alone finds the drawing', async () => {
    const query = await page('docker');
    const alone = await nearestLogos(t.app.deps.logos.images, query, 5, null, { regions: false });
    expect(alone.hits[0].application_number, 'the whole page alone').to.not.equal('5300002');
    const before = (await health(t)).embedded;
    const res = await t.app.post('/v1/logo-search/image/').attach('uploaded_file', query, 'page.png').field('similarity_level', 'low');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.results[0].application_number).to.equal('5300002');
    // The whole page and its best few regions: more than one embedding, never more than 1 + MAX_REGIONS.
    const spent = (await health(t)).embedded - before;
    expect(spent).to.be.within(2, 1 + MAX_REGIONS);
  });

  it("streams the image's embedding, then its regions' as in one answer, the regions ahead of the next image", async () => {
    const [query, other] = [await page('docker'), await drawLogo({ slug: 'github' })];
    const post = (q: string, body: Buffer) => fetch(`${t.sidecar.url}/embed?${q}`, { method: 'POST', body: blob(body) });
    const whole = await (await post('hog=1&regions=1', query)).json();
    // The shared sidecar has one thread: the page's regions wait for it, and go ahead of an image sent meanwhile.
    const order: string[] = [];
    const streamed = post('hog=1&regions=1&stream=1', query).then(async (res) => {
      expect(res.headers.get('content-type')).to.equal('application/x-ndjson');
      const lines: string[] = [];
      let text = '';
      for await (const chunk of res.body!.pipeThrough(new TextDecoderStream())) {
        text += chunk;
        for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
          lines.push(text.slice(0, nl));
          order.push(lines.length === 1 ? 'page image' : 'page regions');
          text = text.slice(nl + 1);
        }
      }
      expect(text).to.equal('');
      return lines.map((l) => JSON.parse(l));
    });
    const next = post('hog=1', other).then(() => order.push('next image'));
    const [[image, rest]] = await Promise.all([streamed, next]);
    expect(order).to.deep.equal(['page image', 'page regions', 'next image']);
    const { regions, ms: _, ...one } = whole;
    expect(image.image).to.deep.equal(one);
    expect(image.image.fallback_vector).to.have.length(900);
    expect(rest.regions).to.have.length.within(1, MAX_REGIONS);
    expect(rest.regions).to.deep.equal(regions);
    expect(rest.ms).to.be.a('number');
    // An unusable image is refused before anything is streamed.
    const bad = await post('regions=1&stream=1', Buffer.from('plain words'));
    expect(bad.status).to.equal(400);
    expect((await bad.json()).code).to.equal('not_an_image');
  });

  it('answers, streamed, what the one-document answer of the image and its regions gives, merged by mark', async () => {
    const deps = t.app.deps.logos.images;
    const query = await page('docker');
    const one = await deps.sidecar.embed(query, true, true);
    expect(one.regions).to.have.length.within(1, MAX_REGIONS);
    const { model } = await deps.sidecar.models();
    const rr = model.rerank!;
    const near = (v: { vector: number[]; fallback_vector?: number[] }) =>
      deps.repo.nearest(one.model, v.vector, 5, {
        model: rr.model,
        vector: v.fallback_vector!,
        weight: rr.weight,
        candidates: rr.candidates,
      });
    const expected = mergeHits(await near(one), await Promise.all(one.regions!.map(near)), 5);
    const answer = await nearestLogos(deps, query, 5);
    expect(answer.hits).to.deep.equal(expected);
    expect(answer.hits[0].application_number).to.equal('5300002');
  });

  it('leaves the line of words out of the regions it searches', async () => {
    const d = await decodeLogo(await page('docker'));
    const regions = findRegions(d);
    expect(regions.length).to.be.within(1, MAX_REGIONS);
    // Decoded at 512 of 640, the words' line runs across rows 230 to 260: no region is centred on it or shaped like it.
    for (const { box } of regions) {
      expect(box.top + box.height / 2, JSON.stringify(box)).to.not.be.within(225, 265);
      expect(box.width, JSON.stringify(box)).to.be.below(2.5 * box.height);
    }
    // The logo's region is the best, around it (the glyph lies within 32..152 of the decoded page), and no more.
    const [top] = regions;
    expect(top.box.left).to.be.within(16, 40);
    expect(top.box.left + top.box.width).to.be.within(140, 170);
    expect(top.box.top).to.be.at.least(16);
    expect(top.box.top + top.box.height).to.be.at.most(170);
  });

  it('embeds a clean logo once, as before', async () => {
    const before = (await health(t)).embedded;
    const query = await drawLogo({ slug: 'github', ink: [200, 30, 30], size: 140 });
    const res = await t.app.post('/v1/logo-search/image/').attach('uploaded_file', query, 'q.png').field('similarity_level', 'low');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.results[0].application_number).to.equal('5300001');
    expect((await health(t)).embedded - before).to.equal(1);
    expect(findRegions(await decodeLogo(query))).to.deep.equal([]);
  });

  it('finds a logo of parts set apart (three bars) and a wordmark set larger than the body text, not a flat block', async () => {
    // Decoded at 512 of 640 (0.8): a region holds a drawn box when it contains it.
    const holds = (r: { box: Box }, x0: number, y0: number, x1: number, y1: number) => holdsBox(r, x0, y0, x1, y1, 0.8);
    const bars = [80, 110, 140].map((h, i) => `<rect x="${40 + 50 * i}" y="${190 - h}" width="20" height="${h}" fill="#c03"/>`);
    const onPage = async (svg: string) =>
      decodeLogo(
        await sharp({ create: { width: 640, height: 480, channels: 3, background: '#ffffff' } })
          .composite([
            { input: drawing(), left: 0, top: 0 },
            { input: words('Sunrise Foods Pvt Ltd'), left: 0, top: 275 },
            { input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480">${svg}</svg>`), left: 0, top: 0 },
          ])
          .png()
          .toBuffer(),
      );
    // Each bar alone is a thin sliver of the ink; the three together are the logo.
    const barRegions = findRegions(await onPage(bars.join('')));
    expect(
      barRegions.some((r) => holds(r, 40, 50, 160, 190)),
      JSON.stringify(barRegions.map((r) => r.box)),
    ).to.equal(true);
    // A wordmark in letters twice the body text's height is searched; the body text's line is not.
    const mark = '<text x="40" y="150" font-family="DejaVu Sans" font-weight="bold" font-size="64" fill="#c03">ACME</text>';
    const markRegions = findRegions(await onPage(mark));
    expect(
      markRegions.some((r) => holds(r, 44, 105, 200, 150)),
      JSON.stringify(markRegions.map((r) => r.box)),
    ).to.equal(true);
    for (const { box } of markRegions) expect(box.top + box.height / 2, JSON.stringify(box)).to.not.be.within(225, 265);
    // The flat grey block (380..600 × 40..190 on the page) is no drawing: never searched.
    const onBlock = (b: { left: number; top: number; width: number; height: number }) =>
      b.left + b.width / 2 > 0.8 * 380 && b.left + b.width / 2 < 0.8 * 600 && b.top + b.height / 2 < 0.8 * 190;
    for (const { box } of [...barRegions, ...markRegions]) expect(onBlock(box), JSON.stringify(box)).to.equal(false);
  });

  it('finds a logo a rule runs across, and one beside a block of another ink, on a page framed by thin lines', async () => {
    // Decoded at 512 of 640 (0.8): a region holds a drawn box when it contains it.
    const holds = (r: { box: Box }, x0: number, y0: number, x1: number, y1: number) => holdsBox(r, x0, y0, x1, y1, 0.8);
    const logo = (await inkedIcon('github', 120, [200, 20, 40])).png;
    const svg = (body: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480">${body}</svg>`);
    const frame = '<rect x="8" y="8" width="624" height="464" fill="none" stroke="#333" stroke-width="3"/>';
    const block = '<rect x="210" y="90" width="110" height="90" fill="#2050c0"/>';
    const dots = '<circle cx="520" cy="120" r="30" fill="#555"/><circle cx="470" cy="250" r="18" fill="#555"/>';
    /** The logo at (70, 70), 120 px, on a framed page with a blue block beside it, dots and words; `over` drawn last. */
    const page = async (over: string) =>
      decodeLogo(
        await sharp({ create: { width: 640, height: 480, channels: 3, background: '#f4f1ea' } })
          .composite([
            { input: svg(`${frame}${block}${dots}`) },
            { input: logo, left: 70, top: 70 },
            { input: words('Sunrise Foods Pvt Ltd'), left: 0, top: 330 },
            { input: svg(over) },
          ])
          .png()
          .toBuffer(),
        { colour: true },
      );
    const cases = {
      'beside a block of another ink': await page(''),
      // A rule across the whole page, through the logo.
      'with a rule across it': await page('<line x1="0" y1="110" x2="640" y2="150" stroke="#0a8" stroke-width="3"/>'),
    };
    for (const [what, d] of Object.entries(cases)) {
      const found = findRegions(d);
      // Among the regions searched, the logo alone: holding it, and stopping short of the blue block.
      const alone = found.filter((r) => holds(r, 70, 70, 190, 190) && r.box.left + r.box.width < 0.8 * 265);
      expect(alone, `${what}: ${JSON.stringify(found.map((r) => r.box))}`).to.have.length(1);
    }
  });

  it('finds a wordmark on a label with only words below it, a ring keeps the letters inside it, and a logo of dots in rows', async () => {
    // A label on a table holding no drawing, only the wordmark and the firm's name in smaller letters below it.
    const label = await drawn(
      480,
      400,
      `<rect x="60" y="50" width="360" height="300" fill="#f4f0e4"/>${textAt(150, 150, 48, 'ACME')}` +
        textAt(110, 310, 22, 'Royal Traders &amp; Co'),
      '#605446',
    );
    const onLabel = findRegions(label);
    expect(
      onLabel.some((r) => holdsBox(r, 155, 118, 300, 150)),
      JSON.stringify(onLabel.map((r) => r.box)),
    ).to.equal(true);
    // The wordmark alone, not the whole label: nothing searched reaches the name's line (from 300 down, decoded).
    for (const { box } of onLabel) expect(box.top + box.height, JSON.stringify(box)).to.be.below(300);
    // A ring with letters inside it, beside a name: the ring's region keeps its letters (they are not erased as words).
    const ring = await drawn(
      500,
      160,
      `<circle cx="80" cy="80" r="60" fill="none" stroke="#1a6" stroke-width="8"/>${textAt(42, 93, 34, 'DLX')}` +
        textAt(170, 95, 40, 'Vijay Textiles'),
    );
    const [r] = findRegions(ring);
    expect(r && holdsBox(r, 24, 24, 136, 136), JSON.stringify(r?.box)).to.equal(true);
    const { grey, width } = r.decoded;
    let inside = 0;
    for (let y = 70 - r.box.top; y < 90 - r.box.top; y++)
      for (let x = 50 - r.box.left; x < 110 - r.box.left; x++) if (grey[y * width + x] < 128) inside++;
    expect(inside, 'dark pixels of the letters inside the ring').to.be.above(150);
    // Nine dots in rows of three, beside a name on the middle row: the rows of dots are drawing, not lines of words.
    const dots = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => `<circle cx="${40 + 40 * j}" cy="${40 + 40 * i}" r="15" fill="#111"/>`));
    const grid = await drawn(520, 160, `${dots.join('')}${textAt(180, 95, 40, 'Kiran &amp; Sons')}`);
    const onGrid = findRegions(grid);
    expect(
      onGrid.some((g) => holdsBox(g, 25, 25, 135, 135)),
      JSON.stringify(onGrid.map((g) => g.box)),
    ).to.equal(true);
  });

  it('splits one line of two inks: a wordmark in its colour beside a name in black, the same height', async () => {
    const line = (fill: string) =>
      drawn(
        460,
        160,
        textAt(20, 95, 40, 'ACME', { family: 'DejaVu Sans', fill }) + textAt(160, 95, 40, 'Nova Labs', { italic: true, fill: '#141414' }),
      );
    // Decoded at 512 of 460: ACME spans about 22..150, the name 178..440.
    const regions = findRegions(await line('#d12'));
    expect(regions.length, JSON.stringify(regions.map((r) => r.box))).to.equal(1);
    const [{ box }] = regions;
    expect(box.left).to.be.at.most(22);
    expect(box.left + box.width).to.be.within(150, 178);
    // In one ink it stays one line of words, searched whole.
    expect(findRegions(await line('#141414'))).to.deep.equal([]);
  });

  it('tells a wordmark from a name beside it by colour where the two are alike in lightness', async () => {
    const body =
      textAt(20, 95, 40, 'ACME', { family: 'DejaVu Sans', fill: '#1b3a8c' }) +
      textAt(160, 95, 40, 'Nova Labs', { italic: true, fill: '#333333' });
    // Decoded at 511 of 460: ACME spans about 22..150, the name 178..440.
    const regions = findRegions(await drawn(460, 160, body));
    expect(regions.length, JSON.stringify(regions.map((r) => r.box))).to.equal(1);
    const [{ box }] = regions;
    expect(box.left).to.be.at.most(22);
    expect(box.left + box.width).to.be.within(150, 178);
    // Seen in grey alone, the blue and the dark grey are one ink: one line of words.
    expect(findRegions(await drawn(460, 160, body, '#ffffff', false))).to.deep.equal([]);
  });

  it('splits a line of two inks whose wordmark has a small line under it (a tagline)', async () => {
    const regions = findRegions(
      await drawn(
        460,
        160,
        textAt(20, 95, 40, 'ACME', { family: 'DejaVu Sans', fill: '#d12' }) +
          textAt(24, 112, 10, 'since 1990', { family: 'DejaVu Sans', fill: '#d12' }) +
          textAt(160, 95, 40, 'Nova Labs', { italic: true, fill: '#141414' }),
      ),
    );
    expect(regions.length, JSON.stringify(regions.map((r) => r.box))).to.equal(1);
    expect(regions[0].box.left + regions[0].box.width).to.be.within(150, 178);
  });

  it('keeps a place for the coloured part of a line beside the drawings found', async () => {
    // The name, the tallest thing in the image, reads as drawing (its K is found); the small yellow wordmark is the logo.
    const regions = findRegions(
      await drawn(
        492,
        160,
        textAt(20, 88, 22, 'PEGASUS', { family: 'DejaVu Sans', italic: true, fill: '#f2b600' }) +
          textAt(160, 95, 40, 'Kiran &amp; Sons', { italic: true, fill: '#141414' }),
      ),
    );
    // Decoded at 511 of 492: PEGASUS spans about 21..140 × 73..91.
    expect(
      regions.some((r) => holdsBox(r, 21, 73, 140, 91) && r.box.left + r.box.width < 166),
      JSON.stringify(regions.map((r) => r.box)),
    ).to.equal(true);
  });

  it('finds a faint logo on a label (a pale green near the label grey), not the whole label', async () => {
    const label = await drawn(
      480,
      400,
      '<rect x="60" y="50" width="360" height="300" fill="#f4f0e4"/>' +
        '<path d="M240 80 L270 150 L200 110 L280 110 L210 150 Z" fill="#b4eeac"/><circle cx="240" cy="190" r="30" fill="#b4eeac"/>' +
        textAt(110, 310, 22, 'Royal Traders &amp; Co'),
      '#605446',
    );
    // Decoded at 511 of 480: the drawing spans about 213..298 × 85..235, the name's line from 313 down.
    const regions = findRegions(label);
    expect(regions.length, JSON.stringify(regions.map((r) => r.box))).to.be.at.least(1);
    const [{ box }] = regions;
    expect(box.left).to.be.within(190, 213);
    expect(box.left + box.width).to.be.within(298, 330);
    expect(box.top + box.height).to.be.below(300);
  });

  it("takes two shapes side by side, larger than the body text, for a logo's parts, not a word", async () => {
    // A logo of two pairs of slanted bars and a block between them, its middle on the line of the name beside it.
    const shapes =
      '<path d="M20 20 L70 45 L70 60 L20 35 Z M130 20 L80 45 L80 60 L130 35 Z" fill="#1976d2"/>' +
      '<path d="M20 140 L70 115 L70 100 L20 125 Z M130 140 L80 115 L80 100 L130 125 Z" fill="#1976d2"/>' +
      '<rect x="62" y="70" width="26" height="20" fill="#1976d2"/>';
    const d = await drawn(500, 160, shapes + textAt(160, 95, 40, 'Kiran &amp; Sons', { italic: true, fill: '#141414' }));
    // Decoded at 511 of 500: the logo spans about 20..133 × 20..143; one region holds all of it, and no other.
    const regions = findRegions(d);
    expect(regions.map((r) => r.box)).to.have.length(1);
    const [{ box }] = regions;
    expect(box.left).to.be.at.most(20);
    expect(box.top).to.be.at.most(20);
    expect(box.left + box.width).to.be.within(133, 160);
    expect(box.top + box.height).to.be.at.least(143);
  });

  it('never fails an upload: a blank, a 1×1 and a huge flat image have their usual answers', async () => {
    const blank = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const flat = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#d0c8b0' } })
      .png()
      .toBuffer();
    for (const [name, img] of [
      ['blank.png', blank],
      ['flat.png', flat],
    ] as const) {
      const res = await t.app.post('/v1/logo-search/image/').attach('uploaded_file', img, name).field('similarity_level', 'low');
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).to.equal(200);
      expect(res.body.results).to.be.an('array');
    }
    const tiny = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    const res = await t.app.post('/v1/logo-search/image/').attach('uploaded_file', tiny, 'tiny.png');
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('image_dimensions');
    // Straight to the region finder: nothing to find, and no throw.
    const one = { grey: Buffer.from([0]), width: 1, height: 1, source: { width: 1, height: 1, format: 'png' as const } };
    expect(findRegions(one)).to.deep.equal([]);
    expect(findRegions(await decodeLogo(blank))).to.deep.equal([]);
  });

  it("gives a colour model (CLIP) the region's own pixels, in colour", async () => {
    // The CLIP stand-in of test/fixtures/clip, in a models folder of its own.
    const fixture = new URL('../fixtures/clip/model/', import.meta.url).pathname;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-regions-clip-'));
    try {
      fs.mkdirSync(path.join(dir, 'clip'));
      for (const f of ['vision_model.onnx', 'preprocessor_config.json']) fs.copyFileSync(path.join(fixture, f), path.join(dir, 'clip', f));
      const clip = await loadEmbedder(findClip(dir)!, dir);
      const bytes = await page('docker');
      const img = new LogoImage(bytes, await decodeLogo(bytes));
      const [first] = regionImages(img);
      // The same pixels cut by hand from the page at the size it was decoded: the same vector.
      const { box } = first.region;
      const byHand = await sharp(bytes).resize(img.decoded.width, img.decoded.height, { fit: 'fill' }).extract(box).png().toBuffer();
      const a = await clip.embed(first.image);
      const b = await clip.embed(new LogoImage(byHand, await decodeLogo(byHand)));
      let dot = 0;
      for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
      expect(dot).to.be.greaterThan(0.999);
      // And not the whole page's.
      const whole = await clip.embed(img);
      let far = 0;
      for (let i = 0; i < a.length; i++) far += a[i] * whole[i];
      expect(far).to.be.lessThan(dot);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('merges per mark: the best of the whole image and each crop less the penalty', () => {
    expect(mergeScores(0.5, [0.9, 0.7])).to.be.closeTo(0.9 - REGION_PENALTY, 1e-9);
    expect(mergeScores(0.9, [0.91])).to.equal(0.9);
    expect(mergeScores(undefined, [0.6])).to.be.closeTo(0.6 - REGION_PENALTY, 1e-9);
    const hit = (application_number: string, similarity: number) => ({ application_number, similarity }) as Nearest;
    const merged = mergeHits([hit('A', 0.7), hit('B', 0.6)], [[hit('B', 0.95), hit('C', 0.5)], [hit('A', 0.71)]], 2);
    expect(merged.map((h) => [h.application_number, Math.round(h.similarity * 100) / 100])).to.deep.equal([
      ['B', 0.93],
      ['A', 0.7],
    ]);
  });
});
