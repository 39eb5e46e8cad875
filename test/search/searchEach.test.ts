import { expect } from 'chai';
import { IndexBuilder, type MarkRow } from '../../src/search/build.ts';
import { SearchEngine } from '../../src/search/engine.ts';
import { prepareQuery } from '../../src/search/query.ts';
import { classMask } from '../../src/search/service.ts';
import { FACETS, type Filter, type IndexHit, type IndexResult } from '../../src/search/types.ts';

// One query searched under several class filters at once (SearchEngine.searchEach, src/search/filterSplit.ts)
// must answer for each filter exactly what a search under that filter alone answers: the same hits in the
// same order with the same keys, the same count and groups. The register is made so that partial matching's
// bound bites: thousands of marks hold SHREE SAI, more than partial matching classifies (CLASSIFY_MAX,
// src/search/partial.ts) over the three filters' classes together, fewer in each filter's own.

const CLASSES = [30, 29, 9, 42, 25, 35, 5, 3];
const GROUPS = [
  [30, 29],
  [9, 42],
  [25, 35, 5],
];
const WORDS = ['GOLD', 'STAR', 'ROYAL', 'KRISHNA', 'SUN', 'SUNRISE', 'GANGA', 'FOODS', 'TECH', 'INDIA', 'RAJ', 'MAHAL', 'LAXMI'];
const SYLLABLES = ['KA', 'RA', 'MI', 'TO', 'SHA', 'NA', 'VI', 'LO', 'PRA', 'DHA', 'GU', 'BE', 'ZE'];

/** Seeded numbers (xorshift32), so that the register and the queries are the same at every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

const rnd = random(7);
const words = [...WORDS];
for (let i = 0; i < 200; i++) words.push(Array.from({ length: 3 }, () => SYLLABLES[Math.floor(rnd() * SYLLABLES.length)]).join(''));
/** Common words far more often than rare ones. */
const word = () => words[Math.floor(words.length * rnd() ** 3)];

function row(appNo: number, wordMark: string, cls: number, status = 'Registered'): MarkRow {
  return { appNo, wordMark, cls, status, tmType: 'WORD', filingMode: 'E-FILING', state: rnd() < 0.5 ? 'KERALA' : 'MAHARASHTRA' };
}

function register(): { engine: SearchEngine; texts: string[] } {
  const b = new IndexBuilder();
  const texts: string[] = [];
  for (let i = 0; i < 14_000; i++) {
    const text =
      i % 3 === 0
        ? Array.from({ length: 1 + Math.floor(rnd() * 4) }, word).join(' ')
        : `SHREE SAI ${word()}${rnd() < 0.3 ? ` ${word()}` : ''}`;
    texts.push(text);
    b.add(row(1000 + i, text, CLASSES[Math.floor(rnd() * CLASSES.length)], rnd() < 0.2 ? 'Abandoned' : 'Registered'));
  }
  return { engine: new SearchEngine(b.finish(), 0), texts };
}

const key = (h: IndexHit) => `${h.appNo} ${h.strategy} ${h.dist} ${h.len} ${h.delta ?? false}`;
const groupsOf = (r: IndexResult) => FACETS.map((f) => [...r.groups[f]].sort());

describe('search: one query under several class filters at once', function () {
  this.timeout(120_000);
  const { engine, texts } = register();
  const filters = (status: string[] | null): Filter[] => GROUPS.map((g) => ({ classes: classMask(g), status }));
  const queries: string[] = [
    'SHREE SAI FOODS',
    'SHREE SAI GOLD STAR',
    'SAI SHREE',
    'SHREESAI',
    'SHREE',
    'GOLD',
    'SUNRIZE GOLD',
    'SHRE SAI',
  ];
  for (let i = 0; i < 40; i++) queries.push(i % 2 ? `SHREE SAI ${word()} ${word()}` : texts[Math.floor(rnd() * texts.length)]);
  // One word, common or rare: a search for pages only stops once its strategies fill every filter's page.
  queries.push(...WORDS, ...words.slice(WORDS.length, WORDS.length + 12), 'GOLDE', 'SUNRIS', 'KRISNA');

  /**
   * Checks every query in both modes, two page sizes and two status filters; returns how many answers a split
   * of one search over all the classes would have got wrong.
   */
  /** Lean searches that stopped early: split, by the query's number of words (one, several); and under one filter. */
  const stoppedEarly = { one: 0, several: 0, oneFilter: 0 };
  function check(): number {
    let naiveWrong = 0;
    for (const text of queries) {
      for (const mode of ['SMART', 'EXACT'] as const) {
        const q = prepareQuery(text, mode);
        for (const status of [null, ['Registered']]) {
          const fs = filters(status);
          for (const want of [20, 400]) {
            const each = engine.searchEach(q, fs, want);
            const lean = engine.searchEach(q, fs, want, false);
            const whole = engine.search(q, { classes: classMask(GROUPS.flat()), status }, 1_000_000, null).hits;
            // One filter (every class, or one group) and no counts: the page alone, which may stop early too.
            for (const f of [{ classes: null, status }, fs[0]]) {
              const one = engine.searchEach(q, [f], want, false)[0];
              const alone = engine.search(q, f, want, null);
              const where = `one filter ${mode} ${text} ${status} ${want} ${f.classes ? GROUPS[0] : 'all'}`;
              expect(one.hits.map(key), where).to.deep.equal(alone.hits.map(key));
              expect(one.count, where).to.be.within(Math.min(alone.count, want), alone.count);
              if (one.count < alone.count) stoppedEarly.oneFilter++;
            }
            fs.forEach((f, k) => {
              const alone = engine.search(q, f, want, null);
              const where = `${mode} ${text} ${status} ${want} ${GROUPS[k]}`;
              expect(each[k].hits.map(key), where).to.deep.equal(alone.hits.map(key));
              expect(each[k].count, where).to.equal(alone.count);
              expect(groupsOf(each[k]), where).to.deep.equal(groupsOf(alone));
              expect(lean[k].hits.map(key), where).to.deep.equal(alone.hits.map(key));
              // Without counts the search may stop once the pages are full: its count is then what it read.
              expect(lean[k].count, where).to.be.within(Math.min(alone.count, want), alone.count);
              if (lean[k].count < alone.count) stoppedEarly[q.words.length > 1 ? 'several' : 'one']++;
              const naive = whole.filter((h) => GROUPS[k].includes(engine.views[h.delta ? 1 : 0].d.info[h.id] & 63)).slice(0, want);
              if (naive.map(key).join() !== alone.hits.map(key).join()) naiveWrong++;
            });
          }
        }
      }
    }
    return naiveWrong;
  }

  it('answers each filter as a search under it alone, where partial matching fills its bound', () => {
    // A search over all three filters' classes, split, would answer some of them otherwise: the bound bites.
    expect(check()).to.be.greaterThan(0);
    // And searches for pages only did stop early, with the same pages, one-word and several-word searches alike.
    expect(stoppedEarly.one).to.be.greaterThan(0);
    expect(stoppedEarly.several).to.be.greaterThan(0);
    expect(stoppedEarly.oneFilter).to.be.greaterThan(0);
  });

  it('does so with recent changes beside the register', () => {
    const changes = [
      { seq: 1, appNo: 1000, row: row(1000, 'SHREE SAI FOODS', 30) },
      { seq: 2, appNo: 1001, row: null },
      { seq: 3, appNo: 99_000, row: row(99_000, 'SHREE SAI GOLD', 9) },
      { seq: 4, appNo: 99_001, row: row(99_001, 'SUNRISE GOLD', 25) },
    ];
    engine.apply(changes, 4);
    check();
    const q = prepareQuery('SHREE SAI GOLD', 'SMART');
    const found = engine.searchEach(q, filters(null), 400).flatMap((r) => r.hits.map((h) => h.appNo));
    expect(found).to.include(99_000).and.not.include(1001);
  });

  it('searches alone filters that share a class or differ otherwise', () => {
    const q = prepareQuery('SHREE SAI FOODS', 'SMART');
    const mixed: Filter[] = [
      { classes: classMask([30, 29]), status: null },
      { classes: classMask([29, 9]), status: null },
      { classes: classMask([25]), status: ['Registered'] },
      { classes: null, status: null },
    ];
    const each = engine.searchEach(q, mixed, 50);
    mixed.forEach((f, k) => expect(each[k].hits.map(key)).to.deep.equal(engine.search(q, f, 50, null).hits.map(key)));
  });
});
