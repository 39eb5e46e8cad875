import { expect } from 'chai';
import { DESCRIPTIVE_WEIGHT, descriptiveCap } from '../../src/threats/descriptive.ts';
import { scorePair } from '../../src/threats/score.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks } from '../helpers/marks.ts';

// Distinctiveness from the register (issue 41, item 3): a word many marks of a trade hold tells no trader from
// another there, so marks alike only in such a word are never High, and the reason says how many marks hold it;
// words of praise or description (FRESH) weigh so in every trade; a score is always explained by what it counted.

interface Result {
  application_number: string;
  risk_level: string;
  reasons: string[];
}

const OTHERS = ['ROSE', 'LEAF', 'MOON', 'TULIP', 'WAVE', 'PEARL', 'RIVER', 'CLOUD', 'FLAME', 'STONE', 'BELL', 'TREE'];

describe('clearance: distinctiveness from the register', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await insertMarks(t.deps.db, [
      // GOLD in class 3, held by many marks; and a few hundred other marks there, so that it is a large share.
      ...Array.from({ length: 60 }, (_, i) => ({ app: String(8200000 + i), mark: `GOLD ${OTHERS[i % OTHERS.length]} ${i}`, cls: 3 })),
      ...Array.from({ length: 40 }, (_, i) => ({ app: String(8200100 + i), mark: `${OTHERS[i % OTHERS.length]}BAY ${i}`, cls: 3 })),
      { app: '8200200', mark: 'GOLD KING', cls: 3 },
      { app: '8200201', mark: 'NIRMALOIL', cls: 29 },
      { app: '8200202', mark: '8 FRESH', cls: 29 },
      { app: '8200203', mark: 'ZORVIK STAR', cls: 3 },
    ]);
  });
  after(() => t.close());

  const clear = async (word_mark: string, classes: number[]) => {
    const res = await t.post('/v1/clearance/').send({ word_mark, classes });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.results as Result[];
  };
  const find = (results: Result[], app: string) => results.find((r) => r.application_number === app);

  it('says how many marks of the trade hold a common word two marks share', async () => {
    const rose = find(await clear('GOLD ROSE', [3]), '8200000');
    expect(rose?.reasons).to.include('shared common word GOLD: held by 61 marks in class 3 and related classes');
    // A distinctive word shared is called so.
    expect(find(await clear('ZORVIK MOON', [3]), '8200203')?.reasons).to.include('shared distinctive word ZORVIK');
  });

  it('keeps marks alike only in common words, and told apart by a distinctive one, below High', () => {
    const alike = { word: 0.9, phonetic: 0.9, exact: false, meaning: 0 };
    const standing = { relation: 'same', live: true, later: false } as const;
    expect(scorePair({ ...alike, partly: { alike: 0.2, apart: 0.6 } }, null, standing).risk).to.equal('Medium');
    expect(scorePair({ ...alike, partly: { alike: 0.5, apart: 0.6 } }, null, standing).risk).to.equal('High');
    // Told apart only by a trade word (JAGDAMBA'S CAFE, JAGDAMBA'S): as alike as they look.
    expect(scorePair({ ...alike, partly: { alike: 0.2, apart: 0.1 } }, null, standing).risk).to.equal('High');
    expect(scorePair(alike, null, standing).risk).to.equal('High');
  });

  it('explains a score by the word one mark begins with when no pair of words is alike enough to say so', async () => {
    const nirmal = find(await clear('NIRMA', [29]), '8200201');
    expect(nirmal?.reasons[0]).to.equal('NIRMALOIL begins with NIRMA');
  });

  it('weighs a word of description such as FRESH as the trade words are weighed', async () => {
    const fresh = find(await clear('ZORVIK FRESH', [29]), '8200202');
    expect(fresh?.risk_level ?? 'not found').to.not.equal('High');
    expect(fresh?.reasons.join(' ') ?? '').to.not.contain('shared distinctive word FRESH');
    expect(descriptiveCap([29])('FRESH', 0.9)).to.equal(DESCRIPTIVE_WEIGHT);
  });
});
