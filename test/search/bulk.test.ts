import { expect } from 'chai';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks } from '../helpers/marks.ts';
import { seedRegistry } from '../helpers/seed.ts';

const apps = (n: number, from = 6000000) => Array.from({ length: n }, (_, i) => String(from + i));

describe('bulk lookups and phonetic detail', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await seedRegistry(t.deps.db);
    await insertMarks(
      t.deps.db,
      apps(60).map((app, i) => ({ app, mark: `BULK MARK ${i}` })),
    );
    await insertMarks(t.deps.db, [
      { app: '6100001', mark: 'SHREE' },
      { app: '6100002', mark: 'SRI' },
      { app: '6100003', mark: 'SHRI' },
    ]);
  });
  after(async () => t.close());

  describe('POST /v1/trademarks/bulk/', () => {
    const bulk = (c: { post(p: string): import('supertest').Test }, body: unknown) => c.post('/v1/trademarks/bulk/').send(body as object);

    it('answers requested, found, not_found and results; duplicates count once and are charged once', async () => {
      const c = await t.client();
      const res = await bulk(c, { application_numbers: ['6000000', '6000001', '6000001', '9999999'] });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ requested: 3, found: 2 });
      expect(res.body.not_found).to.deep.equal(['9999999']);
      expect(res.body.results.map((r: { application_number: string }) => r.application_number)).to.deep.equal(['6000000', '6000001']);
      expect(res.body.results[0]).to.include({ word_mark: 'BULK MARK 0' });
      expect(await t.used(c.account.accountId, 'api_calls')).to.equal(3);
    });

    it('takes one comma-separated string as well', async () => {
      const res = await bulk(t, { application_numbers: ' 6000002, 6000003 ,6000002' });
      expect(res.body).to.include({ requested: 2, found: 2 });
    });

    for (const [what, body] of [
      ['an empty list', { application_numbers: [] }],
      ['an empty string', { application_numbers: ' , ' }],
      ['101 numbers', { application_numbers: apps(101) }],
      ['word marks', { application_numbers: ['6000000', 'SUNRISE FOODS'] }],
      ['no list', {}],
      ['a number instead of strings', { application_numbers: [6000000] }],
    ] as const) {
      it(`answers 400 naming application_numbers for ${what}`, async () => {
        const res = await bulk(t, body);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.details.map((d: { parameter: string }) => d.parameter.split('.')[0])).to.include('application_numbers');
      });
    }

    it('says which entries are word marks', async () => {
      const res = await bulk(t, { application_numbers: ['6000000', 'SUNRISE FOODS'] });
      expect(res.body.details[0].message).to.contain('never word marks').and.contain('"SUNRISE FOODS"');
    });

    it("needs bulk on the plan (403), and at most the plan's bulk size (403), charging nothing", async () => {
      const none = await t.client({ bulk_search_limit: 0 });
      const a = await bulk(none, { application_numbers: apps(3) });
      expect(a.status).to.equal(403);
      expect(a.body.code).to.equal('bulk_not_on_plan');
      const pro = await t.client({ bulk_search_limit: 50 });
      const b = await bulk(pro, { application_numbers: apps(51) });
      expect(b.status).to.equal(403);
      expect(b.body.code).to.equal('bulk_size_exceeds_plan');
      expect((await bulk(pro, { application_numbers: apps(50) })).status).to.equal(200);
      expect(await t.used(none.account.accountId, 'api_calls')).to.equal(0);
      expect(await t.used(pro.account.accountId, 'api_calls')).to.equal(50);
    });

    it('is refused whole when fewer credits remain than numbers asked', async () => {
      const c = await t.client({ quotas: { api_calls: 4 } });
      const res = await bulk(c, { application_numbers: apps(5) });
      expect(res.status).to.equal(429);
      expect(res.body.code).to.equal('quota_exceeded');
      expect(await t.used(c.account.accountId, 'api_calls')).to.equal(0);
    });
  });

  describe('POST /v1/trademarks/bulk-detail/', () => {
    it("answers each found mark as the detail endpoint would, with the plan's linked tables only", async () => {
      const c = await t.without('cat_attorney');
      const res = await c.post('/v1/trademarks/bulk-detail/').send({ application_numbers: ['4000001', '4000002', '7777777'] });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ requested: 3, found: 2 });
      expect(res.body.not_found).to.deep.equal(['7777777']);
      const one = (await c.get('/v1/trademarks/4000001/')).body;
      const first = res.body.results[0];
      expect(first.application_number).to.equal('4000001');
      expect(first.status_history).to.deep.equal(one.status_history);
      expect(first).to.not.have.property('attorneys');
      expect(first.omitted_categories).to.include('cat_attorney');
      expect(await t.used(c.account.accountId, 'api_calls')).to.equal(3 + 1);
    });
  });

  describe('GET /v1/trademarks/{app_no}/phonetic/', () => {
    it('answers the normalised form, the phonetic codes and the closest sound-alikes', async () => {
      const res = await t.get('/v1/trademarks/6100001/phonetic/');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ application_number: '6100001', word_mark: 'SHREE', normalised: 'SHREE' });
      expect(res.body.words).to.deep.equal([{ word: 'SHREE', romanised: 'SRI', codes: ['SR'] }]);
      const alikes = res.body.sound_alikes.map((a: { application_number: string; strategy: string }) => [a.application_number, a.strategy]);
      expect(alikes).to.deep.include(['6100002', 'phonetic']);
      expect(alikes.map((a: string[]) => a[0])).to.not.include('6100001');
    });

    it('answers 404 for an unknown mark and 400 for a malformed number', async () => {
      expect((await t.get('/v1/trademarks/8888888/phonetic/')).status).to.equal(404);
      expect((await t.get('/v1/trademarks/12ab/phonetic/')).status).to.equal(400);
    });
  });
});
