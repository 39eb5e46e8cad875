import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { errorHandler } from '../../src/http/errorHandler.ts';
import { requestLog } from '../../src/http/requestLog.ts';
import { z } from '../../src/schema/zod.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { standInApi } from '../helpers/standIn.ts';

// The pipeline as later endpoints will use it: they only declare bulk size and cost, the layer
// enforces them. Two stand-in endpoints exercise what no endpoint of this release declares yet.
describe('request pipeline declarations (bulk, per-item cost, public search limit)', () => {
  let t: TestApp;
  let app: express.Express;

  before(async () => {
    t = await createTestApp();
    const { deps } = t;
    const { api, router } = standInApi(t, { ipPerMinute: 1_000_000, keyPerSecond: 1_000_000, publicSearchPerHour: 3 });
    api.add({
      method: 'post',
      path: '/v1/test/bulk/',
      operationId: 'testBulk',
      summary: 'stand-in bulk',
      tags: ['test'],
      security: 'apiKey',
      body: z.object({ items: z.array(z.string()).min(1).max(100) }),
      bulk: { family: 'search', items: ({ body }) => new Set(body.items).size },
      cost: { resource: 'api_calls', units: ({ body }) => new Set(body.items).size },
      response: z.object({ n: z.number() }),
      handler: async ({ body }) => ({ n: new Set(body.items).size }),
    });
    api.add({
      method: 'get',
      path: '/public/v1/test/search/',
      operationId: 'testPublic',
      summary: 'stand-in public search',
      tags: ['test'],
      security: 'none',
      publicSearchLimit: true,
      response: z.object({ ok: z.boolean() }),
      handler: async () => ({ ok: true }),
    });
    app = express();
    app.use(requestLog(deps.log));
    app.use(express.json());
    app.use(router);
    app.use(errorHandler(deps.log));
  });
  after(async () => t.close());

  const bulk = (key: string, items: string[]) => request(app).post('/v1/test/bulk/').set('X-API-Key', key).send({ items });
  const items = (n: number) => Array.from({ length: n }, (_, i) => String(4000000 + i));

  it('refuses bulk when the plan has no bulk, and a request larger than the plan allows, with 403 and no charge', async () => {
    const none = await t.client({ bulk_search_limit: 0 });
    const a = await bulk(none.account.key, items(3));
    expect(a.status).to.equal(403);
    expect(a.body.code).to.equal('bulk_not_on_plan');
    const pro = await t.client({ bulk_search_limit: 50 });
    const b = await bulk(pro.account.key, items(60));
    expect(b.status).to.equal(403);
    expect(b.body.code).to.equal('bulk_size_exceeds_plan');
    expect(b.body.details).to.deep.equal({ bulk_search_limit: 50, items: 60 });
    expect(await t.used(none.account.accountId, 'api_calls')).to.equal(0);
    expect(await t.used(pro.account.accountId, 'api_calls')).to.equal(0);
  });

  it('refuses more than 100 items with 400 whatever the plan', async () => {
    const res = await bulk(t.account.key, items(101));
    expect(res.status).to.equal(400);
    expect(res.body.details[0].parameter).to.equal('items');
  });

  it('charges one credit per distinct item', async () => {
    const c = await t.client();
    const res = await bulk(c.account.key, [...items(7), '4000000', '4000001', '4000002']);
    expect(res.status).to.equal(200);
    expect(res.body.n).to.equal(7);
    expect(await t.used(c.account.accountId, 'api_calls')).to.equal(7);
  });

  it('refuses a bulk request whole when fewer credits remain than it needs', async () => {
    const c = await t.client({ quotas: { api_calls: 5 } });
    const res = await bulk(c.account.key, items(7));
    expect(res.status).to.equal(429);
    expect(res.body.code).to.equal('quota_exceeded');
    expect(res.body.details).to.include({ limit: 5, remaining: 5, needed: 7, resource: 'api_calls' });
    expect(await t.used(c.account.accountId, 'api_calls')).to.equal(0);
    expect((await bulk(c.account.key, items(5))).status).to.equal(200);
  });

  it('limits public searches per IP with public_search_limited', async () => {
    for (let i = 0; i < 3; i++) expect((await request(app).get('/public/v1/test/search/')).status).to.equal(200);
    const res = await request(app).get('/public/v1/test/search/');
    expect(res.status).to.equal(429);
    expect(res.body.code).to.equal('public_search_limited');
    expect(res.body.details).to.include({ limit: 3, remaining: 0, resource: 'ip' });
    expect(Number(res.headers['retry-after'])).to.be.within(3500, 3600);
  });
});
