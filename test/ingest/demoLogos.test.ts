import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import sharp from 'sharp';
import { buildCatalogue, catalogue } from '../../src/ingest/generator/catalogue.ts';
import { CONCEPTS, conceptOfIconName } from '../../src/ingest/generator/concepts.ts';
import { toDevanagari } from '../../src/ingest/generator/devanagari.ts';
import { setLine } from '../../src/ingest/generator/lettering.ts';
import { selectLogos } from '../../src/ingest/generator/logoSet.ts';
import { LogoRenderer } from '../../src/ingest/generator/logos.ts';
import { Marks } from '../../src/ingest/generator/marks.ts';
import { logoVienna } from '../../src/ingest/generator/vienna.ts';

// The demo register's device marks (issue 22, item 4): figures of a concept catalogue drawn from several
// npm icon and emoji sets, words in Latin and Devanagari set from a packaged font, frames, seals and
// coloured papers; the same seed gives the same bytes.

describe('generator: demo logos', function () {
  this.timeout(120_000);

  it('reads a concept from an icon name across sets, and not from a badge or an action on something else', () => {
    const name = (n: string, set = 'twemoji') => conceptOfIconName(n, set)?.name ?? null;
    expect(name('lion')).to.equal('lion');
    expect(name('tiger-face')).to.equal('tiger');
    expect(name('hindu-temple')).to.equal('temple');
    expect(name('lotus-flower', 'game-icons')).to.equal('lotus');
    expect(name('palm-tree')).to.equal('palm-tree');
    expect(name('diya-lamp', 'noto')).to.equal('diya');
    expect(name('weather-sunny', 'mdi')).to.equal('sun');
    expect(name('calendar-star', 'mdi'), 'a badge on an interface object').to.equal(null);
    expect(name('sun-off', 'tabler'), 'an action').to.equal(null);
    expect(name('man-in-lotus-position')).to.equal(null);
    expect(name('woman-rowing-boat-dark-skin-tone')).to.equal(null);
    expect(name('hot-dog')).to.equal(null);
  });

  it('ships a catalogue that is what the installed sets give, each Indian motif drawn by several sets', () => {
    expect(JSON.stringify(catalogue()), 'rebuild with scripts/icon-catalogue.ts').to.equal(JSON.stringify(buildCatalogue()));
    const cat = catalogue();
    expect(cat.concepts.map((c) => c.name)).to.deep.equal(CONCEPTS.map((c) => c.name));
    const sets = new Set(cat.sets.map((s) => s.prefix));
    for (const c of cat.concepts) for (const key of c.icons) expect(sets.has(key.split(':')[0]), key).to.equal(true);
    for (const s of cat.sets) expect(s.licence, s.prefix).to.match(/^(MIT|ISC|Apache-2\.0|CC-BY-[34]\.0|project)$/);
    const setsOf = (name: string) => new Set(cat.concepts.find((c) => c.name === name)?.icons.map((k) => k.split(':')[0]));
    for (const motif of ['lion', 'elephant', 'tiger', 'horse', 'cow', 'eagle', 'sun', 'star', 'lotus', 'om', 'trident', 'temple', 'tree'])
      expect(setsOf(motif).size, motif).to.be.at.least(3);
    expect(setsOf('peacock').size).to.be.at.least(2);
    expect([...setsOf('swastika')]).to.deep.equal(['nishaan']);
  });

  it('writes Hindi words spelt in Latin letters in Devanagari', () => {
    expect(toDevanagari('SHREE GANESH')).to.equal('श्री गनेश');
    expect(toDevanagari('OM SAI 786')).to.equal('ओम सै ७८६');
    expect(toDevanagari("VIJAY'S")).to.equal('विजय स');
  });

  it('shapes Devanagari from the packaged font: a conjunct and a vowel sign before its consonant take fewer glyphs', async () => {
    const line = await setLine('श्री', 20);
    expect(line.glyphs.length).to.be.within(1, 3); // four code points
    expect(line.glyphs.every((g) => g.mask.a.some((a) => a > 128))).to.equal(true);
    const latin = await setLine('SHREE', 20);
    expect(latin.glyphs.length).to.equal(5);
    expect(latin.width).to.be.within(50, 90);
  });

  it('draws the words without any system font', async () => {
    // A fontconfig that knows no font: text drawn through font lookup would come out blank or in boxes.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-nofonts-'));
    fs.writeFileSync(path.join(dir, 'fonts.conf'), '<?xml version="1.0"?><fontconfig><cachedir>/nonexistent</cachedir></fontconfig>');
    const script = path.join(dir, 'draw.mts');
    const lettering = new URL('../../src/ingest/generator/lettering.ts', import.meta.url).pathname;
    fs.writeFileSync(
      script,
      `import { setLine } from '${lettering}';\n` +
        `const l = await setLine('श्री गणेश', 24);\n` +
        'const ink = l.glyphs.reduce((s, g) => s + g.mask.a.reduce((a, b) => a + b, 0), 0);\n' +
        'console.log(JSON.stringify({ n: l.glyphs.length, ink }));\n',
    );
    const env = { ...process.env, FONTCONFIG_FILE: path.join(dir, 'fonts.conf'), FONTCONFIG_PATH: dir };
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { env, cwd: process.cwd() });
    const here = await setLine('श्री गणेश', 24);
    const there = JSON.parse(stdout) as { n: number; ink: number };
    expect(there.n).to.equal(here.glyphs.length);
    expect(there.ink).to.equal(here.glyphs.reduce((s, g) => s + g.mask.a.reduce((a, b) => a + b, 0), 0));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('draws concept figures, several sets, Devanagari, seals and labels, the same for the same seed', async () => {
    const marks = new Marks(21, 6000);
    const list = selectLogos(marks, 240);
    const a = new LogoRenderer(21, marks);
    const b = new LogoRenderer(21, marks);
    const designs = list.map((i) => a.designer.design(i));
    const concepts = designs.filter((d) => d.concept);
    expect(concepts.length / designs.length).to.be.within(0.65, 0.95);
    expect(new Set(concepts.map((d) => d.iconKey.split(':')[0])).size).to.be.at.least(5);
    expect(designs.filter((d) => d.hindi).length).to.be.greaterThan(20);
    for (const layout of ['seal', 'label', 'badge', 'frame', 'inline', 'stack']) expect(designs.map((d) => d.layout)).to.include(layout);
    for (const d of designs.filter((x) => x.layout === 'seal' && x.text && !x.monogram)) {
      expect(logoVienna(d)).to.include.members(['26.01.03', '27.01.06', '27.05.09']);
    }
    for (const [k, i] of list.slice(0, 40).entries()) {
      const [x, y] = [await a.render(i), await b.render(i)];
      expect(x.png.equals(y.png), `logo ${i}`).to.equal(true);
      const meta = await sharp(x.png).metadata();
      expect([meta.width, meta.height]).to.deep.equal([designs[k].w, designs[k].h]);
    }
  });
});
