import { expect } from 'chai';
import { readManifest } from '../../src/logos/models.ts';
import { PARAMS, riskOf } from '../../src/threats/score.ts';
import type { Threat } from '../../src/threats/service.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks, type MarkSpec } from '../helpers/marks.ts';

const OWNER = 'SUNRISE AGRO PVT LTD';
/** A made-up four-letter word per i: each held by one mark, so it weighs as much as a word can. */
const coined = (i: number) => `Q${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + (Math.floor(i / 26) % 26))}X`;
const MARKS: MarkSpec[] = [
  { app: '7000001', mark: 'SUNRISE', cls: 30, owner: OWNER },
  { app: '7000002', mark: 'Sun-Rise', cls: 30 }, // exact, once punctuation is ignored
  { app: '7000003', mark: 'SUNRIZE', cls: 30 }, // spelling
  { app: '7000004', mark: 'SUNRISE FOODS', cls: 30 }, // shared distinctive word
  { app: '7000005', mark: 'SUNRISE', cls: 30, owner: OWNER.toLowerCase() }, // the same proprietor: left out
  { app: '7000006', mark: 'SUNRISE', cls: 43 }, // related class
  { app: '7000007', mark: 'SUNRISE', cls: 9 }, // unrelated class
  { app: '7000008', mark: 'SUNRISE', cls: 30, status: 'Abandoned' }, // dead
  { app: '7000009', mark: 'BLUEBERRY', cls: 30 }, // nothing alike
  { app: '7000010', mark: 'SUN RISE', cls: 30, date: '2023-05-01' }, // exact, filed later
  { app: '7000020', mark: 'SHREE GANESH', cls: 29 },
  { app: '7000021', mark: 'SRI GANESH', cls: 29 }, // sound-alike after romanisation
  { app: '7000030', mark: 'ZEPHYRA', cls: 25, type: 'COMPOSITE' },
  { app: '7000031', mark: 'QUILLMONT', cls: 25, type: 'COMPOSITE' }, // a near-identical logo, other words
  { app: '7000032', mark: 'HARVESTONE', cls: 25, type: 'COMPOSITE' }, // an unlike logo
  { app: '7000040', mark: 'KINGFISHER', cls: 32 },
  { app: '7000041', mark: '', cls: 32, type: 'DEVICE' }, // a device mark whose logo reads KINGFISHER
  { app: '7000042', mark: '', cls: 9, type: 'DEVICE' }, // …in an unrelated class
  { app: '7000043', mark: '', cls: 33, type: 'DEVICE' }, // a logo reading KINGFISHR, in a related class
  // Marks KINGFISHER of an unrelated class whose logos read KINGFISHER: more than the word search takes in every class.
  ...Array.from({ length: 25 }, (_, i) => ({ app: String(7005000 + i), mark: 'KINGFISHER', cls: 9, type: 'COMPOSITE' as const })),
  { app: '7000070', mark: 'SURAJ', cls: 32 },
  { app: '7000071', mark: 'SUN', cls: 32 }, // the same in English
  { app: '7000072', mark: 'MOON', cls: 32 }, // another heavenly body: no threat
  { app: '7000060', mark: "JAGDAMBA'S CAFE", cls: 43 },
  { app: '7000061', mark: "JAGDAMBA'S", cls: 43, date: '1990-01-01' }, // the mark less its trade word, among…
  // …hundreds of marks that are JAGDAMBA alone, which fill every search for the mark or its words.
  ...Array.from({ length: 320 }, (_, i) => ({ app: String(7001000 + i), mark: 'JAGDAMBA', cls: 43 })),
  { app: '7000080', mark: 'RAZA', cls: 38 },
  { app: '7000081', mark: 'RAJA', cls: 38, date: '1995-01-01' }, // the established spelling, said alike, among…
  // …hundreds of marks holding RAZA, which fill the mark's own search before any respelling.
  ...Array.from({ length: 320 }, (_, i) => ({ app: String(7002000 + i), mark: `RAZA ${String.fromCharCode(65 + (i % 26))}${i}`, cls: 38 })),
  { app: '7000090', mark: 'SURYA MED', cls: 5 },
  { app: '7000091', mark: 'SURYA SHREE', cls: 5 }, // the same distinctive word
  { app: '7000092', mark: 'SHREE MED', cls: 5 }, // only the trade word MED (medicines) in common
  { app: '7000100', mark: 'VANA BRAND', cls: 30 },
  { app: '7000101', mark: 'VANA BISCUITS', cls: 30, date: '1990-01-01' }, // VANA and a word for the goods, among…
  // …hundreds of shorter marks holding VANA beside a coined word, which fill the searches for the mark and for VANA.
  ...Array.from({ length: 320 }, (_, i) => ({ app: String(7003000 + i), mark: `VANA ${coined(i)}`, cls: 30 })),
  { app: '7000110', mark: 'SWATSKI GOLD', cls: 25 },
  { app: '7000111', mark: 'SWASTIK GOLD', cls: 25, date: '1990-01-01' }, // two letters swapped twice, among…
  // …hundreds of marks that are GOLD alone, which fill the searches for the mark and for GOLD.
  ...Array.from({ length: 320 }, (_, i) => ({ app: String(7004000 + i), mark: 'GOLD', cls: 25 })),
  { app: '7000120', mark: '9 SWEETS', cls: 30 },
  { app: '7000121', mark: '9', cls: 30, date: '1990-01-01' }, // the number that tells it from other sweets
];

// The vectors are stored under the model the analysis compares logos under: the manifest's default.
const MODEL = readManifest().default;
const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const base = Array.from({ length: 128 }, (_, i) => Math.sin(i * 1.7) + 0.3);
const near = base.map((x, i) => x + (i % 7 === 0 ? 0.05 : 0));
const far = base.map((x, i) => (i % 2 ? -x : x * 0.2) + Math.cos(i));

describe('GET /v1/trademarks/{app_no}/threats/', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await insertMarks(t.deps.db, MARKS);
    const db = t.deps.db;
    await db('logos').insert(['7000030', '7000031', '7000032'].map((a) => ({ application_number: a, object_key: `logos/${a}.png` })));
    await db('logos').insert(
      [
        ['7000041', 'KINGFISHER'],
        ['7000042', 'KINGFISHER'],
        ['7000043', 'KINGFISHR'],
        ...Array.from({ length: 25 }, (_, i) => [String(7005000 + i), 'KINGFISHER']),
      ].map(([a, text]) => ({ application_number: a, object_key: `logos/${a}.png`, ocr_text: text })),
    );
    for (const [a, v] of [
      ['7000030', base],
      ['7000031', near],
      ['7000032', far],
    ] as const) {
      await db.raw('insert into logo_vectors (application_number, model, embedding) values (?, ?, ?::halfvec)', [
        a,
        MODEL,
        `[${unit([...v]).join(',')}]`,
      ]);
    }
  });
  after(async () => t.close());

  const threats = async (app: string, qs = '') => {
    const res = await t.get(`/v1/trademarks/${app}/threats/${qs}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { application_number: string; count: number; from_cache: boolean; threats: Threat[] };
  };
  const byApp = (list: Threat[]) => new Map(list.map((x) => [x.threat_application_number, x]));

  it("answers the envelope with the contract's fields, best first", async () => {
    const body = await threats('7000001');
    expect(Object.keys(body)).to.deep.equal(['application_number', 'count', 'from_cache', 'threats']);
    expect(body.application_number).to.equal('7000001');
    expect(body.count).to.equal(body.threats.length);
    expect(body.threats[0]).to.include.keys(
      'threat_application_number',
      'threat_word_mark',
      'word_similarity_percentage',
      'visual_similarity_percentage',
      'overall_similarity_score',
      'risk_level',
      'matching_criteria',
      'phonetic_similarity_percentage',
    );
    const scores = body.threats.map((x) => x.overall_similarity_score);
    expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
  });

  it('finds exact, spelling and shared-word threats of a word mark, with the exact ones first', async () => {
    const m = byApp((await threats('7000001')).threats);
    expect(m.get('7000002')).to.include({
      matching_criteria: 'exact',
      overall_similarity_score: 100,
      risk_level: 'High',
      class_relation: 'same',
    });
    expect(m.get('7000003')).to.include({ matching_criteria: 'word', risk_level: 'High' });
    expect(m.get('7000004')).to.include({ matching_criteria: 'word' });
    expect(m.get('7000003')!.word_similarity_percentage).to.be.within(70, 99);
    expect(m.has('7000009'), 'BLUEBERRY is no threat to SUNRISE').to.equal(false);
  });

  it('finds sound-alikes after Indian romanisation (SHREE GANESH and SRI GANESH)', async () => {
    const x = byApp((await threats('7000020')).threats).get('7000021')!;
    expect(x).to.include({ matching_criteria: 'word', risk_level: 'High' });
    expect(x.phonetic_similarity_percentage).to.equal(100);
  });

  it('finds a look-alike logo by its vector (visual) and not an unlike one', async () => {
    const m = byApp((await threats('7000030')).threats);
    const x = m.get('7000031')!;
    expect(x.matching_criteria).to.equal('visual');
    expect(x.visual_similarity_percentage).to.be.greaterThan(95);
    expect(x.overall_similarity_score).to.be.greaterThan(x.word_similarity_percentage);
    expect(m.get('7000032')?.matching_criteria ?? 'absent').to.not.equal('visual');
  });

  it('finds a device mark whose logo reads the words of this mark (logo)', async () => {
    const x = byApp((await threats('7000040')).threats).get('7000041')!;
    expect(x).to.include({ matching_criteria: 'logo', threat_word_mark: '', risk_level: 'High' });
  });

  it('finds logo words in related and unrelated classes, leaving marks whose logos read their own words to the word search', async () => {
    const m = byApp((await threats('7000040')).threats);
    expect(m.get('7000043'), 'KINGFISHR in a related class').to.include({ matching_criteria: 'logo', class_relation: 'related' });
    expect(m.get('7000042'), 'KINGFISHER in an unrelated class').to.include({ matching_criteria: 'logo', class_relation: 'unrelated' });
    // The word search takes 20 marks in every class: the logos' words bring no more marks that are KINGFISHER there.
    const copies = Array.from({ length: 25 }, (_, i) => String(7005000 + i)).filter((a) => m.has(a));
    expect(copies.length).to.be.within(1, 20);
  });

  it('scores a related class, an unrelated class, a dead mark and a later filing below the same mark in the same class', async () => {
    const m = byApp((await threats('7000001')).threats);
    const top = m.get('7000002')!.overall_similarity_score;
    expect(m.get('7000006')).to.include({ class_relation: 'related' });
    expect(m.get('7000007')).to.include({ class_relation: 'unrelated' });
    for (const app of ['7000006', '7000007', '7000008', '7000010']) expect(m.get(app)!.overall_similarity_score, app).to.be.lessThan(top);
    expect(m.get('7000007')!.overall_similarity_score).to.be.lessThan(m.get('7000006')!.overall_similarity_score);
  });

  it('finds a translation (SURAJ and SUN) and scores it by meaning, not by spelling', async () => {
    const m = byApp((await threats('7000070')).threats);
    const x = m.get('7000071')!;
    expect(x).to.include({ matching_criteria: 'word', risk_level: 'High', overall_similarity_score: 100 * PARAMS.translation });
    expect(Math.max(x.word_similarity_percentage, x.phonetic_similarity_percentage)).to.be.lessThan(x.overall_similarity_score);
    expect(m.has('7000072'), 'MOON is no threat to SURAJ').to.equal(false);
  });

  it('finds the mark less its first or last word although hundreds of closer search results crowd it out', async () => {
    const x = byApp((await threats('7000060')).threats).get('7000061');
    expect(x, "JAGDAMBA'S is a threat to JAGDAMBA'S CAFE").to.include({ matching_criteria: 'word', risk_level: 'High' });
  });

  it('finds the established respelling of a mark (RAZA and RAJA) although hundreds of marks holding the mark crowd it out', async () => {
    const x = byApp((await threats('7000080')).threats).get('7000081');
    expect(x, 'RAJA is a threat to RAZA').to.include({
      matching_criteria: 'word',
      risk_level: 'High',
      phonetic_similarity_percentage: 100,
    });
  });

  it(
    "finds a holder of the mark's distinctive word whose other words describe the goods, " +
      'although hundreds of shorter holders crowd it out',
    async () => {
      const x = byApp((await threats('7000100')).threats).get('7000101');
      expect(x, 'VANA BISCUITS is a threat to VANA BRAND').to.include({ matching_criteria: 'word' });
    },
  );

  it(
    "finds a rare word's respelling two edits away (SWATSKI GOLD and SWASTIK GOLD) " + 'although hundreds of marks GOLD crowd it out',
    async () => {
      const x = byApp((await threats('7000110')).threats).get('7000111');
      expect(x, 'SWASTIK GOLD is a threat to SWATSKI GOLD').to.include({ matching_criteria: 'word', class_relation: 'same' });
    },
  );

  it('finds the number that is the distinctive part of a mark (9 SWEETS and 9)', async () => {
    const x = byApp((await threats('7000120')).threats).get('7000121');
    expect(x, '9 is a threat to 9 SWEETS').to.include({ matching_criteria: 'word' });
  });

  it('looks past a word that describes the goods: a shared distinctive word outranks a shared trade word', async () => {
    const m = byApp((await threats('7000090')).threats);
    const shared = m.get('7000091')!.overall_similarity_score;
    expect(shared).to.be.greaterThan(m.get('7000092')?.overall_similarity_score ?? 0);
  });

  it('leaves out the mark itself and the marks of its proprietor', async () => {
    const apps = (await threats('7000001')).threats.map((x) => x.threat_application_number);
    expect(apps).to.not.include('7000001');
    expect(apps).to.not.include('7000005');
  });

  it('maps every overall score to its risk level by the thresholds, and filters by risk_level', async () => {
    const all = (await threats('7000001')).threats;
    for (const x of all) {
      expect(x.risk_level).to.equal(riskOf(x.overall_similarity_score));
      expect(x.overall_similarity_score).to.be.at.least(PARAMS.thresholds.low);
    }
    for (const level of ['High', 'Medium', 'Low'] as const) {
      const body = await threats('7000001', `?risk_level=${level}`);
      expect(body.count, level).to.equal(all.filter((x) => x.risk_level === level).length);
      expect(body.threats.every((x) => x.risk_level === level)).to.equal(true);
    }
  });

  it('pages with limit and offset', async () => {
    const all = (await threats('7000001')).threats;
    const page = await threats('7000001', '?limit=2&offset=1');
    expect(page.count).to.equal(all.length);
    expect(page.threats).to.deep.equal(all.slice(1, 3));
  });

  it('answers from the cache until the register changes', async () => {
    await threats('7000003');
    expect((await threats('7000003')).from_cache).to.equal(true);
    await insertMarks(t.deps.db, [{ app: '7000050', mark: 'SUNRIZE', cls: 31 }]);
    await t.deps.search.sync();
    const after = await threats('7000003');
    expect(after.from_cache).to.equal(false);
    expect(after.threats.map((x) => x.threat_application_number)).to.include('7000050');
  });

  it('refuses a plan without cat_threats with 403', async () => {
    const c = await t.without('cat_threats');
    const res = await c.get('/v1/trademarks/7000001/threats/');
    expect(res.status).to.equal(403);
    expect(res.body).to.include({ code: 'category_not_on_plan' });
  });

  it('answers 404 for an unknown mark and 400 naming a bad parameter', async () => {
    expect((await t.get('/v1/trademarks/7999999/threats/')).status).to.equal(404);
    for (const [qs, parameter] of [
      ['risk_level=highest', 'risk_level'],
      ['risk_level=Severe', 'risk_level'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=x', 'limit'],
      ['offset=-1', 'offset'],
    ] as const) {
      const res = await t.get(`/v1/trademarks/7000001/threats/?${qs}`);
      expect(res.status, qs).to.equal(400);
      expect(res.body.details.map((d: { parameter: string }) => d.parameter)).to.include(parameter);
    }
    const res = await t.get('/v1/trademarks/12ab/threats/');
    expect(res.status).to.equal(400);
  });
});
