import { Bitset } from './bitset.ts';
import { MAX_LEN, sortKey, type After, type IndexHit, type MarkData } from './markIndex.ts';
import type { Vocabulary } from './vocabulary.ts';
import { S_EXACT, S_PREFIX, S_WORD } from './strategies.ts';
import { radixSortPairs } from './hash.ts';

// Queries of one or two characters use exact, prefix and whole-word matching only, so their whole
// answer depends on the prefix alone: S matches 1.7 million marks, and admitting them one by one costs
// 40 ms. For the prefixes that match many marks, the index keeps the three parts of the answer ready
// (the marks that are the prefix alone, the marks a word with the prefix begins, the marks holding
// the prefix as a later word), each ordered as results are, with their facet counts per class. A mark
// that changes or goes away is taken out of the counts it was in and skipped in the lists.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Prefixes matching at least this many postings keep their answer ready. */
export const SHORT_FROM = 65_536;

export interface Part {
  marks: Uint32Array;
  len: Uint16Array;
  info: Uint32Array;
}

export interface ShortEntry {
  /** Exact, prefix and word, each ordered by (length, mark). */
  parts: [Part, Part, Part];
  /** Live marks per class. */
  byClass: Uint32Array;
  /** Facet counts of live marks: class and status (low 14 bits of the packed facets); type and filing mode, and state, per class. */
  classStatus: Uint32Array;
  typeMode: Uint32Array;
  state: Uint32Array;
}

export class ShortPrefixes {
  // Built on first use (a few hundred milliseconds for S), so that loading the index stays quick.
  private readonly entries = new Map<string, ShortEntry | null>();
  private range: Bitset | null = null;

  /** `dead`: the index's hidden marks (left out of an entry's counts when it is built). */
  constructor(private readonly vocab: Vocabulary, private readonly d: MarkData, private readonly dead: Bitset, from = SHORT_FROM) {
    // A prefix's postings are at most two per mark (a first word, a later word): the small index of
    // recent changes, rebuilt on every change, never has an entry and skips the 1,332 lookups.
    if (2 * d.appNo.length < from) return;
    const prefixes = [...ALPHABET, ...[...ALPHABET].flatMap((a) => [...ALPHABET].map((b) => a + b))];
    for (const p of prefixes) {
      const [lo, hi] = vocab.prefixRange(p);
      const id = vocab.id(p);
      const firstCount = d.firstOffsets[hi] - d.firstOffsets[lo];
      const postCount = id >= 0 ? d.postOffsets[id + 1] - d.postOffsets[id] : 0;
      if (firstCount + postCount >= from) this.entries.set(p, null);
    }
  }

  /** The ready answer of a prefix, or undefined when it matches too few marks to keep one. */
  get(prefix: string): ShortEntry | undefined {
    const e = this.entries.get(prefix);
    if (e !== null) return e;
    const [lo, hi] = this.vocab.prefixRange(prefix);
    this.range ??= new Bitset(this.d.appNo.length);
    const built = this.build(prefix, this.vocab.id(prefix), lo, hi, this.range);
    this.entries.set(prefix, built);
    return built;
  }

  /** Mark m (facets x) went away: out of the counts of every entry holding it. */
  remove(m: number, x: number): void {
    const { wordOffsets, markWords } = this.d;
    const words = this.vocab.words;
    const first = words[markWords[wordOffsets[m]]];
    const counted = new Set<ShortEntry>();
    const drop = (e: ShortEntry | null | undefined) => {
      if (!e || counted.has(e)) return;
      counted.add(e);
      tally(e, x, -1);
    };
    // In the exact or prefix part of the prefixes its first word begins with.
    drop(this.entries.get(first.slice(0, 1)));
    if (first.length >= 2) drop(this.entries.get(first.slice(0, 2)));
    // In the word part of its later short words that its first word does not begin with.
    for (let q = wordOffsets[m]; q < wordOffsets[m + 1]; q++) {
      const w = words[markWords[q]];
      if (w.length <= 2 && !first.startsWith(w)) drop(this.entries.get(w));
    }
  }

  private build(p: string, id: number, lo: number, hi: number, range: Bitset): ShortEntry {
    const d = this.d;
    // The marks a word with the prefix begins: alone (the prefix itself, nothing after it) or not.
    const [ownFrom, ownTo] = id >= 0 ? [d.firstOffsets[id], d.firstOffsets[id + 1]] : [0, 0];
    const from = d.firstOffsets[lo];
    const to = d.firstOffsets[hi];
    const isAlone = (at: number) => at >= ownFrom && at < ownTo && d.firstLen[at] === p.length;
    let alone = 0;
    for (let at = ownFrom; at < ownTo; at++) if (isAlone(at)) alone++;
    const exact = new Postings(alone);
    const prefix = new Postings(to - from - alone);
    for (let at = from; at < to; at++) (isAlone(at) ? exact : prefix).push(d.firstMarks[at], d.firstLen[at]);
    // The marks holding the prefix as a later word only.
    range.clear();
    range.addAll(d.firstMarks, from, to);
    let laterCount = 0;
    const [postFrom, postTo] = id >= 0 ? [d.postOffsets[id], d.postOffsets[id + 1]] : [0, 0];
    for (let at = postFrom; at < postTo; at++) if (!range.has(d.postMarks[at])) laterCount++;
    const later = new Postings(laterCount);
    for (let at = postFrom; at < postTo; at++) if (!range.has(d.postMarks[at])) later.push(d.postMarks[at], d.postLen[at]);
    const entry: ShortEntry = {
      parts: [exact.ordered(d.info), prefix.ordered(d.info), later.ordered(d.info)],
      byClass: new Uint32Array(64),
      classStatus: new Uint32Array(1 << 14),
      typeMode: new Uint32Array(64 * 1024),
      state: new Uint32Array(64 * 256),
    };
    for (const part of entry.parts) {
      for (let i = 0; i < part.marks.length; i++) {
        if (!this.dead.has(part.marks[i])) tally(entry, part.info[i], 1);
      }
    }
    return entry;
  }
}

/** Counts a mark of packed facets x into an entry (`by` 1) or out of it (-1). */
function tally(e: ShortEntry, x: number, by: 1 | -1): void {
  const cls = x & 63;
  e.byClass[cls] += by;
  e.classStatus[x & 0x3fff] += by;
  e.typeMode[cls * 1024 + ((x >>> 14) & 0x3ff)] += by;
  e.state[cls * 256 + (x >>> 24)] += by;
}

/** Marks with their lengths, to be put in result order. */
class Postings {
  private n = 0;
  private readonly marks: Uint32Array;
  private readonly lens: Uint32Array;

  constructor(size: number) {
    this.marks = new Uint32Array(size);
    this.lens = new Uint32Array(size);
  }

  push(m: number, len: number): void {
    this.marks[this.n] = m;
    this.lens[this.n++] = Math.min(len, MAX_LEN);
  }

  /** Ordered as results are: by length (capped as sort keys are), then mark; in linear time (radix by mark, then counted by length). */
  ordered(info: Uint32Array): Part {
    const byMark = radixSortPairs(this.marks, this.lens);
    const n = this.n;
    const start = new Uint32Array(MAX_LEN + 2);
    for (let i = 0; i < n; i++) start[byMark.values[i] + 1]++;
    for (let l = 0; l <= MAX_LEN; l++) start[l + 1] += start[l];
    const part: Part = { marks: new Uint32Array(n), len: new Uint16Array(n), info: new Uint32Array(n) };
    for (let i = 0; i < n; i++) {
      const m = byMark.keys[i];
      const at = start[byMark.values[i]]++;
      part.marks[at] = m;
      part.len[at] = byMark.values[i];
      part.info[at] = info[m];
    }
    return part;
  }
}

/** The first `want` hits of an entry in result order, after `after`, skipping dead marks and classes not kept. */
export function shortHits(e: ShortEntry, appNo: Float64Array, dead: Bitset, classes: Uint8Array | null, want: number, after: After | null): IndexHit[] {
  const out: IndexHit[] = [];
  const strategies = [S_EXACT, S_PREFIX, S_WORD];
  for (let s = 0; s < 3 && out.length < want; s++) {
    const strategy = strategies[s];
    if (after && strategy < after.strategy) continue;
    const { marks, len, info } = e.parts[s];
    for (let i = 0; i < marks.length && out.length < want; i++) {
      const m = marks[i];
      if (dead.has(m) || (classes !== null && classes[info[i] & 63] === 0)) continue;
      const l = Math.min(len[i], MAX_LEN);
      if (after && strategy === after.strategy) {
        const key = sortKey(0, l);
        const afterKey = sortKey(after.dist, after.len);
        if (key < afterKey || (key === afterKey && appNo[m] <= after.appNo)) continue;
      }
      out.push({ id: m, appNo: appNo[m], strategy, dist: 0, len: l });
    }
  }
  return out;
}
