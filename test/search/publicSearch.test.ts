import { expect } from 'chai';
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks } from '../helpers/marks.ts';

const PATH = '/public/v1/trademarks/search/';
const ORIGIN = 'https://www.rao-associates.example';

describe('GET /public/v1/trademarks/search/: class, rate-limit headers and CORS', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await insertMarks(t.deps.db, [
      { app: '5100001', mark: 'SUNRISE', cls: 30 },
      { app: '5100002', mark: 'SUNRISE FOODS', cls: 29 },
      { app: '5100003', mark: 'SUNRISE OIL', cls: 29 },
      { app: '5100004', mark: 'GOLDEN SUNRISE', cls: 43 },
    ]);
  });
  after(async () => t.close());

  const search = (qs: string) => request(t.app).get(`${PATH}?${qs}`).set('Origin', ORIGIN);

  it('honours class_number, checked as the keyed search checks it', async () => {
    const all = await search('word_mark=sunrise');
    expect(all.status, JSON.stringify(all.body)).to.equal(200);
    expect(all.body.count).to.equal(4);
    const c29 = await search('word_mark=sunrise&class_number=29');
    expect(c29.status).to.equal(200);
    expect(c29.body.count).to.equal(2);
    expect(c29.body.results.map((r: { application_number: string }) => r.application_number).sort()).to.deep.equal(['5100002', '5100003']);
    for (const bad of ['46', '0', '0x7', 'x']) {
      const res = await search(`word_mark=sunrise&class_number=${bad}`);
      expect(res.status, bad).to.equal(400);
      expect(res.body.details).to.deep.equal([
        { in: 'query', parameter: 'class_number', message: 'class_number must be an integer between 1 and 45' },
      ]);
    }
  });

  it('takes match_type, classes, status and ten pages of ten, and counts the matches by class and status', async () => {
    const exact = await search('word_mark=sunrise&match_type=exact');
    expect([exact.status, exact.body.match_type, exact.body.count]).to.deep.equal([200, 'EXACT', 1]);
    const some = await search('word_mark=sunrise&classes=29,43');
    expect(some.body.count).to.equal(3);
    expect(some.body.groups).to.deep.equal({ class_number: [{ '29': 2 }, { '43': 1 }], status: [{ Registered: 3 }] });
    expect((await search('word_mark=sunrise&status=objected')).body.count).to.equal(0);
    expect((await search('word_mark=sunrise&status=live')).body.count).to.equal(4);
    const page = await search('word_mark=sunrise&offset=3');
    expect([page.body.offset, page.body.results.length, page.body.count]).to.deep.equal([3, 1, 4]);
    const deep = await search('word_mark=sunrise&offset=91');
    expect(deep.status).to.equal(400);
    expect(deep.body.details[0].message).to.equal('offset must be at most 90: the free search shows the first 100 matches');
  });

  it('shows one mark with the free fields, 404 for one not on the register, with the same limit headers and CORS', async () => {
    const res = await request(t.app).get('/public/v1/trademarks/5100002/').set('Origin', ORIGIN);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(Object.keys(res.body).sort()).to.deep.equal([
      'application_date',
      'application_number',
      'class_number',
      'state',
      'status',
      'tm_type',
      'word_mark',
    ]);
    expect(res.body).to.include({ application_number: '5100002', word_mark: 'SUNRISE FOODS', class_number: 29 });
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.headers['ratelimit-limit']).to.be.a('string');
    const missing = await request(t.app).get('/public/v1/trademarks/9999999/');
    expect([missing.status, missing.body.code]).to.deep.equal([404, 'not_found']);
    expect((await request(t.app).get('/public/v1/trademarks/abc/')).status).to.equal(400);
  });

  it('names the 45 classes without a credential (the search page picks classes by them)', async () => {
    const res = await request(t.app).get('/public/v1/tm-classes/');
    expect(res.status).to.equal(200);
    expect(res.body.count).to.equal(45);
    expect(res.body.classes[0]).to.have.keys('class', 'kind', 'heading');
    expect(res.body.classes.map((c: { class: number }) => c.class)).to.deep.equal(Array.from({ length: 45 }, (_, i) => i + 1));
    expect(res.body.classes[29].kind).to.equal('goods');
    expect(res.body.classes[44].kind).to.equal('services');
  });

  it('says on every answer, refusals included, how many searches the hourly window has left', async () => {
    const small = await createTestApp({ PUBLIC_SEARCH_PER_HOUR: '4' });
    try {
      const get = (qs: string) => request(small.app).get(`${PATH}?${qs}`).set('Origin', ORIGIN);
      const first = await get('word_mark=sunrise');
      expect(first.status).to.equal(200);
      expect(first.headers['ratelimit-limit']).to.equal('4');
      expect(first.headers['ratelimit-remaining']).to.equal('3');
      expect(Number(first.headers['ratelimit-reset'])).to.be.greaterThan(3500).and.at.most(3600);
      expect((await get('word_mark=sunrise')).headers['ratelimit-remaining']).to.equal('2');
      // A refused search still counted: the headers say so, so a page can show what is left.
      const bad = await get('word_mark=');
      expect(bad.status).to.equal(400);
      expect([bad.headers['ratelimit-limit'], bad.headers['ratelimit-remaining']]).to.deep.equal(['4', '1']);
      expect(bad.headers['access-control-allow-origin'], 'CORS on errors too').to.equal('*');
      expect((await get('word_mark=sunrise')).headers['ratelimit-remaining']).to.equal('0');

      const limited = await get('word_mark=sunrise');
      expect(limited.status).to.equal(429);
      expect(limited.body.code).to.equal('public_search_limited');
      expect(Number(limited.headers['retry-after'])).to.be.greaterThan(3500);
      expect([limited.headers['ratelimit-limit'], limited.headers['ratelimit-remaining']]).to.deep.equal(['4', '0']);
      expect(limited.headers['access-control-allow-origin']).to.equal('*');
    } finally {
      await small.close();
    }
  });

  it('answers a GET from another origin with CORS headers (no credentials) that let the page read the limits', async () => {
    const res = await search('word_mark=sunrise');
    expect(res.status).to.equal(200);
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.headers['access-control-allow-credentials']).to.equal(undefined);
    const exposed = String(res.headers['access-control-expose-headers']).split(/,\s*/);
    expect(exposed).to.include.members(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id']);

    // The keyed API is not for other sites' pages: no CORS there.
    const keyed = await t.get('/v1/trademarks/?word_mark=sunrise').set('Origin', ORIGIN);
    expect(keyed.status).to.equal(200);
    expect(keyed.headers['access-control-allow-origin']).to.equal(undefined);
    const keyedPre = await request(t.app)
      .options('/v1/trademarks/')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'x-api-key');
    expect(keyedPre.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('answers the preflight with 204, GET allowed, without counting it as a search', async () => {
    const before = Number((await search('word_mark=sunrise')).headers['ratelimit-remaining']);
    const pre = await request(t.app)
      .options(PATH)
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'x-request-id');
    expect(pre.status).to.equal(204);
    expect(pre.headers['access-control-allow-origin']).to.equal('*');
    expect(pre.headers['access-control-allow-methods']).to.equal('GET, HEAD');
    expect(String(pre.headers['access-control-allow-headers']).toLowerCase()).to.contain('x-request-id');
    expect(Number(pre.headers['access-control-max-age'])).to.be.greaterThan(0);
    expect(pre.headers['access-control-allow-credentials']).to.equal(undefined);
    expect(Number((await search('word_mark=sunrise')).headers['ratelimit-remaining'])).to.equal(before - 1);
  });

  it('documents the hourly RateLimit headers of the public search', () => {
    const doc = t.openapi as {
      paths: Record<string, Record<string, { parameters: { name: string }[]; responses: Record<string, { headers?: object }> }>>;
    };
    const op = doc.paths['/public/v1/trademarks/search/'].get;
    expect(op.parameters.map((p) => p.name)).to.include('class_number');
    for (const status of ['200', '429']) {
      expect(op.responses[status].headers, status).to.include.keys('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
    }
    expect(op.responses['429'].headers).to.include.keys('Retry-After');
  });
});
