import { runAt } from './gather.ts';
import type { MarkIndex } from './markIndex.ts';
import { PAIR_ENDS, PAIR_STARTS, pairsInto } from './pairs.ts';
import type { PreparedQuery } from './query.ts';
import type { SearchScratch } from './scratch.ts';
import { S_EXACT } from './strategies.ts';

/** EXACT: the marks that are the query, case and runs of whitespace aside (their EXACT key is the query's). */
export function exact(ix: MarkIndex, s: SearchScratch, q: PreparedQuery): void {
  const ids = q.words.map((w) => ix.vocab.id(w));
  const plain = q.exact === q.normalised;
  spelled(ix, s, ids, (m) => {
    const override = ix.exactKey(m);
    if (override === undefined ? plain : override === q.exact) s.takeOne(m, 0);
  });
  s.close(S_EXACT);
}

/** Calls `accept` for each mark whose words are exactly `ids` (word ids, -1 for a word no mark holds), in order. */
export function spelled(ix: MarkIndex, s: SearchScratch, ids: number[], accept: (m: number) => void): void {
  if (!ids.length || ids.includes(-1)) return;
  const d = ix.d;
  const { firstOffsets, firstMarks, onlyOffsets, onlyMarks } = d;
  if (ids.length === 1) {
    for (let p = onlyOffsets[ids[0]]; p < onlyOffsets[ids[0] + 1]; p++) accept(onlyMarks[p]);
  } else if (ids.length === 2) {
    // The mark is the pair: it begins and ends it.
    const [from, to] = pairsInto(d, ids[0], ids[1], ids[1] + 1);
    const pm = d.pairMarks;
    for (let p = from; p < to; p++) {
      const x = pm[p];
      if ((x & (PAIR_STARTS | PAIR_ENDS)) === (PAIR_STARTS | PAIR_ENDS) && s.passes(x >>> 2, d.info[x >>> 2])) accept(x >>> 2);
    }
  } else {
    // Marks the first word begins that hold the rarest of the others (a bitmap), then their words.
    const from = firstOffsets[ids[0]];
    const to = firstOffsets[ids[0] + 1];
    const rarest = ids.slice(1).reduce((a, b) => (ix.postings(a) <= ix.postings(b) ? a : b));
    const holding = to - from > 256 ? s.bitmap(0) : null;
    if (holding) ix.sets.addWord(holding, rarest);
    const cands = s.candidates;
    cands.reset(to - from);
    for (let p = from; p < to; p++) {
      const m = firstMarks[p];
      if ((!holding || holding.has(m)) && s.passes(m, d.firstInfo[p])) cands.push(m, 0, 0);
    }
    cands.gather(d);
    const { n, marks, bounds, words } = cands;
    for (let c = 0; c < n; c++) {
      if (bounds[2 * c + 1] - bounds[2 * c] === ids.length && runAt(words, bounds[2 * c], ids)) accept(marks[c]);
    }
  }
}
