import { expect } from 'chai';
import { IndexBuilder, type MarkRow } from '../../src/search/build.ts';
import { SearchEngine } from '../../src/search/engine.ts';
import { MarkIndex } from '../../src/search/markIndex.ts';
import { type MatchType, prepareQuery } from '../../src/search/query.ts';
import { STRATEGIES, score } from '../../src/search/strategies.ts';
import type { Filter } from '../../src/search/types.ts';

// A hand-written register: each mark is there to be found (or not) by one strategy.
const MARKS: [number, string, number?, string?][] = [
  [1001, 'SUNRISE'],
  [1002, 'Sunrise'],
  [1003, 'SUNRISE FOODS', 30],
  [1004, 'SUNRISEFOODS', 30],
  [1005, 'GOLDEN SUNRISE', 29, 'Objected'],
  [1006, 'SUNRISER'],
  [1007, 'NEW SUNRISES', 30],
  [1008, 'FOODS SUNRISE', 30],
  [1009, 'SUNRIZE', 30],
  [1010, 'SUN RISE', 30],
  [1011, 'MY SUNRISE', 43],
  [1012, 'ASUNRISEB', 30],
  [1013, 'SUNRAISE', 30],
  [1014, 'SHREE GANESH'],
  [1015, 'SRI GANESH'],
  [1016, 'SHRI GANESHA'],
  [1017, 'PHOOL'],
  [1018, 'FUL'],
  [1019, '4EVER'],
  [1020, 'FOREVER'],
  [1021, 'S'],
  [1022, 'SA'],
  [1023, 'SAB'],
  [1024, 'M S FOODS'],
  [1025, 'SUNRISE   FOODS', 31],
  [1026, 'SUNRISE-FOODS', 31],
  [1027, 'KINGFISHER'],
  [1028, 'KINGFISHR'],
];

function engineOf(marks = MARKS): SearchEngine {
  const b = new IndexBuilder();
  for (const [appNo, wordMark, cls, status] of marks) b.add(row(appNo, wordMark, cls, status));
  return new SearchEngine(b.finish(), 0);
}

function row(appNo: number, wordMark: string, cls = 30, status = 'Registered'): MarkRow {
  return { appNo, wordMark, cls, status, tmType: 'WORD', filingMode: 'E-FILING', state: cls === 43 ? 'DELHI' : 'MAHARASHTRA' };
}

const none: Filter = { classes: null, status: null };

/** [application number, strategy] of every hit, in result order. */
function find(e: SearchEngine, text: string, mode: MatchType = 'SMART', filter = none): [number, string][] {
  return e.search(prepareQuery(text, mode), filter, 1000, null).hits.map((h) => [h.appNo, STRATEGIES[h.strategy]]);
}

const strategyOf = (hits: [number, string][], appNo: number) => hits.find((h) => h[0] === appNo)?.[1];

describe('search index', () => {
  const e = engineOf();

  it('finds the mark itself, then prefixes, whole words, near marks, compounds, orders, suffixes, substrings, spellings, sounds', () => {
    const hits = find(e, 'sunrise');
    const expected: Record<number, string> = {
      1001: 'exact',
      1002: 'exact',
      1003: 'prefix',
      1004: 'longer_word',
      1006: 'prefix',
      1025: 'prefix',
      1026: 'prefix',
      1005: 'word',
      1011: 'word',
      1008: 'word',
      1010: 'compound',
      1007: 'substring',
      1012: 'substring',
      1009: 'near',
      1013: 'near',
    };
    for (const [app, s] of Object.entries(expected)) expect(strategyOf(hits, Number(app)), `${app}`).to.equal(s);
    const order = hits.map((h) => STRATEGIES.indexOf(h[1] as never));
    expect(order).to.deep.equal([...order].sort((a, b) => a - b));
  });

  it('ranks within a strategy by closer spelling, then shorter mark, then application number', () => {
    const hits = find(e, 'SUNRISE')
      .filter((h) => h[1] === 'prefix')
      .map((h) => h[0]);
    // SUNRISER (8), SUNRISE FOODS ×3 (13): the three equal ones by application number.
    expect(hits).to.deep.equal([1006, 1003, 1025, 1026]);
    const spelled = find(e, 'KINGFISHERS')
      .filter((h) => h[1] === 'near')
      .map((h) => h[0]);
    expect(spelled).to.deep.equal([1027, 1028]);
  });

  it('ranks marks holding a one-word query whole above marks whose longer first word it only starts', () => {
    const x = engineOf([
      [1, 'AIRTEL'],
      [2, 'LION AIR'],
      [3, 'AIRS'],
      [4, 'AIR INDIA EXPRESS'],
      [5, 'AIRWAYS'],
      [6, 'FLY AIRBUS'],
      [7, 'AIR'],
    ]);
    expect(find(x, 'AIR')).to.deep.equal([
      [7, 'exact'],
      [4, 'prefix'],
      [2, 'word'],
      // Up to three letters a letter more is another word (AIRY, POPE); from four it is the query spelled on (SUNRISER, above).
      [3, 'longer_word'],
      [1, 'longer_word'],
      [5, 'longer_word'],
      [6, 'substring'],
    ]);
    // One or two letters are still typed, not words: every mark starting with them is a prefix match.
    expect(strategyOf(find(x, 'AI'), 1)).to.equal('prefix');
    // Nor does a query of several words change: its last word may be partly typed.
    expect(strategyOf(find(x, 'AIR IND'), 4)).to.equal('prefix');
  });

  it('puts a one-word mark a spelling variant of a one-word query before suffixes and substrings, as near', () => {
    const x = engineOf([
      [1, 'LATEX'],
      [2, 'ALTEX'],
      [3, 'BULLTEX'],
      [4, 'LTEXA'],
      [5, 'LATEX GLOVES'],
      [6, 'LITEXO'],
    ]);
    const hits = find(x, 'LTEX');
    // LTEXA begins with the query (prefix); ALTEX holds it, so it stays a suffix though one letter off.
    expect(hits).to.deep.equal([
      [4, 'prefix'],
      [1, 'near'],
      [2, 'suffix'],
      [3, 'suffix'],
      [5, 'spelling'],
      [6, 'phonetic'],
    ]);
    // Two words are not a one-word mark: a multi-word query has no near matches.
    expect(find(x, 'LATX GLOVES').some((h) => h[1] === 'near')).to.equal(false);
  });

  it('takes a one-word mark sounding like a one-word query, within two edits and a letter of its length, as near', () => {
    const x = engineOf([
      [1, 'PLEX'],
      [2, 'CC PLES'],
      [3, 'PLESK'],
      [4, 'PALEKAS'],
      [5, 'SAHREE'],
      [6, 'SAHRI GOLD'],
    ]);
    // PLEX is two edits from PLEKS, past a spelling variant's one, but sounds the same: before CC PLES,
    // whose PLES is only spelled one letter off. PALEKAS, two letters longer, stays a sound-alike.
    expect(find(x, 'PLEKS')).to.deep.equal([
      [3, 'near'],
      [1, 'near'],
      [2, 'spelling'],
      [4, 'phonetic'],
    ]);
    expect(find(x, 'SAHRI')).to.deep.equal([
      [6, 'prefix'],
      [5, 'near'],
    ]);
  });

  it('puts a spelling variant in the query order half a step before one in another order', () => {
    const x = engineOf([
      [1, 'GRIN EAGLE'],
      [2, 'EAGLE GREEN'],
    ]);
    expect(find(x, 'EAGLE GREN')).to.deep.equal([
      [2, 'spelling'],
      [1, 'spelling'],
    ]);
  });

  it('joins and splits compounds: SUNRISEFOODS ⇄ SUNRISE FOODS', () => {
    expect(strategyOf(find(e, 'SUNRISEFOODS'), 1003)).to.equal('compound');
    expect(strategyOf(find(e, 'SUNRISE FOODS'), 1004)).to.equal('compound');
    expect(strategyOf(find(e, 'SUNRISE FOODS'), 1003)).to.equal('exact');
  });

  it('splits a number from its letters and a particle glued to a common word, however many marks hold the words', () => {
    const common: [number, string][] = Array.from({ length: 4200 }, (_, i) => [20_000 + i, 'COBRA WEAR']);
    const x = engineOf([
      [1, 'HINDUSTAN NO 1'],
      [2, 'OM SUPER COBRA WEAR'],
      [3, 'OMSUPER'],
      [4, 'OM SUPER'],
      [5, 'SUN STAR GOLD COBRA WEAR'],
      [6, 'SUN STAR COBRA WEAR'],
      [7, 'SUN GOLD'],
      ...common,
    ]);
    expect(strategyOf(find(x, 'HINDUSTAN NO1'), 1)).to.equal('compound');
    // COBRA and WEAR are held by more marks than partial matching reads one by one: the marks holding
    // OM and SUPER beside them are found through the holders' bitmaps.
    const hits = find(x, 'OMSUPER COBRA WEAR');
    expect(strategyOf(hits, 2)).to.equal('compound');
    expect(hits[0]).to.deep.equal([2, 'compound']);
    // A word split in three: only the mark holding all three parts beside COBRA WEAR is a compound.
    const three = find(x, 'SUNSTARGOLD COBRA WEAR');
    expect(three[0]).to.deep.equal([5, 'compound']);
    expect(strategyOf(three, 6)).to.equal('partial');
  });

  it('finds other word orders, suffixes and spans across a word boundary for several words', () => {
    expect(strategyOf(find(e, 'FOODS SUNRISE'), 1003)).to.equal('all_words');
    expect(strategyOf(find(e, 'RISE FOODS'), 1003)).to.equal('suffix');
    expect(strategyOf(find(e, 'RISE FO'), 1003)).to.equal('substring_cross');
    expect(strategyOf(find(e, 'SUNRISE FO'), 1003)).to.equal('prefix');
  });

  it('finds sound-alikes after Indian romanisation and digit words', () => {
    expect(strategyOf(find(e, 'PHOOL'), 1018)).to.equal('phonetic');
    expect(strategyOf(find(e, 'FUL'), 1017)).to.equal('phonetic');
    expect(strategyOf(find(e, '4EVER'), 1020)).to.equal('phonetic');
    expect(strategyOf(find(e, 'FOREVER'), 1019)).to.equal('phonetic');
    const ganesh = find(e, 'SHREE GANESH');
    expect(strategyOf(ganesh, 1014)).to.equal('exact');
    expect(strategyOf(ganesh, 1015)).to.equal('phonetic');
    expect(strategyOf(ganesh, 1016)).to.equal('phonetic');
  });

  it('takes no code collision or lone query word for a sound-alike of several words run together', () => {
    const r = engineOf([
      [2001, 'BUY ME A COFFEE'],
      [2002, 'BUME CAFE'],
      [2003, 'SHREE'],
      [2004, 'SRI GHEE'],
      [2005, 'SAI KRIPA'],
      [2006, 'SAIS'],
      [2007, '786'],
      [2008, 'SHRIGHEE'],
    ]);
    // BUYMEACOFFEE cut as BUYME ACOFFEE codes like BUME CAFE, and SRIGHEE (GH silent after I) like
    // SHREE: both more than three edits away after romanisation, so no likeness, only a shared code.
    const coffee = find(r, 'BUY ME A COF FEE');
    expect(coffee[0]).to.deep.equal([2001, 'compound']);
    expect(strategyOf(coffee, 2002)).to.equal(undefined);
    const ghee = find(r, 'SRI GHEE');
    expect(strategyOf(ghee, 2004)).to.equal('exact');
    expect(strategyOf(ghee, 2008)).to.equal('spelling');
    expect(strategyOf(ghee, 2003)).to.equal(undefined);
    // SAI is one edit from SAIS, but SAI KRIPA holds only part of SAI S.
    const sais = find(r, 'SAI S');
    expect(strategyOf(sais, 2006)).to.equal('compound');
    expect(strategyOf(sais, 2005)).to.equal('partial');
    // Numbers are still compared with number words as words.
    expect(strategyOf(find(r, 'SEVEN EIGHT SIX'), 2007)).to.equal('phonetic');
  });

  it("finds a query word's own marks when its sound-alikes are too many to read for partial matching", () => {
    // Partial matching reads at most 4,096 postings here (1 % of a larger register): TARA's 4,200 were
    // over it, and with them TRAE's own mark, which only partial matching finds for THE TRAE.
    const many: [number, string][] = Array.from({ length: 4200 }, (_, i) => [3000 + i, 'TARA']);
    const r = engineOf([...many, [2001, 'TRAE'], [2002, 'THE TREE']]);
    const hits = find(r, 'THE TRAE');
    expect(strategyOf(hits, 2001)).to.equal('all_words');
    expect(hits.findIndex((h) => h[0] === 2001)).to.be.below(2);
  });

  it('classifies the marks of a query word as spelled before its variants and the split parts of others fill the room', () => {
    const many = (from: number, n: number, text: string): [number, string][] => Array.from({ length: n }, (_, i) => [from + i, text]);
    const b = new IndexBuilder();
    for (const [appNo, text] of [
      [1, 'MAAGHEE'],
      ...many(1000, 100, 'GHEE HOUSE'),
      ...many(2000, 150, 'MAA SHOP'),
      ...many(3000, 120, 'MAGHEE'),
    ])
      b.add(row(appNo as number, text as string));
    const built = b.finish();
    // Room for 64 classified candidates: GHEE's 100 holders (read for MAA GHEE) are cheaper than MAAGHEE and
    // its variant MAGHEE (121), and filled it; MAAGHEE was then placed by that word alone, a partial match.
    const x = new SearchEngine(new MarkIndex(built.vocab, built.d, undefined, 64), 0);
    expect(strategyOf(find(x, 'THE MAAGHEE'), 1)).to.equal('all_words');
  });

  it('finds the marks that are the query but its leading article first among all-words matches, past the partial room', () => {
    const many = (from: number, n: number, text: string): [number, string][] => Array.from({ length: n }, (_, i) => [from + i, text]);
    const b = new IndexBuilder();
    for (const [appNo, text] of [...many(1000, 400, 'DAYS 2 GOLD'), ...many(1500, 400, 'GOLD 2 DAYS'), ...many(5000, 3, '2 DAYS')])
      b.add(row(appNo as number, text as string));
    const built = b.finish();
    // Room for 64 classified candidates: the 800 marks holding both words in other runs fill it before the three
    // that are exactly 2 DAYS, which then went unread.
    const x = new SearchEngine(new MarkIndex(built.vocab, built.d, undefined, 64), 0);
    const hits = find(x, 'THE 2 DAYS');
    expect(hits.slice(0, 3)).to.deep.equal([
      [5000, 'all_words'],
      [5001, 'all_words'],
      [5002, 'all_words'],
    ]);
  });

  it('ranks a query word respelled into another word above the same word read as a connecting word', () => {
    // THEE is one letter from THREE and from THE (and sounds like THE); THE KING is the query's words in the
    // other order besides. A connecting word says nothing of what the searcher typed: KING THREE goes first.
    const many = (from: number, n: number, text: string): [number, string][] => Array.from({ length: n }, (_, i) => [from + i, text]);
    const r = engineOf([...many(3000, 12, 'THE KING'), [3100, 'KING THREE']]);
    expect(find(r, 'KING THEE')[0]).to.deep.equal([3100, 'spelling']);
    // The connecting word typed as such still finds its marks first.
    expect(find(r, 'THE KING')[0]).to.deep.equal([3000, 'exact']);
  });

  it('takes a mark holding every query word, one only joined, for a compound though another of its words sounds like it', () => {
    // SER joined with VICES is SERVICES; SHREE also sounds like SER, which used to leave SER matched only as
    // a sound-alike, so the whole mark was a partial match behind shorter ones missing INDIA.
    const r = engineOf([
      [2001, 'ROYAL SHREE INDIA SERVICES'],
      [2002, 'SHREE ROYAL SERVICES'],
      [2003, 'ROYAL SHREE SERVICES'],
    ]);
    const hits = find(r, 'ROYAL SHREE INDIA SER VICES');
    expect(hits[0]).to.deep.equal([2001, 'compound']);
  });

  it('uses only exact, prefix and whole words for queries of one or two characters', () => {
    const s = find(e, 'S');
    expect(strategyOf(s, 1021)).to.equal('exact');
    expect(strategyOf(s, 1022)).to.equal('prefix');
    expect(strategyOf(s, 1024)).to.equal('word');
    expect(s.every((h) => ['exact', 'prefix', 'word'].includes(h[1]))).to.equal(true);
    expect(strategyOf(find(e, 'SA'), 1023)).to.equal('prefix');
    expect(strategyOf(find(e, 'SA'), 1021)).to.equal(undefined);
  });

  it('EXACT: the whole mark, ignoring case and runs of whitespace only', () => {
    expect(find(e, 'sunrise foods', 'EXACT').map((h) => h[0])).to.deep.equal([1003, 1025]);
    expect(find(e, 'SUNRISE-FOODS', 'EXACT').map((h) => h[0])).to.deep.equal([1026]);
    expect(find(e, 'SUNRISE', 'EXACT').map((h) => h[0])).to.deep.equal([1001, 1002]);
    expect(find(e, 'SUNRIS', 'EXACT')).to.deep.equal([]);
  });

  it('filters by classes and status, and counts groups over every match', () => {
    const q = prepareQuery('SUNRISE', 'SMART');
    const all = e.search(q, none, 5, null);
    expect(all.count).to.equal(find(e, 'SUNRISE').length);
    expect(all.hits).to.have.length(5);
    const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    expect(total(all.groups.class_number)).to.equal(all.count);
    expect(total(all.groups.status)).to.equal(all.count);
    const in30 = e.search(q, { classes: mask(30), status: null }, 1000, null);
    expect(in30.count).to.equal(in30.hits.length);
    expect([...in30.groups.class_number.keys()]).to.deep.equal(['30']);
    const objected = e.search(q, { classes: null, status: ['Objected'] }, 1000, null);
    expect(objected.hits.map((h) => h.appNo)).to.deep.equal([1005]);
    expect(e.search(q, { classes: null, status: ['Nonexistent'] }, 10, null).count).to.equal(0);
    expect(all.groups.state.get('DELHI')).to.equal(1);
  });

  it('pages from a position: after a hit, the same order continues', () => {
    const q = prepareQuery('SUNRISE', 'SMART');
    const full = e.search(q, none, 1000, null).hits;
    const first = e.search(q, none, 4, null).hits;
    const last = first[3];
    const rest = e.search(q, none, 1000, { strategy: last.strategy, dist: last.dist, len: last.len, appNo: last.appNo }).hits;
    expect([...first, ...rest].map((h) => h.appNo)).to.deep.equal(full.map((h) => h.appNo));
  });

  it('follows changes: a changed mark moves, a new one appears, a removed one goes, counts stay exact', () => {
    const x = engineOf();
    x.apply(
      [
        { seq: 1, appNo: 1009, row: row(1009, 'SUNRISE', 30) },
        { seq: 2, appNo: 2001, row: row(2001, 'SUNRISE STAR', 30) },
        { seq: 3, appNo: 1013, row: null },
      ],
      3,
    );
    const hits = find(x, 'SUNRISE');
    expect(strategyOf(hits, 1009)).to.equal('exact');
    expect(strategyOf(hits, 2001)).to.equal('prefix');
    expect(strategyOf(hits, 1013)).to.equal(undefined);
    expect(hits.filter((h) => h[0] === 1009)).to.have.length(1);
    const r = x.search(prepareQuery('SUNRISE', 'SMART'), none, 1000, null);
    expect(r.count).to.equal(hits.length);
    expect(x.text(1009)).to.equal('SUNRISE');
    expect(x.text(1013)).to.equal(null);
    expect(x.seq).to.equal(3);
  });

  it("scores within each strategy's band, never rising down the results", () => {
    const q = prepareQuery('SUNRISE', 'SMART');
    const scores = e.search(q, none, 1000, null).hits.map((h) => score(h.strategy, h.dist, h.len, q.normalised.length));
    expect(scores[0]).to.equal(100);
    for (let i = 1; i < scores.length; i++) expect(scores[i]).to.be.at.most(scores[i - 1]);
    expect(Math.min(...scores)).to.be.at.least(0);
  });

  it('builds the same index with the vocabulary made in a worker thread', async () => {
    const b = new IndexBuilder();
    for (const [appNo, wordMark, cls, status] of MARKS) b.add(row(appNo, wordMark, cls, status));
    const threaded = new SearchEngine(await b.finishInThread(), 0);
    for (const text of ['SUNRISE', 'SHREE GANESH', 'FUL', 'SA', '4EVER', 'KINGFISHER']) {
      expect(find(threaded, text), text).to.deep.equal(find(e, text));
    }
  });

  it('builds an empty register, in this thread or another, that finds nothing', async () => {
    const empty = [new IndexBuilder().finish(), await new IndexBuilder().finishInThread()];
    for (const index of empty) {
      const x = new SearchEngine(index, 0);
      expect(index.n).to.equal(0);
      expect(x.search(prepareQuery('SUNRISE', 'SMART'), none, 10, null).count).to.equal(0);
    }
  });
});

function mask(...classes: number[]): Uint8Array {
  const m = new Uint8Array(64);
  for (const c of classes) m[c] = 1;
  return m;
}
