import { radixSortPairs } from './hash.ts';

// Pairs of neighbouring words: for every word, each place it is followed by another word in a mark,
// as (next word, mark), sorted by next word and then mark, with two flags: the pair begins the mark,
// the pair ends it. Two-word questions about word order then read only their answers: "SUNRISE
// followed by a word beginning with FO" is one binary search in SUNRISE's pairs and a run of
// entries, where reading every candidate mark's words costs a cache miss or two per mark. A
// prefix typed after a first word, a suffix ending the mark's last-but-one word, a span across a
// word boundary and a compound split in two all ask such questions.

export const PAIR_STARTS = 1;
export const PAIR_ENDS = 2;

export interface PairData {
  /** Word → its pairs (CSR over pairNext / pairMarks). */
  pairOffsets: Uint32Array;
  /** The word that follows. */
  pairNext: Uint32Array;
  /** The mark, shifted left by two, with PAIR_STARTS and PAIR_ENDS. */
  pairMarks: Uint32Array;
}

export function buildPairs(words: number, wordOffsets: Uint32Array, markWords: Uint32Array): PairData {
  const n = wordOffsets.length - 1;
  if (n >= 2 ** 30) throw new Error(`${n} marks: pair entries keep a mark id in 30 bits`);
  const total = markWords.length - n;
  const first = new Uint32Array(total);
  const next = new Uint32Array(total);
  const marks = new Uint32Array(total);
  let at = 0;
  for (let m = 0; m < n; m++) {
    const s = wordOffsets[m];
    const e = wordOffsets[m + 1];
    for (let p = s; p + 1 < e; p++) {
      first[at] = markWords[p];
      next[at] = markWords[p + 1];
      marks[at++] = (m << 2) | (p === s ? PAIR_STARTS : 0) | (p + 2 === e ? PAIR_ENDS : 0);
    }
  }
  // By next word, then (a stable counting sort) by first word: entries come out ordered by first
  // word, next word and mark, as they were made in mark order.
  const order = new Uint32Array(at);
  for (let i = 0; i < at; i++) order[i] = i;
  const byNext = radixSortPairs(next.slice(0, at), order).values;
  const pairOffsets = new Uint32Array(words + 1);
  for (let i = 0; i < at; i++) pairOffsets[first[i] + 1]++;
  for (let w = 0; w < words; w++) pairOffsets[w + 1] += pairOffsets[w];
  const fill = pairOffsets.slice(0, words);
  const pairNext = new Uint32Array(at);
  const pairMarks = new Uint32Array(at);
  for (let k = 0; k < at; k++) {
    const i = byNext[k];
    const to = fill[first[i]]++;
    pairNext[to] = next[i];
    pairMarks[to] = marks[i];
  }
  return { pairOffsets, pairNext, pairMarks };
}

/** The entries [from, to) of `word`'s pairs whose next word is in [lo, hi). */
export function pairsInto(d: PairData, word: number, lo: number, hi: number): [number, number] {
  const next = d.pairNext;
  let a = d.pairOffsets[word];
  let b = d.pairOffsets[word + 1];
  let x = a;
  let y = b;
  while (x < y) {
    const mid = (x + y) >>> 1;
    if (next[mid] < lo) x = mid + 1;
    else y = mid;
  }
  a = x;
  y = b;
  while (x < y) {
    const mid = (x + y) >>> 1;
    if (next[mid] < hi) x = mid + 1;
    else y = mid;
  }
  b = x;
  return [a, b];
}
