import { expect } from 'chai';
import { Bitset } from '../../src/search/bitset.ts';

describe('Bitset', () => {
  it('counts the marks in one set and not in another, over every bit position, up to a limit when given', () => {
    const size = 10_000;
    const a = new Bitset(size);
    const b = new Bitset(size);
    let seed = 7;
    const rnd = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    let expected = 0;
    for (let m = 0; m < size; m++) {
      // Dense runs (whole words set, sign bit included) and sparse stretches.
      const inA = m % 1000 < 200 || rnd() < 0.3;
      const inB = rnd() < 0.5;
      if (inA) a.add(m);
      if (inB) b.add(m);
      if (inA && !inB) expected++;
    }
    expect(a.countWithout(b)).to.equal(expected);
    expect(a.countWithout(new Bitset(size))).to.equal([...Array(size).keys()].filter((m) => a.has(m)).length);
    expect(a.countWithout(a)).to.equal(0);
    // With a limit it stops at the word that reaches it: at least the limit, never a word's worth more.
    expect(a.countWithout(b, 100)).to.be.within(100, 131);
    expect(a.countWithout(b, expected + 1)).to.equal(expected);
  });

  it('copies another set over whatever it held', () => {
    const a = new Bitset(100);
    const b = new Bitset(100);
    a.add(3);
    a.add(99);
    b.add(31);
    b.add(64);
    a.copy(b);
    expect([...Array(100).keys()].filter((m) => a.has(m))).to.deep.equal([31, 64]);
  });
});
