import { expect } from 'chai';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks } from '../helpers/marks.ts';

// Marks across scripts (issue 41, item 2; docs/clearance.md *Marks across scripts*): a proposal written in
// Devanagari meets the Latin marks whose English words it spells, word by word, and every reason names the words as
// each mark writes them, never the romanisation the comparison runs on.

interface Result {
  application_number: string;
  risk_level: string;
  reasons: string[];
}

describe('clearance: marks across scripts', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await insertMarks(t.deps.db, [
      { app: '8100001', mark: 'SUNRISE FOODS', cls: 30 },
      { app: '8100002', mark: 'GOLDEN STAR', cls: 30 },
      { app: '8100003', mark: 'SUNRISE', cls: 29 },
      { app: '8100004', mark: 'PRIME', cls: 36 },
      { app: '8100005', mark: 'SANRA', cls: 30 },
      { app: '8100006', mark: 'सनराइज', cls: 32 },
      { app: '8100007', mark: 'BLUEBERRY', cls: 30 },
      { app: '8100008', mark: 'सनराइज ड्रिंक्स', cls: 32 },
      // The register writes SUNRISE in Latin letters far more often than in Devanagari, as India's does.
      ...[3, 9, 25, 35, 1, 2, 4, 6, 7, 8].map((cls, i) => ({ app: `81000${20 + i}`, mark: 'SUNRISE', cls })),
    ]);
  });
  after(() => t.close());

  const clear = async (word_mark: string, classes: number[]) => {
    const res = await t.post('/v1/clearance/').send({ word_mark, classes });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.results as Result[];
  };
  const internal = /SANRAIJ|FUDSA|PHUDSA|GOLDAN|PRAIM|DRINKSA/;
  const find = (results: Result[], app: string) => results.find((r) => r.application_number === app);

  it('meets SUNRISE FOODS for सनराइज फ़ूड्स at High, saying the mark and each word as written and what it reads as', async () => {
    const results = await clear('सनराइज फ़ूड्स', [30, 29]);
    const top = results[0];
    expect(top.application_number).to.equal('8100001');
    expect(top.risk_level).to.equal('High');
    expect(top.reasons[0]).to.equal('reads as SUNRISE FOODS: सनराइज फ़ूड्स');
    const sunrise = find(results, '8100003');
    expect(sunrise?.reasons).to.include('सनराइज reads as SUNRISE');
    expect(results.flatMap((r) => r.reasons).filter((x) => internal.test(x))).to.deep.equal([]);
  });

  it('reads the whole mark: गोल्डन स्टार is GOLDEN STAR, and प्राइम is PRIME', async () => {
    const golden = (await clear('गोल्डन स्टार', [30]))[0];
    expect(golden.application_number).to.equal('8100002');
    expect(golden.reasons[0]).to.equal('reads as GOLDEN STAR: गोल्डन स्टार');
    const prime = (await clear('प्राइम', [36]))[0];
    expect(prime.application_number).to.equal('8100004');
    expect(prime.risk_level).to.equal('High');
  });

  it('names a Devanagari mark of the register as it is written, and leaves unlike marks out', async () => {
    const results = await clear('सनराइज', [32]);
    const same = find(results, '8100006');
    expect(same?.reasons[0]).to.equal('same words सनराइज');
    expect(results.map((r) => r.application_number)).not.to.include('8100007');
    expect(results.flatMap((r) => r.reasons).filter((x) => internal.test(x))).to.deep.equal([]);
  });

  it('finds for a Latin proposal the Devanagari marks of the register that spell it, saying so in their letters', async () => {
    const results = await clear('SUNRISE', [32]);
    const devanagari = find(results, '8100006');
    expect(devanagari?.risk_level).to.equal('High');
    expect(devanagari?.reasons[0]).to.equal('reads as SUNRISE: सनराइज');
    const pair = find(await clear('SUNRISE DRINKS', [32]), '8100008');
    expect(pair?.reasons).to.include('सनराइज reads as SUNRISE');
  });

  it('raises the plain-word grounds of a Devanagari mark made only of them', async () => {
    const res = await t.post('/v1/clearance/').send({ word_mark: 'बेस्ट चावल', classes: [30] });
    expect(res.body.registrability.grounds.map((g: { ground: string; matched: string }) => [g.ground, g.matched])).to.deep.equal([
      ['laudatory', 'BEST'],
      ['generic', 'CHAWAL'],
    ]);
  });
});
