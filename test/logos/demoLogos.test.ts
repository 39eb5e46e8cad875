import { expect } from 'chai';
import sharp from 'sharp';
import { iconSvg } from '../../src/ingest/generator/iconSets.ts';
import { selectLogos } from '../../src/ingest/generator/logoSet.ts';
import { LogoRenderer } from '../../src/ingest/generator/logos.ts';
import { Marks } from '../../src/ingest/generator/marks.ts';
import { createLogoApp, indexPending, type LogoTestApp } from '../helpers/logos.ts';
import { insertMarks } from '../helpers/marks.ts';

// Logo search over the demo register's logos (issue 22, item 4): seals with words round them, labels with
// a band, emoji in their colours, words in Latin and Devanagari, indexed by the real sidecar (OCR +
// embedding) and found again by image and by the words OCR reads.

interface Demo {
  app: string;
  png: Buffer;
  layout: string;
  text: string;
  colour: boolean;
  hindi: string;
}

describe('logo search over the demo logos', function () {
  this.timeout(120_000);
  let t: LogoTestApp;
  const demos: Demo[] = [];

  before(async () => {
    const marks = new Marks(31, 4000);
    const renderer = new LogoRenderer(31, marks);
    // A spread of settings: every layout, colour and ink figures, Devanagari.
    const seen = new Map<string, number>();
    for (const i of selectLogos(marks, 400)) {
      const d = renderer.designer.design(i);
      const kind = `${d.layout}/${d.colour}/${d.hindi !== ''}`;
      if ((seen.get(kind) ?? 0) >= 2) continue;
      seen.set(kind, (seen.get(kind) ?? 0) + 1);
      const logo = await renderer.render(i);
      demos.push({ app: marks.appNo(i), png: logo.png, layout: d.layout, text: logo.text, colour: d.colour, hindi: d.hindi });
    }
    t = await createLogoApp();
    await insertMarks(
      t.app.deps.db,
      demos.map((d) => ({ app: d.app, mark: d.text, type: 'DEVICE' })),
    );
    for (const d of demos) {
      const key = `logos/${d.app}.png`;
      await t.app.deps.store.put(key, d.png);
      await t.app.deps.db('logos').insert({ application_number: d.app, object_key: key, content_type: 'image/png', ocr_text: null });
    }
    expect(await indexPending(t)).to.deep.equal({ done: demos.length, failed: 0 });
  });
  after(() => t?.close());

  it('still draws any icon of a set once the demo catalogue has trimmed the sets it loaded to its own icons', () => {
    // The renderer above kept only its catalogue's icons; benchmarks and tests in the same process draw others.
    for (const key of ['game-icons:3d-glasses', 'tabler:diaper', 'lucide:zoom-in']) {
      expect(iconSvg(key, 32).toString(), key).to.match(/^<svg [^>]*width="32"/);
    }
    expect(() => iconSvg('game-icons:no-such-icon-here')).to.throw('no icon game-icons:no-such-icon-here');
  });

  it('covers seals, labels, colour figures and Devanagari', () => {
    const layouts = new Set(demos.map((d) => d.layout));
    for (const l of ['seal', 'label', 'badge', 'stack', 'inline']) expect(layouts, l).to.include(l);
    expect(demos.some((d) => d.colour)).to.equal(true);
    expect(demos.some((d) => d.hindi)).to.equal(true);
  });

  it('finds each logo first for its own image, and in the top 3 for a copy shrunk to 64 px as JPEG', async () => {
    let shrunkTop3 = 0;
    for (const d of demos) {
      const same = await t.app.post('/v1/logo-search/image/').attach('uploaded_file', d.png, 'q.png').field('similarity_level', 'low');
      expect(same.status, JSON.stringify(same.body)).to.equal(200);
      expect(same.body.results[0]?.application_number, `${d.app} ${d.layout}`).to.equal(d.app);
      const small = await sharp(d.png).resize(64, 64, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer();
      const res = await t.app.post('/v1/logo-search/image/').attach('uploaded_file', small, 'q.jpg').field('similarity_level', 'low');
      if (res.body.results.slice(0, 3).some((r: { application_number: string }) => r.application_number === d.app)) shrunkTop3++;
    }
    expect(shrunkTop3 / demos.length).to.be.at.least(0.8);
  });

  it('finds labels by the Latin words OCR reads in them', async () => {
    const worded = demos.filter((d) => ['stack', 'inline', 'frame'].includes(d.layout) && /^[A-Z]{4,}/.test(d.text));
    expect(worded.length).to.be.greaterThan(2);
    let found = 0;
    for (const d of worded) {
      const res = await t.app.post('/v1/logo-search/text/').send({ query_text: d.text.split(' ')[0], similarity_level: ['low'] });
      expect(res.status).to.equal(200);
      if (res.body.results.some((r: { application_number: string }) => r.application_number === d.app)) found++;
    }
    expect(found / worded.length).to.be.at.least(0.6);
  });
});
