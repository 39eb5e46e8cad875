import { expect } from 'chai';
import { excerpt, phrasesOf } from '../../src/clearance/goods.ts';
import { goodsWords, sharedGoods } from '../../src/threats/goods.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks } from '../helpers/marks.ts';

// Goods and services (issue 41, item 4; docs/clearance.md *Goods and services*): each finding says what the mark
// covers; a proposal's goods_services places it in classes when none are given and makes a mark in an unrelated
// class related when it covers goods of the same words.

interface Result {
  application_number: string;
  goods_services: string | null;
  risk_level: string;
  overall_similarity_score: number;
  reasons: string[];
}

const LONG = `${Array.from({ length: 30 }, (_, i) => `rice preparation number ${i}`).join('; ')}`;

describe('clearance: goods and services', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await insertMarks(t.deps.db, [
      { app: '8300001', mark: 'SUNRISE', cls: 30, goods: 'rice; tea; biscuits' },
      { app: '8300002', mark: 'SUNRISE', cls: 35, goods: 'retail services of rice and pulses' },
      { app: '8300003', mark: 'SUNRISE', cls: 37, goods: 'building construction' },
      { app: '8300004', mark: 'SUNRISER', cls: 30, goods: LONG },
      { app: '8300005', mark: 'SUNRISE', cls: 9 },
    ]);
  });
  after(() => t.close());

  const clear = async (body: object) => {
    const res = await t.post('/v1/clearance/').send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { classes: number[]; classes_from_goods: unknown; query: { goods_services: unknown }; results: Result[] };
  };
  const find = (r: Result[], app: string) => r.find((x) => x.application_number === app);

  it("lists each finding's goods, an excerpt when long, and null when the register has none", async () => {
    const body = await clear({ word_mark: 'SUNRISE', classes: [30, 9] });
    expect(find(body.results, '8300001')?.goods_services).to.equal('rice; tea; biscuits');
    const long = find(body.results, '8300004')?.goods_services ?? '';
    expect(long.length).to.be.within(80, 170);
    expect(long.endsWith(' …')).to.equal(true);
    expect(LONG.startsWith(long.slice(0, -2))).to.equal(true);
    expect(find(body.results, '8300005')?.goods_services).to.equal(null);
    expect(body.classes_from_goods).to.equal(null);
  });

  it('screens the classes goods_services falls in when no classes are given, and says which item placed each', async () => {
    const body = await clear({ word_mark: 'SUNRISE', goods_services: 'basmati rice; restaurant services' });
    expect(body.classes).to.deep.equal([30, 43]);
    expect(body.classes_from_goods).to.deep.equal([
      { class_number: 30, matched: [{ phrase: 'basmati rice', item: 'rice' }] },
      { class_number: 43, matched: [{ phrase: 'restaurant services', item: 'restaurant services' }] },
    ]);
    expect(body.query.goods_services).to.equal('basmati rice; restaurant services');
    expect(find(body.results, '8300001')?.risk_level).to.equal('High');
  });

  it('counts a mark in an unrelated class as related when it covers goods of the same words, and says so', async () => {
    const plain = find((await clear({ word_mark: 'SUNRISE', classes: [30] })).results, '8300002');
    const withGoods = find((await clear({ word_mark: 'SUNRISE', classes: [30], goods_services: 'basmati rice' })).results, '8300002');
    expect(plain?.reasons).to.include('unrelated class 35');
    expect(withGoods?.reasons).to.include('related goods: rice (class 35)');
    expect(withGoods!.overall_similarity_score).to.be.greaterThan(plain!.overall_similarity_score);
    const building = find((await clear({ word_mark: 'SUNRISE', classes: [30], goods_services: 'basmati rice' })).results, '8300003');
    expect(building?.reasons ?? []).to.not.include.members(['related goods: rice (class 37)']);
  });

  it('refuses a clearance with neither classes nor goods, or goods no class holds, naming classes', async () => {
    for (const body of [{ word_mark: 'SUNRISE' }, { word_mark: 'SUNRISE', goods_services: 'zzzq qqxz' }]) {
      const res = await t.post('/v1/clearance/').send(body);
      expect(res.status).to.equal(400);
      expect(JSON.stringify(res.body)).to.contain('classes');
    }
  });

  it('reads goods words and phrases as an applicant writes them', () => {
    expect(phrasesOf('Rice, tea and coffee; biscuits\nsweets & namkeen')).to.deep.equal([
      'Rice',
      'tea',
      'coffee',
      'biscuits',
      'sweets',
      'namkeen',
    ]);
    expect([...goodsWords('Retail services of rices, berries and boxes for the same')]).to.deep.equal(['retail', 'rice', 'berry', 'box']);
    expect(sharedGoods(goodsWords('basmati rice'), goodsWords('rice and pulses'))).to.deep.equal(['rice']);
    expect(excerpt('short text')).to.equal('short text');
    expect(excerpt(null)).to.equal(null);
  });
});
