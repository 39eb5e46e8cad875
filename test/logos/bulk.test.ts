import { Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { LOGO_SEARCH_QUEUE } from '../../src/logos/fanout.ts';
import { expectBadParam } from '../helpers/http.ts';
import { addLogos, createLogoApp, drawLogo, indexPending, type LogoTestApp, servedModel } from '../helpers/logos.ts';

// Bulk logo search: plan gates, sizes, per-item results gathered from the BullMQ fan-out, and one
// logo_searches credit per distinct item that was searched.

describe('logo search: bulk', function () {
  this.timeout(60_000);
  let t: LogoTestApp;
  let github: Buffer;
  let docker: Buffer;

  before(async () => {
    t = await createLogoApp();
    await addLogos(t.app, [
      { app: '5200001', mark: 'OCTO', draw: { slug: 'github' }, supplied: 'OCTO CAT' },
      { app: '5200002', mark: 'WHALE', draw: { slug: 'docker' }, supplied: 'BLUE WHALE' },
      { app: '5200003', mark: 'FOX', draw: { slug: 'firefox' }, supplied: 'RED FOX' },
    ]);
    await indexPending(t);
    github = await drawLogo({ slug: 'github', ink: [0, 0, 0], size: 128 });
    docker = await drawLogo({ slug: 'docker', ink: [200, 0, 90], size: 100 });
  });
  after(() => t.close());

  it('bulk-text answers per query, charging one credit per distinct query', async () => {
    const c = await t.app.client({ bulk_logo_limit: 100, quotas: { logo_searches: 10 } });
    const res = await c.post('/v1/logo-search/bulk-text/').send({
      queries: [{ query_text: 'octo cat' }, { query_text: 'whale', similarity_level: ['high'] }, { query_text: 'OCTO  CAT' }],
      max_results_per_query: 5,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ requested: 3, charged: 2, max_results_per_query: 5 });
    expect(
      res.body.results.map((r: { index: number; results: { application_number: string }[] }) => [
        r.index,
        r.results[0]?.application_number,
      ]),
    ).to.deep.equal([
      [0, '5200001'],
      [1, '5200002'],
      [2, '5200001'],
    ]);
    expect(res.body.results[1].similarity_level).to.equal('high');
    expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(2);
  });

  it('bulk-image fans the images out over BullMQ and answers per image; a bad image is its own error and costs nothing', async () => {
    const c = await t.app.client({ bulk_logo_limit: 100, quotas: { logo_searches: 10 } });
    const res = await c
      .post('/v1/logo-search/bulk-image/')
      .attach('uploaded_files', github, 'a.png')
      .attach('uploaded_files', Buffer.from('not an image'), 'b.png')
      .attach('uploaded_files', docker, 'c.png')
      .attach('uploaded_files', github, 'a-again.png')
      .field('similarity_level', 'low');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const items = res.body.results as {
      index: number;
      file: string;
      error: { code: string } | null;
      results: { application_number: string; clip_similarity: number; model: string }[];
      model: string;
    }[];
    expect(items.map((i) => [i.index, i.file, i.error?.code ?? null])).to.deep.equal([
      [0, 'a.png', null],
      [1, 'b.png', 'not_an_image'],
      [2, 'c.png', null],
      [3, 'a-again.png', null],
    ]);
    expect(items[0].results[0].application_number).to.equal('5200001');
    expect(items[2].results[0].application_number).to.equal('5200002');
    expect(items[3].results).to.deep.equal(items[0].results);
    expect(items[0].model).to.equal(servedModel(t.sidecar));
    // Three distinct files charged up front; the broken one given back.
    expect(res.body.charged).to.equal(2);
    expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(2);
    // Each distinct searched image was one job on the queue, carrying a file path, not bytes.
    const redis = new Redis(t.app.deps.config.REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(LOGO_SEARCH_QUEUE, { connection: redis, prefix: t.app.deps.config.QUEUE_PREFIX });
    const done = await queue.getJobs(['completed']);
    await queue.close();
    redis.disconnect();
    const mine = done.filter((j) => j.data.ref.startsWith(t.uploadDir));
    expect(mine.length).to.equal(2);
    for (const j of mine) expect(j.data).to.have.all.keys('k', 'kind', 'ref', 'account');
    expect(mine[0].data.account).to.equal(c.account.accountId);
  });

  it("needs bulk on the plan (403), at most the plan's size (403), at most 100 items (400)", async () => {
    const none = await t.app.client({ bulk_logo_limit: 0 });
    const r1 = await none.post('/v1/logo-search/bulk-text/').send({ queries: [{ query_text: 'fox' }] });
    expect(r1.status).to.equal(403);
    expect(r1.body.code).to.equal('bulk_not_on_plan');
    const r1b = await none.post('/v1/logo-search/bulk-image/').attach('uploaded_files', github, 'a.png');
    expect(r1b.body.code).to.equal('bulk_not_on_plan');
    const pro = await t.app.client({ bulk_logo_limit: 50 });
    const queries = Array.from({ length: 51 }, (_, i) => ({ query_text: `fox ${i}` }));
    const r2 = await pro.post('/v1/logo-search/bulk-text/').send({ queries });
    expect(r2.status).to.equal(403);
    expect(r2.body.code).to.equal('bulk_size_exceeds_plan');
    const r2b = await pro
      .post('/v1/logo-search/bulk-image-url/')
      .send({ image_urls: Array.from({ length: 51 }, (_, i) => `https://example.com/${i}.png`) });
    expect(r2b.body.code).to.equal('bulk_size_exceeds_plan');
    const biz = await t.app.client({ bulk_logo_limit: 100 });
    expectBadParam(
      await biz.post('/v1/logo-search/bulk-text/').send({ queries: Array.from({ length: 101 }, () => ({ query_text: 'fox' })) }),
      'queries',
    );
    expectBadParam(
      await biz
        .post('/v1/logo-search/bulk-image-url/')
        .send({ image_urls: Array.from({ length: 101 }, (_, i) => `https://example.com/${i}.png`) }),
      'image_urls',
    );
    expectBadParam(await biz.post('/v1/logo-search/bulk-text/').send({ queries: [{ query_text: '' }] }), 'queries.0.query_text');
    for (const c of [none, pro, biz]) expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(0);
  });

  it('refuses a bulk request whole with 429 when fewer credits remain than it needs, charging nothing', async () => {
    const c = await t.app.client({ bulk_logo_limit: 100, quotas: { logo_searches: 2 } });
    const res = await c
      .post('/v1/logo-search/bulk-text/')
      .send({ queries: [{ query_text: 'a' }, { query_text: 'b' }, { query_text: 'c' }] });
    expect(res.status).to.equal(429);
    expect(res.body.code).to.equal('quota_exceeded');
    expect(res.body.details).to.include({ resource: 'logo_searches', needed: 3, remaining: 2 });
    expect(res.headers['retry-after']).to.match(/^\d+$/);
    expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(0);
    const ok = await c.post('/v1/logo-search/bulk-text/').send({ queries: [{ query_text: 'a' }, { query_text: 'b' }] });
    expect(ok.status).to.equal(200);
    expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(2);
  });

  it('single searches cost one logo_searches credit each (and no api_calls), and 429 once spent', async () => {
    const c = await t.app.client({ quotas: { logo_searches: 2 } });
    expect((await c.post('/v1/logo-search/text/').send({ query_text: 'fox' })).status).to.equal(200);
    expect((await c.post('/v1/logo-search/image/').attach('uploaded_file', docker, 'd.png')).status).to.equal(200);
    const third = await c.post('/v1/logo-search/text/').send({ query_text: 'fox' });
    expect(third.status).to.equal(429);
    expect(third.body.details.resource).to.equal('logo_searches');
    const fourth = await c.post('/v1/logo-search/image/').attach('uploaded_file', docker, 'd.png');
    expect(fourth.status).to.equal(429);
    expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(2);
    expect(await t.app.used(c.account.accountId, 'api_calls')).to.equal(0);
  });
});
