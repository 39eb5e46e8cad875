import { expect } from 'chai';
import { Rng } from '../../src/ingest/generator/rng.ts';
import type { SearchEngine } from '../../src/search/engine.ts';
import { buildIndex } from '../../src/search/manager.ts';
import { prepareQuery } from '../../src/search/query.ts';
import { classMask } from '../../src/search/service.ts';
import { type Relation, SqlSearch } from '../../src/search/sqlReference.ts';
import { STRATEGIES, type Strategy } from '../../src/search/strategies.ts';
import { FACETS } from '../../src/search/types.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { importGenerated } from '../helpers/seed.ts';

// The index and the SQL reference path must agree exactly on the four textual relations of SMART,
// on a generated registry: for each, the marks SQL finds are the marks the index finds whose text
// stands in that relation to the query, the index finds every one of them, and the index's own
// strategies for that relation hold only such marks.
const PREDICATES: Record<Relation, (text: string, q: string) => boolean> = {
  exact: (t, q) => t === q,
  prefix: (t, q) => t.startsWith(q),
  word: (t, q) => ` ${t} `.includes(` ${q} `),
  substring: (t, q) => t.includes(q),
};

function core(relation: Relation, words: number): Strategy[] {
  switch (relation) {
    case 'exact':
      return ['exact'];
    case 'prefix':
      return ['exact', 'prefix', 'longer_word'];
    case 'word':
      return ['exact', 'word'];
    default:
      return ['exact', 'prefix', 'word', 'longer_word', 'suffix', words > 1 ? 'substring_cross' : 'substring'];
  }
}

describe('search index against the SQL reference path (generated registry)', function () {
  this.timeout(180_000);
  let t: TestApp;
  let engine: SearchEngine;
  let sql: SqlSearch;
  const queries: string[] = [];

  before(async () => {
    t = await createTestApp();
    await importGenerated(t.deps, 4000, 11);
    engine = (await buildIndex(t.deps.config.DATABASE_URL, null)).engine;
    sql = new SqlSearch(t.deps.db);
    // Queries drawn from the register itself: whole marks, words, prefixes and inner pieces of words,
    // runs of two words, a whole word plus the start of the next; and a few by hand.
    const marks: string[] = (
      await t.deps.db.raw(`select nishaan_norm(word_mark) as n from trademarks where word_mark <> '' order by application_number`)
    ).rows.map((r: { n: string }) => r.n);
    const rng = new Rng().reseed(5, 1, 1);
    const pick = <T>(xs: T[]) => xs[Math.floor(rng.float() * xs.length)];
    for (let i = 0; i < 40; i++) {
      const words = pick(marks).split(' ');
      const w = pick(words);
      queries.push(words.join(' '), w, w.slice(0, 1 + Math.floor(rng.float() * Math.min(5, w.length))));
      if (w.length >= 5) queries.push(w.slice(1, 4), w.slice(-3));
      if (words.length >= 2) {
        const at = Math.floor(rng.float() * (words.length - 1));
        queries.push(
          `${words[at]} ${words[at + 1]}`,
          `${words[at]} ${words[at + 1].slice(0, 2)}`,
          `${words[at].slice(-3)} ${words[at + 1].slice(0, 2)}`,
        );
      }
    }
    queries.push('SHREE', 'SAI', 'GOLD STAR', 'S', 'OM', 'XQZW', 'FOODS');
  });
  after(async () => t.close());

  it('agrees on exact, prefix, whole-word and substring matches for every query', async () => {
    expect(engine.indexes[0].n).to.be.greaterThan(3000);
    let compared = 0;
    for (const raw of [...new Set(queries)]) {
      const q = prepareQuery(raw, 'SMART');
      if (!q.words.length) continue;
      const hits = engine.search(q, { classes: null, status: null }, 1_000_000, null).hits;
      const found = new Map(hits.map((h) => [String(h.appNo), { strategy: STRATEGIES[h.strategy], text: engine.text(h.appNo)! }]));
      const relations: Relation[] = q.normalised.length > 2 ? ['exact', 'prefix', 'word', 'substring'] : ['exact', 'prefix', 'word'];
      for (const relation of relations) {
        const expected = new Set(await sql.relation(relation, q.normalised));
        const where = `${relation} of "${q.normalised}"`;
        for (const app of expected) expect(found.has(app), `${where}: SQL finds ${app}, the index does not`).to.equal(true);
        const satisfying = [...found]
          .filter(([, h]) => PREDICATES[relation](h.text, q.normalised))
          .map(([app]) => app)
          .sort();
        expect(satisfying, where).to.deep.equal([...expected].sort());
        const strategies = core(relation, q.words.length);
        for (const [app, h] of found) {
          if (strategies.includes(h.strategy)) expect(expected.has(app), `${where}: ${app} (${h.text}) by ${h.strategy}`).to.equal(true);
        }
        if (relation === 'exact' || relation === 'prefix') {
          // A mark whose longer first word the query starts, holding the query whole later, is a `word` match.
          const strongest = relation === 'prefix' ? [...strategies, 'word'] : strategies;
          const own = [...found]
            .filter(([, h]) => strongest.includes(h.strategy) && (h.strategy !== 'word' || PREDICATES.prefix(h.text, q.normalised)))
            .map(([app]) => app)
            .sort();
          expect(own, where).to.deep.equal([...expected].sort());
        }
        compared++;
      }
    }
    expect(compared).to.be.greaterThan(400);
  });

  it('agrees on which prefix matches of a one-word query are the query spelled on and which start a longer word', async () => {
    let compared = 0;
    // The SQL path scores every strategy of every candidate: twenty queries of three to eight letters.
    const oneWord = [...new Set([...queries, 'SAIS', 'GOLDEN'])]
      .map((raw) => prepareQuery(raw, 'SMART'))
      .filter((q) => q.words.length === 1 && q.normalised.length > 2 && q.normalised.length <= 8)
      .slice(0, 20);
    for (const q of oneWord) {
      const hits = engine.search(q, { classes: null, status: null }, 1_000_000, null).hits;
      const theirs = await sql.search(q, null, null, 1_000_000, 0);
      // Marks that begin with the query, by their strategy on each side (typed-without-space matches are the index's own).
      const split = (pairs: [string, string][]) =>
        ['prefix', 'longer_word'].map((st) =>
          pairs
            .filter(([app, strategy]) => strategy === st && PREDICATES.prefix(engine.text(Number(app)) ?? '', q.normalised))
            .map(([app]) => app)
            .sort(),
        );
      const mine = split(hits.map((h) => [String(h.appNo), STRATEGIES[h.strategy]]));
      const sqls = split(theirs.page.map((p) => [p.appNo, STRATEGIES[p.strategy]]));
      expect(mine, q.normalised).to.deep.equal(sqls);
      if (mine[1].length) compared++;
    }
    expect(compared).to.be.greaterThan(3);
  });

  it('agrees on EXACT: the count, every group and the page, with and without a class filter', async () => {
    const marks: { word_mark: string; class_number: number }[] = (
      await t.deps.db.raw(`select word_mark, class_number from trademarks where word_mark <> '' order by application_number limit 60`)
    ).rows;
    // Case, runs of whitespace and accents do not matter; anything else does.
    const variants = marks.flatMap((m) => [
      m.word_mark,
      ` ${m.word_mark.toLowerCase().replace(/ /g, '   ')} `,
      `${m.word_mark}.`,
      m.word_mark.replace(/E/, 'É').replace(/O/, 'Ø'),
    ]);
    let found = 0;
    for (const raw of variants) {
      const q = prepareQuery(raw, 'EXACT');
      for (const classes of [null, [marks[0].class_number]]) {
        const mine = engine.search(q, { classes: classes ? classMask(classes) : null, status: null }, 1000, null);
        const theirs = await sql.search(q, classes, null, 1000, 0);
        expect(mine.count, raw).to.equal(theirs.count);
        expect(mine.hits.map((h) => String(h.appNo)).sort(), raw).to.deep.equal(theirs.page.map((p) => p.appNo).sort());
        for (const f of FACETS)
          expect(Object.fromEntries(mine.groups[f]), `${raw} ${f}`).to.deep.equal(Object.fromEntries(theirs.groups[f]));
        found += mine.count;
      }
    }
    expect(found).to.be.greaterThan(120);
  });
});
