import { Bitset } from './bitset.ts';
import { orderPart, type ReadyAnswer, readyAnswer, tally } from './ready.ts';
import { MAX_LEN, type MarkData } from './types.ts';
import type { Vocabulary } from './vocabulary.ts';

// Queries of one or two characters use exact, prefix and whole-word matching only, so their whole
// answer depends on the prefix alone: S matches 1.7 million marks, and admitting them one by one costs
// 40 ms. For the prefixes that match many marks, the index keeps the answer ready (src/search/ready.ts):
// the marks that are the prefix alone, the marks a word with the prefix begins, the marks holding the
// prefix as a later word.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Prefixes matching at least this many postings keep their answer ready. */
export const SHORT_FROM = 65_536;

export class ShortPrefixes {
  // Listed here, built on first use or by LiveIndex.prepare() as an API process loads the index (a few
  // hundred milliseconds for S): an index built or loaded by a command that never searches skips them.
  private readonly entries = new Map<string, ReadyAnswer | null>();
  private range: Bitset | null = null;

  /** `dead`: the index's hidden marks (left out of an entry's counts when it is built). */
  constructor(
    private readonly vocab: Vocabulary,
    private readonly d: MarkData,
    private readonly dead: Bitset,
    from = SHORT_FROM,
  ) {
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

  /** Takes answers made earlier (a snapshot's: src/search/readyData.ts), with nothing hidden since, for the prefixes listed. */
  adopt(entries: Map<string, ReadyAnswer>): void {
    for (const [p, e] of entries) if (this.entries.has(p)) this.entries.set(p, e);
  }

  /** The answers made so far, by prefix. */
  made(): Map<string, ReadyAnswer> {
    const out = new Map<string, ReadyAnswer>();
    for (const [p, e] of this.entries) if (e) out.set(p, e);
    return out;
  }

  /** The prefixes that keep a ready answer. */
  prefixes(): string[] {
    return [...this.entries.keys()];
  }

  /** The ready answer of a prefix, or undefined when it matches too few marks to keep one. */
  get(prefix: string): ReadyAnswer | undefined {
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
    const first = words.at(markWords[wordOffsets[m]]);
    const counted = new Set<ReadyAnswer>();
    const drop = (e: ReadyAnswer | null | undefined) => {
      if (!e || counted.has(e)) return;
      counted.add(e);
      tally(e, x, -1);
    };
    // In the exact or prefix part of the prefixes its first word begins with.
    drop(this.entries.get(first.slice(0, 1)));
    if (first.length >= 2) drop(this.entries.get(first.slice(0, 2)));
    // In the word part of its later short words that its first word does not begin with.
    for (let q = wordOffsets[m]; q < wordOffsets[m + 1]; q++) {
      const w = words.at(markWords[q]);
      if (w.length <= 2 && !first.startsWith(w)) drop(this.entries.get(w));
    }
  }

  private build(p: string, id: number, lo: number, hi: number, range: Bitset): ReadyAnswer {
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
    return readyAnswer([exact.ordered(d.info), prefix.ordered(d.info), later.ordered(d.info)], this.dead);
  }
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

  /** In result order (a length is the sort key of a match at distance 0). */
  ordered(info: Uint32Array) {
    return orderPart(this.marks.subarray(0, this.n), this.lens.subarray(0, this.n), info);
  }
}
