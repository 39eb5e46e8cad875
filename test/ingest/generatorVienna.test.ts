import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { generate } from '../../src/ingest/generator/index.ts';
import { conceptCodes, GIVEN_CODES, logoVienna, type Shown } from '../../src/ingest/generator/vienna.ts';
import { viennaTable } from '../../src/reference/vienna.ts';

// The generator gives device and composite marks the Vienna codes of what their logo shows (its icon's
// name, its setting, its words: src/ingest/generator/vienna.ts), the same for the same seed, every one
// a code of the shipped classification, so a generated register imports whole.

type Line = Record<string, unknown>;
const read = (file: string): Line[] =>
  fs
    .readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

const plain: Shown = { iconName: null, layout: 'stack', text: '', monogram: false, dark: false, diagonal: false, w: 128, h: 128 };

describe('generator: Vienna codes', function () {
  this.timeout(60_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-gen-vienna-'));
  let marks: Line[];
  let logos: Line[];

  before(async () => {
    for (const run of ['a', 'b']) await generate({ records: 1200, seed: 11, logos: 200, out: path.join(tmp, run) });
    await generate({ records: 1200, seed: 12, logos: 0, out: path.join(tmp, 'c') });
    marks = read(path.join(tmp, 'a', 'baseline', 'trademarks.jsonl'));
    logos = read(path.join(tmp, 'a', 'baseline', 'logos.jsonl'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('names concepts by the words of an icon name, plurals too', () => {
    expect(conceptCodes('Lion Air')).to.deep.equal(['03.01.01']);
    expect(conceptCodes('Apple Music')).to.deep.equal(['05.07.13', '24.17.12']);
    expect(conceptCodes('Three Stars')).to.deep.equal(['01.01.01']);
    expect(conceptCodes('Falling leaves')).to.deep.equal(['05.03.11']);
    expect(conceptCodes('SUNRISE-LOTUS')).to.deep.equal(['01.03.01', '05.05.16']);
    expect(conceptCodes('Firefox')).to.deep.equal([]);
  });

  it('codes a design by its icon, setting and words', () => {
    expect(logoVienna({ ...plain, text: 'SUNRISE FOODS' }), 'plain text').to.deep.equal(['27.05.17']);
    expect(logoVienna({ ...plain, iconName: 'Firefox' }), 'abstract icon').to.deep.equal(['26.13.25']);
    expect(logoVienna({ ...plain, iconName: 'Lion Air', layout: 'badge' })).to.deep.equal(['03.01.01', '26.01.03', '26.01.15']);
    expect(logoVienna({ ...plain, iconName: 'Sunrise', layout: 'badge' })).to.deep.equal(['01.03.01', '26.01.03', '26.01.13']);
    expect(logoVienna({ ...plain, iconName: 'Docker', layout: 'frame', w: 192, h: 128 })).to.deep.equal(['26.13.25', '26.04.02']);
    expect(logoVienna({ ...plain, iconName: 'Eagle', layout: 'split', diagonal: true })).to.deep.equal(['03.07.01', '25.05.03']);
    expect(logoVienna({ ...plain, iconName: 'Box', text: 'GK', monogram: true, dark: true })).to.deep.equal([
      '19.01.03',
      '27.05.22',
      '27.99.07',
      '27.99.11',
      '27.05.24',
    ]);
    expect(logoVienna({ ...plain, iconName: 'Box', text: 'A', monogram: true })).to.deep.equal(['19.01.03', '27.05.21', '27.99.01']);
    expect(logoVienna({ ...plain, iconName: 'Box', text: '786' })).to.deep.equal(['19.01.03', '27.07.17']);
    // Characters the logo font does not draw do not reach the logo.
    expect(logoVienna({ ...plain, text: 'श्री' })).to.deep.equal([]);
  });

  it('gives only codes of the shipped classification', () => {
    const table = viennaTable();
    expect(GIVEN_CODES.filter((c) => !table.get(c))).to.deep.equal([]);
    for (const m of marks) for (const c of (m.vienna_codes as string[] | undefined) ?? []) expect(table.get(c), c).to.not.equal(undefined);
  });

  it('codes every device and composite mark, and no other', () => {
    const byType = new Map<string, { coded: number; all: number }>();
    for (const m of marks) {
      const t = byType.get(m.tm_type as string) ?? { coded: 0, all: 0 };
      t.all++;
      if ((m.vienna_codes as string[] | undefined)?.length) t.coded++;
      byType.set(m.tm_type as string, t);
    }
    for (const [type, t] of byType) expect(t.coded, type).to.equal(['DEVICE', 'COMPOSITE'].includes(type) ? t.all : 0);
  });

  it("codes what the drawn logo shows: its words' letters, and an icon always", () => {
    const byApp = new Map(marks.map((m) => [m.application_number, m]));
    let monograms = 0;
    let worded = 0;
    for (const l of logos) {
      const codes = byApp.get(l.application_number)!.vienna_codes as string[];
      const text = (l.ocr_text as string | undefined) ?? '';
      const word = byApp.get(l.application_number)!.word_mark as string;
      expect(
        codes.some((c) => !c.startsWith('27.')),
        `${l.application_number} has a figure`,
      ).to.equal(true);
      if (!text) {
        expect(
          codes.filter((c) => c.startsWith('27.')),
          `${l.application_number} has no words`,
        ).to.deep.equal([]);
      } else if (!word) {
        monograms++;
        expect(codes).to.include(text.length === 1 ? '27.05.21' : '27.05.22');
        for (const ch of text) expect(codes).to.include(`27.99.${String(ch.charCodeAt(0) - 64).padStart(2, '0')}`);
      } else if (/[A-Z]/.test(text)) {
        worded++;
        expect(codes, `${l.application_number} ${text}`).to.include('27.05.17');
      }
    }
    expect(monograms).to.be.greaterThan(0);
    expect(worded).to.be.greaterThan(0);
  });

  it('is the same for the same seed, and another seed codes other marks otherwise', () => {
    const codesOf = (run: string, kind: string) =>
      read(path.join(tmp, run, kind, 'trademarks.jsonl')).map((m) => [m.application_number, m.vienna_codes ?? null]);
    for (const kind of ['baseline', 'delta']) expect(codesOf('b', kind), kind).to.deep.equal(codesOf('a', kind));
    expect(codesOf('c', 'baseline')).to.not.deep.equal(codesOf('a', 'baseline'));
  });
});
