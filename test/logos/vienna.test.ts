import { expect } from 'chai';
import type request from 'supertest';
import { expectBadParam } from '../helpers/http.ts';
import { logoFilterFixture } from '../helpers/logoFilters.ts';

// Logo search's vienna_codes filter (docs/logos.md): a code keeps logos with that code or any code
// below it (03.01 keeps 03.01.01), several codes keep logos with any of them, and it combines with
// the other filters. Every result shows its logo's codes. An unknown code is a 400 naming the parameter.

type Hit = { application_number: string; class_number: number; vienna_codes: string[] };
const apps = (results: Hit[]) => results.map((r) => r.application_number).sort();
const INK: [number, number, number] = [20, 40, 160];

const MARKS = [
  { app: '5400001', cls: 30, codes: ['03.01.01', '27.05.17'], draw: { slug: 'apple', text: 'SUNRISE' }, supplied: 'SUNRISE' },
  { app: '5400002', cls: 29, codes: ['03.01.08'], draw: { slug: 'leaflet', text: 'SUNRISE' }, supplied: 'SUNRISE' },
  { app: '5400003', cls: 30, codes: ['01.03.01'], draw: { slug: 'docker', text: 'SUNRISE' }, supplied: 'SUNRISE' },
  { app: '5400004', cls: 30, codes: null, draw: { slug: 'firefox', text: 'SUNRISE' }, supplied: 'SUNRISE' },
  { app: '5400005', cls: 30, codes: ['26.01.03'], draw: { slug: 'github', ink: INK } },
  { app: '5400006', cls: 25, codes: ['26.04.01', '26.01.16'], draw: { slug: 'github', ink: [160, 20, 20] as [number, number, number] } },
  { app: '5400007', cls: 30, codes: [], draw: { slug: 'github', ink: [20, 120, 40] as [number, number, number], size: 120 } },
];
const CODES = Object.fromEntries(MARKS.map((m) => [m.app, m.codes ?? []]));

describe('logo search: Vienna codes', function () {
  this.timeout(60_000);
  const f = logoFilterFixture<(typeof MARKS)[number], Hit>(MARKS, (m) => ({ class_number: m.cls, vienna_codes: m.codes }), {
    slug: 'github',
    ink: INK,
  });
  const { text, image } = f;

  it("shows each result's Vienna codes, an empty list where the mark has none", async () => {
    const all = await text({});
    expect(apps(all.results)).to.deep.equal(['5400001', '5400002', '5400003', '5400004']);
    for (const r of all.results) expect(r.vienna_codes, r.application_number).to.deep.equal(CODES[r.application_number]);
    const img = await image({});
    expect(img.results.length).to.be.at.least(3);
    for (const r of img.results) expect(r.vienna_codes, r.application_number).to.deep.equal(CODES[r.application_number]);
  });

  it('shows the same codes in the trade mark detail', async () => {
    const res = await f.t.app.get('/v1/trademarks/5400006/');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.vienna_codes).to.deep.equal(['26.04.01', '26.01.16']);
    expect((await f.t.app.get('/v1/trademarks/5400004/')).body.vienna_codes).to.deep.equal([]);
  });

  it('keeps logos with a code or any code below it, in any accepted form', async () => {
    expect(apps((await text({ vienna_codes: '03.01' })).results)).to.deep.equal(['5400001', '5400002']);
    expect(apps((await text({ vienna_codes: '3' })).results)).to.deep.equal(['5400001', '5400002']);
    expect(apps((await text({ vienna_codes: ['030101'] })).results)).to.deep.equal(['5400001']);
    expect(apps((await text({ vienna_codes: '27.5.17' })).results)).to.deep.equal(['5400001']);
    const two = await text({ vienna_codes: '01.03, 03.01.08' });
    expect(apps(two.results)).to.deep.equal(['5400002', '5400003']);
    expect(two.count).to.equal(2);
    expect(await text({ vienna_codes: ['03.07'] }))
      .to.include({ count: 0 })
      .and.to.have.property('results')
      .that.deep.equals([]);
  });

  it('combines with the class filter and applies to bulk text', async () => {
    expect(apps((await text({ vienna_codes: '03', class_number: 30 })).results)).to.deep.equal(['5400001']);
    expect(apps((await text({ vienna_codes: ['01', '03'], classes: [29, 30] })).results)).to.deep.equal(['5400001', '5400002', '5400003']);
    const c = await f.t.app.client({ bulk_logo_limit: 100, quotas: { logo_searches: 10 } });
    const res = await c.post('/v1/logo-search/bulk-text/').send({ queries: [{ query_text: 'sunrise' }], vienna_codes: '01.03.01' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(apps(res.body.results[0].results)).to.deep.equal(['5400003']);
  });

  it('filters image, image-URL and bulk image search alike, with the other filters', async () => {
    expect(apps((await image({ vienna_codes: '26' })).results)).to.deep.equal(['5400005', '5400006']);
    expect(apps((await image({ vienna_codes: ['26.01'], img_cnt: '5' })).results)).to.deep.equal(['5400005', '5400006']);
    expect(apps((await image({ vienna_codes: '26.04.01,27' })).results)).to.deep.equal(['5400006']);
    expect(apps((await image({ vienna_codes: '26', class_number: '30' })).results)).to.deep.equal(['5400005']);
    const url = await f.t.app
      .post('/v1/logo-search/image-url/')
      .send({ image_url: `${f.server.origin}/q.png`, similarity_level: 'low', vienna_codes: ['26.04'] });
    expect(url.status, JSON.stringify(url.body)).to.equal(200);
    expect(apps(url.body.results)).to.deep.equal(['5400006']);
    expect(url.body.results[0].vienna_codes).to.deep.equal(['26.04.01', '26.01.16']);
    const c = await f.t.app.client({ bulk_logo_limit: 100, quotas: { logo_searches: 10 } });
    const bulk = await c
      .post('/v1/logo-search/bulk-image/')
      .attach('uploaded_files', f.query, 'q.png')
      .field('similarity_level', 'low')
      .field('vienna_codes', '26.1.3');
    expect(bulk.status, JSON.stringify(bulk.body)).to.equal(200);
    expect(apps(bulk.body.results[0].results)).to.deep.equal(['5400005']);
  });

  it('answers an unknown or malformed code with a 400 naming vienna_codes, charging nothing and fetching nothing', async () => {
    const c = await f.t.app.client({ quotas: { logo_searches: 10 } });
    const cases: (() => Promise<request.Response>)[] = [
      () => c.post('/v1/logo-search/text/').send({ query_text: 'sunrise', vienna_codes: '03.01.03' }),
      () => c.post('/v1/logo-search/text/').send({ query_text: 'sunrise', vienna_codes: ['03.01', 'lion'] }),
      () => c.post('/v1/logo-search/text/').send({ query_text: 'sunrise', vienna_codes: '98.02' }),
      () => c.post('/v1/logo-search/text/').send({ query_text: 'sunrise', vienna_codes: [] }),
      () => c.post('/v1/logo-search/text/').send({ query_text: 'sunrise', vienna_codes: 301 }),
      () => c.post('/v1/logo-search/image/').attach('uploaded_file', f.query, 'q.png').field('vienna_codes', '3.1.100'),
      () => c.post('/v1/logo-search/image-url/').send({ image_url: `${f.server.origin}/q.png`, vienna_codes: '99' }),
    ];
    const seen = f.server.seen.length;
    for (const send of cases) expectBadParam(await send(), 'vienna_codes');
    const unknown = await c.post('/v1/logo-search/text/').send({ query_text: 'sunrise', vienna_codes: '03.01.03' });
    expect(unknown.body.details[0].message).to.contain('unknown Vienna code "03.01.03"');
    expect(f.server.seen.length).to.equal(seen);
    expect(await f.t.app.used(c.account.accountId, 'logo_searches')).to.equal(0);
  });

  it('suggests the Vienna sections of the nearest logos, the nearest voting most, described, and charges one search', async () => {
    const c = await f.t.app.client({ quotas: { logo_searches: 10 } });
    const res = await c.post('/v1/logo-search/vienna-codes/').attach('uploaded_file', f.query, 'q.png');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const codes = res.body.suggestions.map((s: { code: string }) => s.code);
    // The query is 5400005's logo: its code first, then those of the same drawing in another colour (5400006).
    expect(codes.slice(0, 3)).to.deep.equal(['26.01.03', '26.01.16', '26.04.01']);
    const [best] = res.body.suggestions;
    expect(best).to.include({ marks: 1 });
    expect(best.description).to.be.a('string').and.not.equal('');
    expect(best.score).to.be.greaterThan(res.body.suggestions[1].score);
    const total = res.body.suggestions.reduce((sum: number, s: { score: number }) => sum + s.score, 0);
    expect(total).to.be.at.least(0.99);
    // Only the marks with codes vote: 5400004 and 5400007 have none.
    expect(res.body.neighbours).to.equal(5);
    expect(await f.t.app.used(c.account.accountId, 'logo_searches')).to.equal(1);
    const two = await c.post('/v1/logo-search/vienna-codes/').attach('uploaded_file', f.query, 'q.png').field('max_results', '2');
    expect(two.body.suggestions).to.have.length(2);
    expect(two.body.count).to.equal(res.body.count);
  });

  it('refuses a bad max_results or a file that is no image, charging nothing', async () => {
    const c = await f.t.app.client({ quotas: { logo_searches: 10 } });
    for (const n of ['0', '21', 'many'])
      expectBadParam(
        await c.post('/v1/logo-search/vienna-codes/').attach('uploaded_file', f.query, 'q.png').field('max_results', n),
        'max_results',
      );
    const text = await c.post('/v1/logo-search/vienna-codes/').attach('uploaded_file', Buffer.from('not an image'), 'q.png');
    expect(text.status).to.equal(400);
    expect(text.body.code).to.equal('not_an_image');
    expect(await f.t.app.used(c.account.accountId, 'logo_searches')).to.equal(0);
  });
});
