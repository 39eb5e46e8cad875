import { expect } from 'chai';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { seedRegistry } from '../helpers/seed.ts';

describe('journal endpoints', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await seedRegistry(t.deps.db);
  });
  after(async () => t.close());

  it('lists journals newest first with paging', async () => {
    const res = await t.get('/v1/journals/?limit=1');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ count: 2, limit: 1, offset: 0 });
    expect(res.body.journals).to.deep.equal([
      { id: 8, journal_number: '2102', publication_date: '2024-05-13', page_count: null, has_pdf: false },
    ]);
    const next = await t.get('/v1/journals/?limit=1&offset=1');
    expect(next.body.journals[0].id).to.equal(7);
  });

  it('rejects bad paging with 400 naming the parameter', async () => {
    for (const [q, param] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['offset=-1', 'offset'],
      ['limit=x', 'limit'],
    ]) {
      const res = await t.get(`/v1/journals/?${q}`);
      expect(res.status, q).to.equal(400);
      expect(res.body.details.map((d: { parameter: string }) => d.parameter)).to.deep.equal([param]);
    }
  });

  it('returns journal metadata with its trademark count, 404 for unknown and 400 for a non-integer id', async () => {
    const res = await t.get('/v1/journals/7/');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      id: 7,
      journal_number: '2101',
      publication_date: '2024-05-06',
      page_count: 12,
      has_pdf: true,
      trademark_count: 2,
    });
    expect((await t.get('/v1/journals/999/')).status).to.equal(404);
    const bad = await t.get('/v1/journals/1.5/');
    expect(bad.status).to.equal(400);
    expect(bad.body.details[0].parameter).to.equal('journal_id');
  });

  it('lists the marks advertised in a journal as trademark summaries', async () => {
    const res = await t.get('/v1/journals/7/trademarks/?limit=1&offset=1');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ journal_id: 7, journal_number: '2101', count: 2, limit: 1, offset: 1 });
    expect(res.body.results).to.have.length(1);
    expect(res.body.results[0]).to.include({ application_number: '4000002', word_mark: 'SUNRYZE', expire_at: null });
    expect((await t.get('/v1/journals/999/trademarks/')).status).to.equal(404);
  });

  it('refuses the journal list and its trademark listing without cat_journal, but not journal metadata', async () => {
    const restricted = await t.without('cat_journal');
    for (const path of ['/v1/journals/', '/v1/journals/7/trademarks/']) {
      const res = await restricted.get(path);
      expect(res.status, path).to.equal(403);
      expect(res.body).to.include({ code: 'category_not_on_plan' });
      expect(res.body.details).to.include({ category: 'cat_journal' });
    }
    expect((await restricted.get('/v1/journals/7/')).status).to.equal(200);
  });

  it('takes journal ids and paging as plain digits only: 0x7, " 7" and 7e0 are not journal 7', async () => {
    for (const bad of ['0x7', '%207', '7e0', '+7', '7.0']) {
      const res = await t.get(`/v1/journals/${bad}/`);
      expect(res.status, bad).to.equal(400);
      expect(
        res.body.details.map((d: { parameter: string }) => d.parameter),
        bad,
      ).to.deep.equal(['journal_id']);
      const page = await t.get(`/v1/journals/?limit=${bad}`);
      expect(page.status, bad).to.equal(400);
    }
    expect((await t.get('/v1/journals/007/')).body.id).to.equal(7);
  });

  it("lists a journal's marks in ascending numeric application number, not text order", async () => {
    const mark = (n: string) => ({
      application_number: n,
      word_mark: `MARK ${n}`,
      class_number: 9,
      status: 'Advertised',
      application_date: '2023-01-01',
      tm_type: 'WORD',
      slug: `mark-${n}`,
      journal_id: 8,
    });
    await t.deps.db('trademarks').insert(['1000000', '999999', '10000001', '98'].map(mark));
    const res = await t.get('/v1/journals/8/trademarks/');
    expect(res.body.results.map((r: { application_number: string }) => r.application_number)).to.deep.equal([
      '98',
      '999999',
      '1000000',
      '10000001',
    ]);
    const second = await t.get('/v1/journals/8/trademarks/?limit=2&offset=2');
    expect(second.body.results.map((r: { application_number: string }) => r.application_number)).to.deep.equal(['1000000', '10000001']);
  });
});
