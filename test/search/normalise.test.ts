import { expect } from 'chai';
import { boundedDistance, distanceFrom } from '../../src/search/editDistance.ts';
import { fnv1a, radixSortPairs } from '../../src/search/hash.ts';
import { exactKey, maxEdits, normaliseMark, numberWords, phoneticCodes, romanise } from '../../src/search/normalise.ts';

describe('search normalisation', () => {
  it('normalises marks: accents off, upper case, punctuation and runs of space to one space', () => {
    expect(normaliseMark('Sri-Sai  Foods (P) Ltd.')).to.equal('SRI SAI FOODS P LTD');
    expect(normaliseMark('  café   Noir ')).to.equal('CAFE NOIR');
    expect(normaliseMark('M&M')).to.equal('M M');
    expect(normaliseMark('7up')).to.equal('7UP');
    expect(normaliseMark('---')).to.equal('');
    expect(normaliseMark('SUNRISE FOODS')).to.equal('SUNRISE FOODS');
  });

  it('keys EXACT on the mark with case, runs of whitespace and accents ignored, punctuation kept', () => {
    expect(exactKey('Sunrise   foods')).to.equal('SUNRISE FOODS');
    expect(exactKey('Café')).to.equal('CAFE');
    expect(exactKey(' M&M ')).to.equal('M&M');
    expect(exactKey('M&M')).to.not.equal(exactKey('M M'));
  });

  it('spells numbers out, single digits as the words they stand for in brand names', () => {
    expect(numberWords('4')).to.equal('FOR');
    expect(numberWords('2')).to.equal('TO');
    expect(numberWords('24')).to.equal('TWENTYFOUR');
    expect(numberWords('786')).to.equal('SEVENHUNDREDEIGHTYSIX');
    expect(numberWords('1000')).to.equal('ONETHOUSAND');
  });

  it('folds Indian romanisation before the phonetic code', () => {
    expect(romanise('SHREE')).to.equal('SRI');
    expect(romanise('PHOOL')).to.equal('FUL');
    expect(romanise('KHANNA')).to.equal('KANNA');
    expect(romanise('4EVER')).to.equal('FOREVER');
  });

  it('gives sound-alikes the same code', () => {
    const same = (a: string, b: string) =>
      expect(
        phoneticCodes(a).some((c) => phoneticCodes(b).includes(c)),
        `${a} ~ ${b}`,
      ).to.equal(true);
    same('SHREE', 'SRI');
    same('SHRI', 'SRI');
    same('PHOOL', 'FUL');
    same('LAKSHMI', 'LAXMI');
    same('4EVER', 'FOREVER');
    same('2GETHER', 'TOGETHER');
    same('GANESH', 'GANESHA');
    expect(phoneticCodes('KING')).to.not.deep.equal(phoneticCodes('QUEEN'));
    expect(phoneticCodes('123')).to.not.deep.equal([]);
  });

  it('allows no edit up to three letters, one up to seven, two from eight', () => {
    expect([3, 4, 7, 8, 12].map(maxEdits)).to.deep.equal([0, 1, 1, 2, 2]);
  });

  it('counts edits with swaps of neighbours as one, and stops past the bound', () => {
    expect(boundedDistance('NIKE', 'NKIE', 2)).to.equal(1);
    expect(boundedDistance('SUNRISE', 'SUNRIZE', 2)).to.equal(1);
    expect(boundedDistance('BALAJI', 'BALAJEE', 2)).to.equal(2);
    expect(boundedDistance('KING', 'QUEEN', 2)).to.equal(3);
    expect(boundedDistance('A', 'ABCDEF', 2)).to.equal(3);
    expect(boundedDistance('JAGDAMBA', 'JAGDMABA', 2)).to.equal(1);
  });

  it('measures from one word to many bit-parallel exactly as the table does', () => {
    // Seeded random words over a small alphabet (so that swaps, repeats and near-misses are common),
    // of every length up to the bit-parallel limit of 32 and past it.
    let s = 12345;
    const rnd = (n: number) => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % n;
    const word = () => Array.from({ length: 1 + rnd(36) }, () => 'ABSHE4'[rnd(6)]).join('');
    let compared = 0;
    for (let i = 0; i < 400; i++) {
      const a = word();
      const from = distanceFrom(a);
      for (let j = 0; j < 25; j++) {
        const b = rnd(3) === 0 ? a.slice(0, rnd(a.length + 1)) + 'ABSHE4'[rnd(6)] + a.slice(rnd(a.length + 1)) : word();
        for (const max of [1, 3, 40]) expect(from(b, max), `${a} ${b} ${max}`).to.equal(boundedDistance(a, b, max));
        compared++;
      }
    }
    expect(compared).to.equal(10_000);
    expect(distanceFrom('NIKE')('NKIE', 2)).to.equal(1);
    expect(distanceFrom('JAGDAMBA')('JAGDMABA', 2)).to.equal(1);
  });

  it('hashes deletions without building strings, and sorts pairs by key', () => {
    expect(fnv1a('SHREE', 1)).to.equal(fnv1a('SREE'));
    expect(fnv1a('SHREE', 1, 4)).to.equal(fnv1a('SRE'));
    const keys = Uint32Array.from([5, 3, 4294967295, 0, 3]);
    const values = Uint32Array.from([0, 1, 2, 3, 4]);
    const r = radixSortPairs(keys, values);
    expect([...r.keys]).to.deep.equal([0, 3, 3, 5, 4294967295]);
    expect([...r.values]).to.deep.equal([3, 1, 4, 0, 2]);
  });
});
