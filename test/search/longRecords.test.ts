import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import type { Db } from '../../src/db/knex.ts';
import { ChangeListener } from '../../src/db/listener.ts';
import { IndexBuilder, MARK_MAX, type MarkRow } from '../../src/search/build.ts';
import { SearchEngine } from '../../src/search/engine.ts';
import { buildIndex, SearchIndex } from '../../src/search/manager.ts';
import { prepareQuery, QUERY_MAX } from '../../src/search/query.ts';
import { VARIANT_WORD_MAX } from '../../src/search/vocabulary.ts';
import { cloneTestDatabase } from '../helpers/db.ts';
import { insertMarks } from '../helpers/marks.ts';

// Records longer than anything the register holds (a 200,000-character word mark written to the database
// by other means than the importer) once stopped the index: the table of spelling variants grows with the
// square of a word's length. The index leaves out what it cannot hold, names it, and goes on.

function row(appNo: number, wordMark: string, cls = 30): MarkRow {
  return { appNo, wordMark, cls, status: 'Registered', tmType: 'WORD', filingMode: 'E-FILING', state: 'GOA' };
}

const apps = (e: SearchEngine, text: string, mode: 'SMART' | 'EXACT' = 'SMART') =>
  e.search(prepareQuery(text, mode), { classes: null, status: null }, 100, null).hits.map((h) => h.appNo);

const HUGE = 'A'.repeat(200_000);
const MANY_WORDS = Array.from({ length: 40_000 }, (_, i) => `W${i}`).join(' ');

describe('search index: records it cannot take', () => {
  it('leaves out a mark too long to index, says which and why, and builds the rest', function () {
    this.timeout(20_000);
    const long = 'LONGWORD'.repeat(400); // 3,200 letters in one word: indexed, found as a word, with no variants
    const b = new IndexBuilder();
    expect(b.add(row(1, 'SUNRISE'))).to.equal(null);
    expect(b.add(row(2, HUGE))).to.equal(`its word mark runs to 200000 characters, more than ${MARK_MAX}`);
    expect(b.add(row(3, MANY_WORDS))).to.match(/^its word mark runs to \d+ characters/);
    expect(b.add(row(4, 'SUNRIZE', 0))).to.equal('class 0 is not 1-45');
    expect(b.add(row(5, long))).to.equal(null);
    expect(b.add(row(6, 'SUNRISE FOODS'))).to.equal(null);
    // Short as stored, long once normalised: a ligature NFKD spells out in 18 letters.
    expect(b.add(row(7, '\ufdfa '.repeat(300)))).to.match(
      new RegExp(`^normalised, its word mark runs to \\d+ characters, more than ${MARK_MAX}$`),
    );
    expect(b.skipped.map((s) => s.appNo)).to.deep.equal([2, 3, 4, 7]);
    const e = new SearchEngine(b.finish(), 0);
    expect(apps(e, 'sunrise')).to.deep.equal([1, 6]);
    expect(apps(e, long.slice(0, 40))).to.deep.equal([5]);
    expect(apps(e, long, 'EXACT'), 'read up to the query limit only').to.deep.equal([]);
    expect(e.indexes[0].vocab.variants(long, 2).size).to.equal(0);
  });

  it('keeps spelling variants to words of up to VARIANT_WORD_MAX letters', () => {
    const at = `${'K'.repeat(VARIANT_WORD_MAX - 1)}A`;
    const past = `${'K'.repeat(VARIANT_WORD_MAX)}A`;
    const b = new IndexBuilder();
    b.add(row(1, at));
    b.add(row(2, past));
    const e = new SearchEngine(b.finish(), 0);
    const v = e.indexes[0].vocab;
    expect([...v.variants(`${at.slice(0, -1)}B`, 1).keys()].map((id) => v.words.at(id))).to.deep.equal([at]);
    expect(v.variants(`${past.slice(0, -1)}B`, 1).size).to.equal(0);
    expect(apps(e, past, 'EXACT')).to.deep.equal([2]);
  });

  it('follows changes: the marks it can hold, for a change it cannot hold', function () {
    this.timeout(20_000);
    const b = new IndexBuilder();
    b.add(row(1, 'SUNRISE'));
    const e = new SearchEngine(b.finish(), 1);
    expect(
      e
        .apply(
          [
            { seq: 2, appNo: 1, row: row(1, HUGE) },
            { seq: 3, appNo: 7, row: row(7, 'MOONLIGHT') },
          ],
          3,
        )
        .map((s) => s.appNo),
    ).to.deep.equal([1]);
    expect(e.seq).to.equal(3);
    expect(apps(e, 'moonlight')).to.deep.equal([7]);
    expect(apps(e, 'sunrise'), 'the old version is gone too').to.deep.equal([]);
    // Reported once: a later batch rebuilds the changes without naming it again.
    expect(e.apply([{ seq: 4, appNo: 8, row: row(8, 'STARDUST') }], 4)).to.deep.equal([]);
    expect(e.apply([{ seq: 5, appNo: 1, row: row(1, 'SUNRISE GOLD') }], 5)).to.deep.equal([]);
    expect(apps(e, 'sunrise')).to.deep.equal([1]);
  });

  it('reads a query up to QUERY_MAX characters, at a word boundary', () => {
    const q = prepareQuery(`${'ABCD '.repeat(100)}`, 'SMART');
    expect(q.raw.length).to.be.at.most(QUERY_MAX);
    expect(q.words.every((w) => w === 'ABCD')).to.equal(true);
    // A ligature NFKD spells out in 18 letters: the words are bounded once normalised as well.
    expect(prepareQuery('\ufdfa'.repeat(QUERY_MAX), 'SMART').normalised.length).to.be.at.most(QUERY_MAX);
  });
});

describe('search index: a 200,000-character word mark in the database', () => {
  let db: Db;
  let url: string;
  let listener: ChangeListener;
  let index: SearchIndex;
  const logged: { msg: string; application_number?: string; reason?: string }[] = [];
  const log = pino(
    { level: 'warn' },
    new Writable({
      write(chunk, _enc, cb) {
        logged.push(JSON.parse(String(chunk)));
        cb();
      },
    }),
  );

  before(async function () {
    this.timeout(30_000);
    ({ db, url } = await cloneTestDatabase());
    await insertMarks(db, [{ app: '8000001', mark: 'SUNRISE' }]);
    listener = new ChangeListener(url, log);
    await listener.start();
    index = new SearchIndex(url, null, listener, log);
    await index.ready();
  });
  after(async () => {
    await index.close();
    await listener.close();
    await db.destroy();
  });

  it('goes on following the change feed after it, and names it in the log', async function () {
    this.timeout(30_000);
    // Written straight to the table, as no import would: the importer refuses such a line.
    await insertMarks(db, [{ app: '8000002', mark: HUGE }]);
    await insertMarks(db, [{ app: '8000003', mark: 'MOONLIGHT' }]);
    await index.sync();
    const engine = await index.ready();
    expect(apps(engine, 'moonlight')).to.deep.equal([8000003]);
    expect(logged.filter((l) => l.msg === 'search index: mark left out').map((l) => [l.application_number, l.reason])).to.deep.equal([
      ['8000002', `its word mark runs to 200000 characters, more than ${MARK_MAX}`],
    ]);
    expect(logged.filter((l) => /could not follow/.test(l.msg))).to.deep.equal([]);
    // Once it is changed into something the index can hold, it is found.
    await db('trademarks').where({ application_number: '8000002' }).update({ word_mark: 'STARDUST' });
    await index.sync();
    expect(apps(engine, 'stardust')).to.deep.equal([8000002]);
  });

  it('builds afresh (as a process starting) with it left out', async function () {
    this.timeout(30_000);
    await insertMarks(db, [{ app: '8000004', mark: `${HUGE} SUNRISE` }]);
    const messages: string[] = [];
    const built = await buildIndex(url, null, (m) => messages.push(m));
    expect(built.skipped.map((s) => s.appNo)).to.deep.equal([8000004]);
    expect(messages).to.include(`search index: mark 8000004 left out: its word mark runs to 200008 characters, more than ${MARK_MAX}`);
    expect(apps(built.engine, 'sunrise')).to.deep.equal([8000001]);
    expect(apps(built.engine, 'moonlight')).to.deep.equal([8000003]);
  });
});
