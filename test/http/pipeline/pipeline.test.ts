import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { AppError } from '../../../src/errors.ts';
import { errorHandler } from '../../../src/http/errorHandler.ts';
import { z } from '../../../src/schema/zod.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { standInApi } from '../../helpers/standIn.ts';

// The steps in their order, through stand-in endpoints: which refusal comes first, and what each
// outcome costs.
describe('request pipeline: the steps together', () => {
  let t: TestApp;
  let app: express.Express;
  let fail = false;

  before(async () => {
    t = await createTestApp();
    const { api, router } = standInApi(t, { ipPerMinute: 1_000_000, keyPerSecond: 1_000_000, publicSearchPerHour: 60 });
    api.add({
      method: 'post',
      path: '/v1/test/links/:n/',
      operationId: 'testLinks',
      summary: 'stand-in deferred cost',
      tags: ['test'],
      security: 'apiKey',
      params: z.object({ n: z.coerce.number().int() }),
      cost: { resource: 'doc_views', deferred: true },
      response: z.object({ ok: z.boolean() }),
      handler: async ({ params, charge }) => {
        await charge(params.n);
        await charge(1, 'api_calls');
        if (fail) throw new AppError('not_found', 'gone after charging');
        return { ok: true };
      },
    });
    api.add({
      method: 'post',
      path: '/v1/test/items/',
      operationId: 'testItems',
      summary: 'stand-in bulk with failed items',
      tags: ['test'],
      security: 'apiKey',
      category: 'cat_documents',
      query: z.object({ failed: z.coerce.number().int().default(0) }),
      body: z.object({ items: z.array(z.string()).min(1).max(100) }),
      bulk: { family: 'logo', items: ({ body }) => body.items.length },
      cost: { resource: 'logo_searches', units: ({ body }) => body.items.length },
      response: z.object({ n: z.number() }),
      handler: async ({ body, query, uncharge }) => {
        await uncharge(query.failed);
        return { n: body.items.length };
      },
    });
    api.add({
      method: 'get',
      path: '/v1/test/wrong/',
      operationId: 'testWrong',
      summary: 'stand-in answering off its schema',
      tags: ['test'],
      security: 'apiKey',
      response: z.object({ n: z.number() }),
      handler: async () => ({ n: 'one' }) as unknown as { n: number },
    });
    app = express();
    app.use(express.json());
    app.use(router);
    app.use(errorHandler(t.deps.log));
  });
  after(async () => t.close());

  const used = async (accountId: string) => ({
    api_calls: await t.used(accountId, 'api_calls'),
    doc_views: await t.used(accountId, 'doc_views'),
    logo_searches: await t.used(accountId, 'logo_searches'),
  });

  it('keeps what a deferred-cost handler charged when it succeeds, and gives it all back when it fails afterwards', async () => {
    const c = await t.client();
    fail = false;
    expect((await request(app).post('/v1/test/links/3/').set('X-API-Key', c.account.key)).status).to.equal(200);
    expect(await used(c.account.accountId)).to.deep.equal({ api_calls: 1, doc_views: 3, logo_searches: 0 });
    fail = true;
    const res = await request(app).post('/v1/test/links/5/').set('X-API-Key', c.account.key);
    expect(res.status).to.equal(404);
    expect(await used(c.account.accountId)).to.deep.equal({ api_calls: 1, doc_views: 3, logo_searches: 0 });
  });

  it("gives back the part of a bulk request's cost its failed items did not use", async () => {
    const c = await t.client();
    const res = await request(app)
      .post('/v1/test/items/?failed=2')
      .set('X-API-Key', c.account.key)
      .send({ items: ['a', 'b', 'c', 'd', 'e'] });
    expect(res.status).to.equal(200);
    expect((await used(c.account.accountId)).logo_searches).to.equal(3);
  });

  it('refuses in order (category, then input, then bulk size, then credits), each refusal free', async () => {
    const post = (key: string, query: string, items: string[]) =>
      request(app).post(`/v1/test/items/?${query}`).set('X-API-Key', key).send({ items });
    const without = await t.without('cat_documents');
    expect((await post(without.account.key, 'failed=x', [])).body.code).to.equal('category_not_on_plan');
    const c = await t.client({ bulk_logo_limit: 3, quotas: { logo_searches: 2 } });
    const bad = await post(c.account.key, 'failed=x', []);
    expect(bad.body.code).to.equal('validation_error');
    expect(bad.body.details.map((d: { in: string }) => d.in)).to.deep.equal(['query']);
    expect((await post(c.account.key, 'failed=0', [])).body.details[0]).to.include({ in: 'body', parameter: 'items' });
    expect((await post(c.account.key, 'failed=0', ['a', 'b', 'c', 'd'])).body.code).to.equal('bulk_size_exceeds_plan');
    expect((await post(c.account.key, 'failed=0', ['a', 'b', 'c'])).body.code).to.equal('quota_exceeded');
    expect(await used(c.account.accountId)).to.deep.equal({ api_calls: 0, doc_views: 0, logo_searches: 0 });
    expect(await used(without.account.accountId)).to.deep.equal({ api_calls: 0, doc_views: 0, logo_searches: 0 });
  });

  it('answers a result off its schema with a 500 that costs nothing', async () => {
    const c = await t.client();
    const res = await request(app).get('/v1/test/wrong/').set('X-API-Key', c.account.key);
    expect(res.status).to.equal(500);
    expect(await used(c.account.accountId)).to.deep.equal({ api_calls: 0, doc_views: 0, logo_searches: 0 });
  });
});
