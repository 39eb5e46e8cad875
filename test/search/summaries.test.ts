import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { buildIndex } from '../../src/search/manager.ts';
import type { MarkIndex } from '../../src/search/markIndex.ts';
import { loadSnapshot, saveSnapshot } from '../../src/search/snapshot.ts';
import { dmyDay, isoDay } from '../../src/search/summaries.ts';
import { type SummaryRow, TrademarkRepository } from '../../src/trademarks/repository.ts';
import { slugOf } from '../../src/trademarks/slug.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { importGenerated } from '../helpers/seed.ts';

// Search results are written from the summaries the index keeps (src/search/summaries.ts), not read
// from PostgreSQL: they must be exactly what PostgreSQL holds, field by field, for every mark.

// Marks whose summaries take the paths a generated register rarely takes.
const ODD = [
  {
    application_number: '9000001',
    word_mark: 'Sri-Sai  Foods (P) Ltd.',
    slug: slugOf('Sri-Sai  Foods (P) Ltd.', '9000001'),
    state: null,
    filing_mode: null,
  },
  { application_number: '9000002', word_mark: 'Café Lotus', slug: 'a-slug-of-its-own', alert: 'Renewal due\nsecond line', expire_at: null },
  {
    application_number: '9000003',
    word_mark: 'SUNRISE FOODS',
    slug: 'sunrise-foods-9000003',
    proprietor_name: 'श्री गणेश ट्रेडर्स',
    application_date: '1965-03-01',
    expire_at: '2099-12-31',
  },
  { application_number: '9000004', word_mark: 'SUNRISE FOODS', slug: 'sunrise-foods-09000004', state: '', filing_mode: '' },
  {
    application_number: '9000005',
    word_mark: `${'VERY LONG MARK '.repeat(6)}END`,
    slug: slugOf(`${'VERY LONG MARK '.repeat(6)}END`, '9000005'),
  },
  { application_number: '9000006', word_mark: 'A4 2GETHER', slug: 'a4-2gether-9000006', alert: 'Opposed' },
  { application_number: '9000008', word_mark: 'SUNRISE FOODS', slug: 'sunrise-foods-9000001' },
  { application_number: '9000009', word_mark: 'SUNRISE FOODS', slug: 'sunrise-fooda-9000009' },
];

async function insertOdd(t: TestApp): Promise<void> {
  await t.deps.db('trademarks').insert(
    ODD.map((m) => ({
      class_number: 30,
      status: 'Registered',
      application_date: '2020-01-01',
      expire_at: '2030-01-01',
      proprietor_name: 'OWNER',
      state: 'MAHARASHTRA',
      tm_type: 'WORD',
      filing_mode: 'E-FILING',
      alert: '',
      ...m,
    })),
  );
}

async function expectSameAsSql(repo: TrademarkRepository, ix: MarkIndex): Promise<number> {
  const rows: SummaryRow[] = [];
  for (let id = 0; id < ix.n; id++) rows.push(ix.summaries.row(id));
  const sql = new Map((await repo.summaries(rows.map((r) => r.application_number))).map((r) => [r.application_number, r]));
  for (const r of rows) expect(r, r.application_number).to.deep.equal(sql.get(r.application_number));
  // What the threats analysis reads (brief): the same fields, the same values.
  rows.forEach(({ application_number, word_mark, class_number, status, application_date, proprietor_name }, id) => {
    const brief = { application_number, word_mark, class_number, status, application_date, proprietor_name };
    expect(ix.summaries.brief(id), application_number).to.deep.equal(brief);
  });
  return rows.length;
}

describe('search summaries kept in the index', function () {
  this.timeout(120_000);
  let t: TestApp;
  let repo: TrademarkRepository;

  before(async () => {
    t = await createTestApp();
    repo = new TrademarkRepository(t.deps.db);
    await importGenerated(t.deps, 1500, 23);
    await insertOdd(t);
  });
  after(async () => t.close());

  it('formats dates as PostgreSQL does, before 1970 and far ahead', () => {
    for (let days = -40_000; days <= 60_000; days += 7) {
      const d = new Date(days * 86_400_000).toISOString().slice(0, 10);
      expect(isoDay(days)).to.equal(d);
      expect(dmyDay(days)).to.equal(`${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`);
    }
  });

  it('equal what PostgreSQL holds for every mark with words, as built and as loaded from a snapshot', async () => {
    const built = (await buildIndex(t.deps.config.DATABASE_URL, null)).engine.indexes[0];
    const n = await expectSameAsSql(repo, built);
    const withWords = Number((await t.deps.db.raw(`select count(*) as n from trademarks where word_mark <> ''`)).rows[0].n);
    expect(n).to.equal(withWords);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-snap-')), 'index.snapshot');
    saveSnapshot(file, built, 0, 'test');
    const loaded = (await loadSnapshot(file))!;
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect(await expectSameAsSql(repo, loaded.index)).to.equal(n);
  });

  it('follow a change of any summary field through the change feed, and search results show it', async () => {
    const search = async (q: string) => (await t.get(`/v1/trademarks/?word_mark=${encodeURIComponent(q)}&match_type=EXACT&limit=100`)).body;
    expect((await search('a4 2gether')).results[0]).to.include({ proprietor_name: 'OWNER', alert: 'Opposed' });
    await t.deps
      .db('trademarks')
      .where({ application_number: '9000006' })
      .update({ proprietor_name: 'NEW OWNER', alert: '', expire_at: null, application_date: '1999-12-31', slug: 'moved' });
    await t.deps.db('trademarks').insert({
      application_number: '9000007',
      word_mark: 'a4 2gether',
      class_number: 31,
      status: 'Objected',
      application_date: '2021-05-06',
      proprietor_name: 'ANOTHER',
      tm_type: 'WORD',
      slug: slugOf('a4 2gether', '9000007'),
    });
    await t.deps.search.sync();
    const body = await search('A4 2GETHER');
    const sql = new Map((await repo.summaries(['9000006', '9000007'])).map((r) => [r.application_number, r]));
    expect(body.count).to.equal(2);
    for (const r of body.results) {
      const { score: _score, strategy: _strategy, ...summary } = r;
      expect(summary).to.deep.equal(sql.get(r.application_number));
    }
    expect(sql.get('9000006')).to.include({
      proprietor_name: 'NEW OWNER',
      alert: '',
      expire_at: null,
      application_date: '1999-12-31',
      slug: 'moved',
    });
  });
});
