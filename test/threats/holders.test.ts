import { expect } from 'chai';
import { IndexBuilder, type MarkRow } from '../../src/search/build.ts';
import { SearchEngine } from '../../src/search/engine.ts';
import { classMask } from '../../src/search/service.ts';
import type { RegisterView } from '../../src/search/view.ts';
import { farWords, type HolderWeights, holdersBy, relatedWords } from '../../src/threats/holders.ts';

// What threats read of the search index besides searches (src/threats/holders.ts), on hand-written registers.

function row(appNo: number, wordMark: string, cls = 30, status = 'Registered'): MarkRow {
  return { appNo, wordMark, cls, status, tmType: 'WORD', filingMode: 'E-FILING', state: 'MAHARASHTRA' };
}

/** A register of [application number, word mark, class, status] (class 30 and Registered when not given). */
function registerOf(marks: [number, string, number?, string?][]): SearchEngine {
  const b = new IndexBuilder();
  for (const m of marks) b.add(row(...m));
  return new SearchEngine(b.finish(), 0);
}

describe('threats: reading the register', () => {
  it('ranks the holders of a word by the weight of the words they share with a mark, times their standing', () => {
    const x = registerOf([
      [2001, 'VANA'],
      [2002, 'VANA QUIX'],
      [2003, 'VANA BISCUITS'],
      [2004, 'BISCUITS VANA', 30, 'Abandoned'],
      [2005, 'VANA BRAND'],
      [2006, 'VANA BISCUITS', 9],
      [2007, 'ROYAL VANA BISCUITS'],
    ]);
    const weight = weights((w: string) => (w === 'BISCUITS' || w === 'BRAND' ? 0.1 : w === 'ROYAL' ? 0.5 : 1));
    const by = {
      words: new Map([
        ['VANA', 1],
        ['BRAND', 0.1],
      ]),
      total: 1.1,
      weight,
      day: 100,
      standing: (_cls: number, status: string) => (status === 'Abandoned' ? 0.5 : 1),
    };
    const ranked = (skip: number[] = [], max = 10, limit = 100) =>
      holdersBy(x, 'VANA', classMask([30]), max, limit, by, new Set(skip)).map((h) => h.appNo);
    // VANA BRAND is the mark's own words (2.2/2.2), VANA alone shares all it holds (2/2.1); a descriptive
    // word costs little (2/2.2), a coined one much (2/3.1); dead halves; class 9 is not among the classes.
    expect(ranked()).to.deep.equal([2005, 2001, 2003, 2007, 2002, 2004]);
    expect(ranked([2001, 2005], 2)).to.deep.equal([2003, 2007]);
    expect(ranked([], 10, 5), 'more holders than the limit: none read').to.deep.equal([]);
    // Changes since the build: a changed holder is ranked as it is now, a removed one is gone.
    x.apply(
      [
        { seq: 1, appNo: 2002, row: row(2002, 'VANA BRAND BISCUITS', 30) },
        { seq: 2, appNo: 2001, row: null },
        { seq: 3, appNo: 2008, row: row(2008, 'VANA', 30) },
      ],
      3,
    );
    const after = holdersBy(x, 'VANA', classMask([30]), 3, 100, by, new Set());
    expect(after.map((h) => h.appNo)).to.deep.equal([2005, 2002, 2008]);
    expect(x.summaries(after).map((r) => r.word_mark)).to.deep.equal(['VANA BRAND', 'VANA BRAND BISCUITS', 'VANA']);
  });

  it('ranks the same holders afresh for another mark, none of them later than a mark not yet filed', () => {
    const x = registerOf([
      [2001, 'VANA BISCUITS'],
      [2002, 'VANA BRAND'],
      [2003, 'VANA'],
    ]);
    const later: boolean[] = [];
    const rank = (words: [string, number][]) =>
      holdersBy(
        x,
        'VANA',
        classMask([30]),
        10,
        100,
        {
          words: new Map(words),
          total: words.reduce((sum, [, w]) => sum + w, 0),
          weight: weights(() => 1),
          day: Number.POSITIVE_INFINITY,
          standing: (_cls: number, _status: string, isLater: boolean) => {
            later.push(isLater);
            return 1;
          },
        },
        new Set(),
      ).map((h) => h.appNo);
    // Shares over the two marks' weights: 4/4 for the mark's own words, 2/3 for VANA alone, 2/4 for another word.
    expect(
      rank([
        ['VANA', 1],
        ['BISCUITS', 1],
      ]),
    ).to.deep.equal([2001, 2003, 2002]);
    // The words' entries of the first ranking (BISCUITS shared) are not the second's.
    expect(
      rank([
        ['VANA', 1],
        ['BRAND', 1],
      ]),
    ).to.deep.equal([2002, 2003, 2001]);
    expect(later).to.not.include(true);
  });

  it("weighs a holder's word by each ranking's trade, and again once the register has changed", () => {
    const x = registerOf([
      [2001, 'VANA BISCUITS'],
      [2002, 'VANA ROYAL'],
      [2003, 'ROYAL TEA'],
    ]);
    const rank = (weight: HolderWeights) =>
      holdersBy(
        x,
        'VANA',
        classMask([30]),
        10,
        100,
        { words: new Map([['VANA', 1]]), total: 1, weight, day: Number.POSITIVE_INFINITY, standing: () => 1 },
        new Set(),
      ).map((h) => h.appNo);
    // A word's plain weight is one over its holders: BISCUITS 1, ROYAL 1/2; a holder's share is 2 / (2 + its other word's).
    const key = {};
    const plain = (_w: string, holders: number) => 1 / holders;
    const foods: HolderWeights = { key, plain, capped: (w) => w === 'BISCUITS', cap: (w, v) => (w === 'BISCUITS' ? Math.min(v, 0.1) : v) };
    const other: HolderWeights = { key, plain, capped: foods.capped, cap: (_w, v) => v };
    expect(rank(foods)).to.deep.equal([2001, 2002]);
    // The same plain weights, kept, but BISCUITS is not capped in this trade.
    expect(rank(other)).to.deep.equal([2002, 2001]);
    // Three more marks hold BISCUITS: its plain weight is a quarter now, under ROYAL's half.
    x.apply(
      [1, 2, 3].map((seq) => ({ seq, appNo: 3000 + seq, row: row(3000 + seq, 'BISCUITS') })),
      3,
    );
    expect(rank(other)).to.deep.equal([2001, 2002]);
  });

  it('lists the words exactly two edits from a word, the most held first, for the threats of a rare mark', () => {
    const x = registerOf([
      [3001, 'SWASTIK'],
      [3002, 'SWASTIK GOLD'],
      [3003, 'SWASTIK'],
      [3004, 'SWATSKIES'],
      [3005, 'SWATSKY'],
      [3006, 'SWATSKI'],
      [3007, 'SWISS'],
      [3008, 'BRNA NEW'],
    ]);
    // SWATSKY is one edit away (search's own), SWATSKI the word itself, SWISS further than two.
    expect(farWords(x, 'SWATSKI', 5)).to.deep.equal(['SWASTIK', 'SWATSKIES']);
    expect(farWords(x, 'SWATSKI', 1)).to.deep.equal(['SWASTIK']);
    // A word shorter than six letters is found when one deletion from it meets two from the query.
    expect(farWords(x, 'BRNRO', 5)).to.deep.equal(['BRNA']);
  });

  it('lists the most held respellings of a word, counting the marks changed since the index was made', () => {
    // SHRI 5, SREE 4, SHRE 3, SHREEE 2, SHRY 1 marks in the index.
    const spelt: [string, number][] = [
      ['SHRI', 5],
      ['SREE', 4],
      ['SHRE', 3],
      ['SHREEE', 2],
      ['SHRY', 1],
    ];
    let app = 4000;
    const x = registerOf(spelt.flatMap(([w, n]) => Array.from({ length: n }, (): [number, string] => [app++, `${w} FOODS`])));
    expect(relatedWords(x, 'SHREE', 2)).to.deep.equal(['SHRI', 'SREE']);
    expect(relatedWords(x, 'SHREE', 2)).to.deep.equal(everyRespelling(x, 'SHREE').slice(0, 2));
    // Four new SHRE marks: 7, more than any other, though the index alone put it third.
    x.apply(
      Array.from({ length: 4 }, (_, i) => ({ seq: i + 1, appNo: 5000 + i, row: row(5000 + i, 'SHRE TEA') })),
      4,
    );
    expect(relatedWords(x, 'SHREE', 2)).to.deep.equal(['SHRE', 'SHRI']);
    // Two more SHREEE marks: 2 + 2 ties SREE at 4, and SHREEE comes first in spelling.
    x.apply(
      [5, 6].map((seq) => ({ seq, appNo: 5000 + seq, row: row(5000 + seq, 'SHREEE') })),
      6,
    );
    expect(relatedWords(x, 'SHREE', 4)).to.deep.equal(['SHRE', 'SHRI', 'SHREEE', 'SREE']);
    for (const max of [1, 2, 3, 4, 5, 6]) expect(relatedWords(x, 'SHREE', max)).to.deep.equal(everyRespelling(x, 'SHREE').slice(0, max));
  });
});

/** Every respelling of `word` the indexes list, spelled out and summed, the most held first (what relatedWords ranks). */
function everyRespelling(x: RegisterView, word: string): string[] {
  const held = new Map<string, number>();
  for (const ix of x.views) for (const id of ix.relatives(word)) held.set(ix.word(id), (held.get(ix.word(id)) ?? 0) + ix.postings(id));
  return [...held].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
}

/** A word's weight in every trade alike, as a ranking reads it. */
function weights(plain: (word: string) => number): HolderWeights {
  return { key: {}, plain, capped: () => false, cap: (_w, x) => x };
}
