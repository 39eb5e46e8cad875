import { expect } from 'chai';
import { expectBadParam } from '../helpers/http.ts';
import { logoFilterFixture } from '../helpers/logoFilters.ts';

// Logo search filtered by the fields its results carry: class_number and classes (together: any of
// them) and status (labels in any case, or the groups live, pending, dead), on text, image and image-URL
// search and their bulk forms. The filter is applied before the results are cut to the number asked
// for, and to the marks as the register has them now.

type Hit = { application_number: string; class_number: number; status: string };
const apps = (results: Hit[]) => results.map((r) => r.application_number);
const GITHUB_INK: [number, number, number] = [20, 40, 160];

// Four logos reading SUNRISE (one SUNRISE BAKERY, which scores under the exact ones) and three copies
// of one icon, in several classes and statuses.
const MARKS = [
  { app: '5300001', cls: 30, status: 'Registered', draw: { slug: 'apple', text: 'SUNRISE' }, supplied: 'SUNRISE' },
  { app: '5300002', cls: 29, status: 'Objected', draw: { slug: 'leaflet', text: 'SUNRISE' }, supplied: 'SUNRISE' },
  { app: '5300003', cls: 30, status: 'Refused', draw: { slug: 'docker', text: 'SUNRISE' }, supplied: 'SUNRISE' },
  { app: '5300004', cls: 43, status: 'Advertised', draw: { slug: 'firefox', text: 'BAKERY' }, supplied: 'SUNRISE BAKERY' },
  { app: '5300005', cls: 30, status: 'Registered', draw: { slug: 'github', ink: GITHUB_INK } },
  { app: '5300006', cls: 25, status: 'Refused', draw: { slug: 'github', ink: [160, 20, 20] as [number, number, number] } },
  { app: '5300007', cls: 30, status: 'Objected', draw: { slug: 'github', ink: [20, 120, 40] as [number, number, number], size: 120 } },
];

describe('logo search: filters', function () {
  this.timeout(60_000);
  const f = logoFilterFixture<(typeof MARKS)[number], Hit>(MARKS, (m) => ({ class_number: m.cls, status: m.status }), {
    slug: 'github',
    ink: GITHUB_INK,
  });
  const { text, image } = f;

  describe('text', () => {
    it('keeps the logos of class_number and classes (an array or a string), counted', async () => {
      expect(apps((await text({})).results).sort()).to.deep.equal(['5300001', '5300002', '5300003', '5300004']);
      const c30 = await text({ class_number: 30 });
      expect(apps(c30.results).sort()).to.deep.equal(['5300001', '5300003']);
      expect(c30.count).to.equal(2);
      expect(apps((await text({ classes: [29, 43] })).results).sort()).to.deep.equal(['5300002', '5300004']);
      expect(apps((await text({ classes: '29, 43', class_number: '30' })).results).sort()).to.deep.equal([
        '5300001',
        '5300002',
        '5300003',
        '5300004',
      ]);
      expect(await text({ classes: [1] }))
        .to.include({ count: 0 })
        .and.to.have.property('results')
        .that.deep.equals([]);
    });

    it('keeps status labels in any case and the groups, with the classes', async () => {
      expect(apps((await text({ status: 'live' })).results)).to.deep.equal(['5300001']);
      expect(apps((await text({ status: ['DEAD', 'objected'] })).results).sort()).to.deep.equal(['5300002', '5300003']);
      expect(apps((await text({ status: 'pending' })).results).sort()).to.deep.equal(['5300002', '5300004']);
      const both = await text({ status: 'Registered,Refused', class_number: 30 });
      expect(apps(both.results).sort()).to.deep.equal(['5300001', '5300003']);
      expect(both.results.every((r) => r.class_number === 30)).to.equal(true);
    });

    it('filters before cutting to max_results: a weaker match the filter keeps is still found', async () => {
      const top = await text({ max_results: 1 });
      expect(top.results[0].application_number).to.not.equal('5300004');
      const kept = await text({ max_results: 1, status: 'Advertised' });
      expect(apps(kept.results)).to.deep.equal(['5300004']);
      expect(kept.count).to.equal(1);
      const two = await text({ max_results: 1, class_number: 30 });
      expect(two.results).to.have.length(1);
      expect(two.count).to.equal(2);
    });

    it("reads a mark's class and status as the register has them now, not as the text index saw them", async () => {
      await text({});
      await f.t.app.deps.db('trademarks').where({ application_number: '5300002' }).update({ status: 'Registered', class_number: 31 });
      try {
        expect(apps((await text({ status: 'live' })).results).sort()).to.deep.equal(['5300001', '5300002']);
        expect(apps((await text({ class_number: 31 })).results)).to.deep.equal(['5300002']);
        expect(apps((await text({ class_number: 29 })).results)).to.deep.equal([]);
      } finally {
        await f.t.app.deps.db('trademarks').where({ application_number: '5300002' }).update({ status: 'Objected', class_number: 29 });
      }
    });

    it('bulk-text applies the filter to every query', async () => {
      const c = await f.t.app.client({ bulk_logo_limit: 100, quotas: { logo_searches: 10 } });
      const res = await c.post('/v1/logo-search/bulk-text/').send({
        queries: [{ query_text: 'sunrise' }, { query_text: 'sunrise bakery' }],
        status: 'dead',
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.results.map((r: { results: Hit[] }) => apps(r.results))).to.deep.equal([['5300003'], ['5300003']]);
    });
  });

  describe('image', () => {
    it('keeps the logos the filter keeps, among the nearest, before cutting to img_cnt', async () => {
      const all = await image({});
      expect(all.results[0].application_number).to.equal('5300005');
      const c25 = await image({ class_number: '25', img_cnt: '1' });
      expect(apps(c25.results)).to.deep.equal(['5300006']);
      const pending = await image({ status: 'PENDING', img_cnt: '2' });
      expect(pending.results.length).to.be.within(1, 2);
      expect(pending.results[0].application_number).to.equal('5300007');
      expect(pending.results.every((r) => ['Objected', 'Advertised'].includes(r.status))).to.equal(true);
      expect(pending.count).to.equal(pending.results.length);
    });

    it('takes classes and status as repeated form fields, or one separated by commas', async () => {
      const repeated = await image({ classes: ['25', '30'], status: ['Refused', 'objected'] });
      expect(repeated.results.every((r) => [25, 30].includes(r.class_number) && ['Refused', 'Objected'].includes(r.status))).to.equal(true);
      expect(apps(repeated.results)).to.include.members(['5300006', '5300007']);
      expect(apps(repeated.results)).to.not.include('5300005');
      const joined = await image({ classes: '25,30', status: 'Refused,objected' });
      expect(apps(joined.results)).to.deep.equal(apps(repeated.results));
    });

    it('image-url and bulk-image filter alike', async () => {
      const url = await f.t.app
        .post('/v1/logo-search/image-url/')
        .send({ image_url: `${f.server.origin}/q.png`, similarity_level: 'low', img_cnt: 1, status: ['dead'] });
      expect(url.status, JSON.stringify(url.body)).to.equal(200);
      expect(apps(url.body.results)).to.deep.equal(['5300006']);
      const c = await f.t.app.client({ bulk_logo_limit: 100, quotas: { logo_searches: 10 } });
      const bulk = await c
        .post('/v1/logo-search/bulk-image/')
        .attach('uploaded_files', f.query, 'q.png')
        .field('similarity_level', 'low')
        .field('img_cnt', '1')
        .field('class_number', '30')
        .field('status', 'Objected');
      expect(bulk.status, JSON.stringify(bulk.body)).to.equal(200);
      expect(apps(bulk.body.results[0].results)).to.deep.equal(['5300007']);
    });
  });

  it('answers an unknown status or a bad class with a 400 naming it, charging nothing and fetching nothing', async () => {
    const c = await f.t.app.client({ quotas: { logo_searches: 10 } });
    const cases: [string, () => Promise<import('supertest').Response>][] = [
      ['status', () => c.post('/v1/logo-search/text/').send({ query_text: 'sunrise', status: 'Sleeping' })],
      ['status', () => c.post('/v1/logo-search/text/').send({ query_text: 'sunrise', status: [] })],
      ['classes', () => c.post('/v1/logo-search/text/').send({ query_text: 'sunrise', classes: [30, 46] })],
      ['classes', () => c.post('/v1/logo-search/text/').send({ query_text: 'sunrise', classes: 'x' })],
      ['class_number', () => c.post('/v1/logo-search/text/').send({ query_text: 'sunrise', class_number: 0 })],
      ['status', () => c.post('/v1/logo-search/image/').attach('uploaded_file', f.query, 'q.png').field('status', 'alive')],
      ['classes', () => c.post('/v1/logo-search/image/').attach('uploaded_file', f.query, 'q.png').field('classes', '30,,x')],
      ['status', () => c.post('/v1/logo-search/image-url/').send({ image_url: `${f.server.origin}/q.png`, status: 'Sleeping' })],
    ];
    const seen = f.server.seen.length;
    for (const [parameter, send] of cases) {
      const res = await send();
      expectBadParam(res, parameter);
    }
    const unknown = await c.post('/v1/logo-search/text/').send({ query_text: 'sunrise', status: 'Sleeping' });
    expect(unknown.body.details[0].message).to.match(/unknown status "Sleeping".*Registered.*or a group: live, pending, dead/);
    expect(f.server.seen.length).to.equal(seen);
    expect(await f.t.app.used(c.account.accountId, 'logo_searches')).to.equal(0);
  });
});
