import { expect } from 'chai';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectBadParam } from '../helpers/http.ts';

type Item = { class: number; item_a: string; item_b: string | null; rank: number };

describe('tm-classes endpoints', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  const get = (path: string) => t.get(path);

  describe('GET /v1/tm-classes/', () => {
    it('lists the 45 classes with item counts, kinds and headings', async () => {
      const res = await get('/v1/tm-classes/');
      expect(res.status).to.equal(200);
      expect(res.body.count).to.equal(45);
      expect(res.body.classes.map((c: { class: number }) => c.class)).to.deep.equal(Array.from({ length: 45 }, (_, i) => i + 1));
      const c25 = res.body.classes[24];
      expect(c25).to.include({ class: 25, kind: 'goods', item_count: 189, nice_item_count: 189, tm_item_count: 0 });
      expect(c25.heading).to.match(/clothing/i);
      expect(res.body.classes[34]).to.include({ class: 35, kind: 'services' });
      const total = res.body.classes.reduce((n: number, c: { item_count: number }) => n + c.item_count, 0);
      expect(total).to.equal(10029);
    });

    it('is 403 without cat_tm_class', async () => {
      const res = await (await t.without('cat_tm_class')).get('/v1/tm-classes/');
      expect(res.status).to.equal(403);
      expect(res.body).to.include({ code: 'category_not_on_plan' });
      expect(res.body.details.category).to.equal('cat_tm_class');
    });
  });

  describe('GET /v1/tm-classes/{class_number}/', () => {
    it('gives class 25 its heading, notes and the first page of items', async () => {
      const res = await get('/v1/tm-classes/25/');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ class: 25, kind: 'goods', type: 'both', count: 189, limit: 50, offset: 0 });
      expect(res.body.heading).to.match(/clothing/i);
      expect(res.body.explanatory_note).to.be.a('string');
      expect(res.body.includes).to.be.an('array').that.is.not.empty;
      expect(res.body.excludes).to.be.an('array').that.is.not.empty;
      expect(res.body.items).to.have.length(50);
      expect(res.body.items[0]).to.have.keys('id', 'item_a', 'item_b', 'basic_number');
      expect(res.body.items[0]).to.include({ item_a: 'adhesive bras / adhesive brassieres', item_b: null, basic_number: '250192' });
      expect(res.body.coverage).to.contain('item_b');
    });

    it('pages through the items up to 200 at a time', async () => {
      const all = await get('/v1/tm-classes/25/').query({ limit: 200 });
      expect(all.body.items).to.have.length(189);
      const tail = await get('/v1/tm-classes/25/').query({ limit: 10, offset: 180 });
      expect(tail.body).to.include({ count: 189, limit: 10, offset: 180 });
      expect(tail.body.items).to.deep.equal(all.body.items.slice(180));
      expect(all.body.items.map((i: Item) => i.item_a)).to.include('shirts');
    });

    it('selects Nice items with type=nice and Indian items (none yet) with type=tm', async () => {
      const nice = await get('/v1/tm-classes/25/').query({ type: 'nice' });
      expect(nice.body).to.include({ type: 'nice', count: 189 });
      const tm = await get('/v1/tm-classes/25/').query({ type: 'tm' });
      expect(tm.status).to.equal(200);
      expect(tm.body).to.include({ type: 'tm', count: 0 });
      expect(tm.body.items).to.deep.equal([]);
      expect(tm.body.heading).to.match(/clothing/i);
    });

    it('refuses a class outside 1-45 or not a number with a 400 naming class_number', async () => {
      for (const bad of ['0', '46', 'abc', '2.5', '-1', '1e1', '0x7', '%2025', '25e0']) {
        expectBadParam(await get(`/v1/tm-classes/${bad}/`), 'class_number');
      }
    });

    it('refuses a bad type, limit or offset with a 400 naming it', async () => {
      expectBadParam(await get('/v1/tm-classes/25/').query({ type: 'wipo' }), 'type');
      expectBadParam(await get('/v1/tm-classes/25/').query({ limit: 201 }), 'limit');
      expectBadParam(await get('/v1/tm-classes/25/').query({ limit: 0 }), 'limit');
      expectBadParam(await get('/v1/tm-classes/25/').query({ offset: -1 }), 'offset');
      expectBadParam(await get('/v1/tm-classes/25/').query({ offset: 'later' }), 'offset');
    });

    it('is 403 without cat_tm_class', async () => {
      const res = await (await t.without('cat_tm_class')).get('/v1/tm-classes/25/');
      expect(res.status).to.equal(403);
      expect(res.body.details.category).to.equal('cat_tm_class');
    });
  });

  describe('GET /v1/tm-classes/search/', () => {
    const path = '/v1/tm-classes/search/';

    it('is not taken for a class number', async () => {
      const res = await get(path).query({ q: 'shirts' });
      expect(res.status).to.equal(200);
      const bare = await get('/v1/tm-classes/search').query({ q: 'shirts' });
      expect(bare.status).to.equal(200);
    });

    it('finds whole words by full-text search, ranked, exact item first', async () => {
      const res = await get(path).query({ q: 'shirts' });
      expect(res.body).to.include({ query: 'shirts', type: 'both', class: null, limit: 20, offset: 0 });
      expect(res.body.count).to.be.at.least(3);
      expect(res.body.results[0]).to.include({ class: 25, item_a: 'shirts', item_b: null, basic_number: '250042' });
      expect(res.body.results[0].rank).to.be.at.least(1);
      const ranks = res.body.results.map((r: Item) => r.rank);
      expect(ranks).to.deep.equal([...ranks].sort((a, b) => b - a));
    });

    it('stems English words, so "clothing" finds items about clothes in several classes', async () => {
      const res = await get(path).query({ q: 'clothing', limit: 100 });
      const classes = new Set(res.body.results.map((r: Item) => r.class));
      expect(classes.has(25)).to.equal(true);
      expect(classes.size).to.be.greaterThan(1);
    });

    it('falls back to trigram matching for a partial word, ranked below whole-word hits', async () => {
      const res = await get(path).query({ q: 'shir' });
      expect(res.body.count).to.be.greaterThan(0);
      expect(res.body.results.map((r: Item) => r.item_a)).to.include('shirts');
      for (const r of res.body.results) expect(r.rank).to.be.below(1);
    });

    it('restricts to one class and to an item type', async () => {
      const res = await get(path).query({ q: 'bags', class: 18, limit: 100 });
      expect(res.body.class).to.equal(18);
      expect(res.body.count).to.be.greaterThan(0);
      for (const r of res.body.results) expect(r.class).to.equal(18);
      const tm = await get(path).query({ q: 'shirts', type: 'tm' });
      expect(tm.body).to.include({ type: 'tm', count: 0 });
      const both = await get(path).query({ q: 'shirts' });
      const nice = await get(path).query({ q: 'shirts', type: 'nice' });
      expect(nice.body.count).to.equal(both.body.count);
    });

    it('keeps punctuation and stop words harmless', async () => {
      for (const q of ["o'clock", 'the', 'a & b | !c', '%_\\', 'shirts:*']) {
        const res = await get(path).query({ q });
        expect(res.status, q).to.equal(200);
      }
    });

    it('pages with limit up to 100', async () => {
      const res = await get(path).query({ q: 'apparatus', limit: 100 });
      expect(res.body.results).to.have.length(100);
      const next = await get(path).query({ q: 'apparatus', limit: 5, offset: 100 });
      expect(next.body.count).to.equal(res.body.count);
      expect(next.body.results).to.have.length(5);
    });

    it('refuses a missing or empty q, and bad type, class, limit or offset, with a 400 naming it', async () => {
      expectBadParam(await get(path), 'q');
      expectBadParam(await get(path).query({ q: '' }), 'q');
      expectBadParam(await get(path).query({ q: '   ' }), 'q');
      expectBadParam(await get(path).query({ q: 'shirts', type: 'indian' }), 'type');
      expectBadParam(await get(path).query({ q: 'shirts', class: 0 }), 'class');
      expectBadParam(await get(path).query({ q: 'shirts', class: 46 }), 'class');
      expectBadParam(await get(path).query({ q: 'shirts', class: 'x' }), 'class');
      expectBadParam(await get(path).query({ q: 'shirts', limit: 101 }), 'limit');
      expectBadParam(await get(path).query({ q: 'shirts', limit: 0 }), 'limit');
      expectBadParam(await get(path).query({ q: 'shirts', offset: -1 }), 'offset');
    });

    it('refuses NUL in q with a 400 naming q, not a database error', async () => {
      expectBadParam(await get(`${path}?q=a%00b`), 'q');
    });

    it('refuses numbers that are not plain digits: 1e1 is not class 10, nor 0x7 a limit', async () => {
      for (const bad of ['1e1', '0x7', '%207', '7e0', '+7']) {
        expectBadParam(await get(`${path}?q=shirts&class=${bad}`), 'class');
        expectBadParam(await get(`${path}?q=shirts&limit=${bad}`), 'limit');
        expectBadParam(await get(`${path}?q=shirts&offset=${bad}`), 'offset');
      }
      const ok = await get(`${path}?q=shirts&class=025&limit=07`);
      expect(ok.body).to.include({ class: 25, limit: 7 });
    });

    it('sends one query at a time on its transaction connection (pg 9 refuses overlapping ones)', async () => {
      // Queries in flight per connection, from knex's query events (BEGIN and COMMIT get no response event).
      type Q = { __knexUid: string; sql: string };
      const inFlight = new Map<string, number>();
      let overlapped = 0;
      const counted = (q: Q) => !/^(begin|commit|rollback)/i.test(q.sql);
      const started = (q: Q) => {
        if (!counted(q)) return;
        const n = (inFlight.get(q.__knexUid) ?? 0) + 1;
        if (n > 1) overlapped++;
        inFlight.set(q.__knexUid, n);
      };
      const ended = (_r: unknown, q: Q) => {
        if (counted(q)) inFlight.set(q.__knexUid, (inFlight.get(q.__knexUid) ?? 1) - 1);
      };
      t.deps.db.on('query', started).on('query-response', ended).on('query-error', ended);
      try {
        const res = await get(path).query({ q: 'shirts' });
        expect(res.status).to.equal(200);
      } finally {
        t.deps.db.off('query', started).off('query-response', ended).off('query-error', ended);
      }
      expect(inFlight.size).to.be.greaterThan(0);
      expect(overlapped).to.equal(0);
    });

    it('is 403 without cat_tm_class', async () => {
      const res = await (await t.without('cat_tm_class')).get(path).query({ q: 'shirts' });
      expect(res.status).to.equal(403);
      expect(res.body.details.category).to.equal('cat_tm_class');
    });
  });

  it('documents the three endpoints and says type=tm has no items yet', async () => {
    const doc = t.openapi as { paths: Record<string, { get: { description?: string } }>; components: { schemas: Record<string, unknown> } };
    expect(doc.paths).to.include.keys('/v1/tm-classes/', '/v1/tm-classes/{class_number}/', '/v1/tm-classes/search/');
    expect(doc.paths['/v1/tm-classes/{class_number}/'].get.description).to.contain('item_b');
    expect(doc.components.schemas).to.include.keys(
      'ClassList',
      'ClassSummary',
      'ClassDetail',
      'ClassItem',
      'ClassSearchResponse',
      'ClassSearchResult',
    );
  });
});
