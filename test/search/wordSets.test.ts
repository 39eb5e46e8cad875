import { expect } from 'chai';
import { Bitset, bitmapWords } from '../../src/search/bitset.ts';
import type { MarkData } from '../../src/search/types.ts';
import { KEPT_BYTES, WordSets } from '../../src/search/wordSets.ts';

// The sets kept from query to query are a bitmap of the whole register each, in every API process: how many are
// kept is bounded by their bytes as well as their number, so that a large register does not grow every process
// by a hundred megabytes (docs/architecture.md, "One index per machine").

describe('sets of marks kept between queries', () => {
  const pool = { bitmap: () => new Bitset(8) };
  const costly = (key: string, mark: number) => ({ key, cost: 1 << 20, fill: (b: Bitset) => b.add(mark) });

  function keptAfter(marks: number, sets: number): number {
    // A register of `marks` marks and no words: only the kept sets are at stake.
    const d = { appNo: new Uint32Array(marks), postOffsets: new Uint32Array(1), postMarks: new Uint32Array(0) } as unknown as MarkData;
    const ws = new WordSets(d, 1 << 30);
    for (let i = 0; i < sets; i++) expect(ws.kept(costly(`set ${i}`, i), pool, 0).has(i)).to.equal(true);
    let kept = 0;
    for (let i = 0; i < sets; i++) if (ws.keptAlready(`set ${i}`)) kept++;
    // The most recently used are the ones kept.
    expect(ws.keptAlready(`set ${sets - 1}`)?.has(sets - 1)).to.equal(true);
    if (kept < sets) expect(ws.keptAlready('set 0')).to.equal(undefined);
    return kept;
  }

  it('keeps at most 128 on a small register, and no more bitmaps than the byte budget on a large one', () => {
    expect(keptAfter(100_000, 200)).to.equal(128);
    // 16M marks: 2 MB a bitmap, so 40 fit in 80 MiB.
    const big = 16_000_000;
    const kept = keptAfter(big, 200);
    expect(kept).to.equal(Math.floor(KEPT_BYTES / (bitmapWords(big) * 4)));
    expect(kept * bitmapWords(big) * 4).to.be.at.most(KEPT_BYTES);
  });

  it('pours a set too cheap to keep into the search bitmap it is given, keeping nothing', () => {
    const d = { appNo: new Uint32Array(64), postOffsets: new Uint32Array(1), postMarks: new Uint32Array(0) } as unknown as MarkData;
    const ws = new WordSets(d, 1 << 30);
    const into = new Bitset(64);
    const b = ws.kept({ key: 'cheap', cost: 10, fill: (x) => x.add(5) }, { bitmap: () => into }, 0);
    expect(b).to.equal(into);
    expect(into.has(5)).to.equal(true);
    expect(ws.keptAlready('cheap')).to.equal(undefined);
  });
});
