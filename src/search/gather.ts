import type { MarkData } from './types.ts';

// Candidate marks of a strategy, checked word by word. A mark's words sit at an address known only
// from the mark, so reading them is a cache miss or two; done one candidate at a time, every miss
// waits for the one before. Here each step runs over all candidates before the next (positions, then
// words), so the loads are independent and many are in flight at once: three to four times faster
// on a few hundred thousand candidates.

/**
 * After this many searches in a row none of which asked a Growable for over a quarter of it, it shrinks; so does a
 * search's list of admitted marks after as many admitting no more than MarkIndex.membersFrom (src/search/scratch.ts).
 */
export const SHRINK_AFTER_SEARCHES = 64;
const SMALLEST = 1024;
/** Searches begun in this process (src/search/scratch.ts): a Growable's window is counted in them. */
let searches = 0;

/** Counts a search begun. */
export function searchBegun(): void {
  searches++;
}

/**
 * A growable Uint32Array, kept by a search's scratch (src/search/scratch.ts) from search to search. It shrinks back
 * to twice what was asked of it once searches have long needed much less: one search reading millions of candidates
 * would otherwise leave every API process holding tens of megabytes of them (docs/architecture.md, "One index per
 * machine"). Counted in searches, not asks: some callers ask once an entry.
 */
export class Growable {
  a = new Uint32Array(SMALLEST);
  /** The search from which no ask was for over a quarter of it, and the most asked since. */
  private since = searches;
  private most = 0;

  /** The array, with room for at least n entries (contents kept, those past n too unless it shrinks). */
  room(n: number): Uint32Array {
    if (n > this.a.length) {
      const grown = new Uint32Array(Math.max(n, 2 * this.a.length));
      grown.set(this.a);
      this.a = grown;
    }
    if (this.a.length === SMALLEST || 4 * n > this.a.length) {
      this.since = searches;
      this.most = 0;
      return this.a;
    }
    this.most = Math.max(this.most, n);
    if (searches - this.since >= SHRINK_AFTER_SEARCHES) {
      this.a = this.a.slice(0, Math.max(SMALLEST, 2 * this.most));
      this.since = searches;
      this.most = 0;
    }
    return this.a;
  }
}

export class Candidates {
  n = 0;
  private readonly m = new Growable();
  private readonly l = new Growable();
  private readonly x = new Growable();
  private readonly s = new Growable();
  private readonly w = new Growable();

  /** Empties the list, with room for `capacity` candidates. */
  reset(capacity: number): void {
    this.n = 0;
    this.m.room(capacity);
    this.l.room(capacity);
    this.x.room(capacity);
  }

  /** Adds a mark with its length and facets (read beside it in a posting); room was made by reset. */
  push(m: number, len: number, info: number): void {
    this.m.a[this.n] = m;
    this.l.a[this.n] = len;
    this.x.a[this.n++] = info;
  }

  /** Keeps only the candidates whose mark passes `keep`, in order. */
  retain(keep: (m: number) => boolean): void {
    const m = this.m.a;
    const l = this.l.a;
    const x = this.x.a;
    let k = 0;
    for (let c = 0; c < this.n; c++) {
      if (!keep(m[c])) continue;
      m[k] = m[c];
      l[k] = l[c];
      x[k++] = x[c];
    }
    this.n = k;
  }

  get marks(): Uint32Array {
    return this.m.a;
  }

  get lengths(): Uint32Array {
    return this.l.a;
  }

  get infos(): Uint32Array {
    return this.x.a;
  }

  /** Candidate c's words are words[bounds[2c], bounds[2c + 1]), after gather. */
  get bounds(): Uint32Array {
    return this.s.a;
  }

  get words(): Uint32Array {
    return this.w.a;
  }

  /** Reads every candidate's words into `words`. */
  gather(d: MarkData): void {
    const n = this.n;
    const cm = this.m.a;
    const cs = this.s.room(2 * n);
    const { wordOffsets, markWords } = d;
    let total = 0;
    for (let c = 0; c < n; c++) {
      const from = wordOffsets[cm[c]];
      const to = wordOffsets[cm[c] + 1];
      cs[2 * c] = from;
      cs[2 * c + 1] = to;
      total += to - from;
    }
    const cw = this.w.room(total);
    for (let c = 0, o = 0; c < n; c++) {
      const from = cs[2 * c];
      const to = cs[2 * c + 1];
      cs[2 * c] = o;
      for (let q = from; q < to; q++) cw[o++] = markWords[q];
      cs[2 * c + 1] = o;
    }
  }
}

/**
 * Candidates sorted into buckets (multi-word classification: exact, prefix, word, any order,
 * spelling, phonetic), each with its id, distance, length and facets side by side, to be admitted
 * bucket by bucket as the strategies come.
 */
export class Buckets {
  private readonly data: Growable[];
  readonly size: Uint32Array;

  constructor(count: number) {
    this.data = Array.from({ length: count }, () => new Growable());
    this.size = new Uint32Array(count);
  }

  reset(): void {
    this.size.fill(0);
  }

  push(bucket: number, m: number, dist: number, len: number, info: number): void {
    const at = 3 * this.size[bucket]++;
    const a = this.data[bucket].room(at + 3);
    a[at] = m;
    a[at + 1] = (dist << 16) | Math.min(len, 0xffff);
    a[at + 2] = info;
  }

  /** Admits a bucket's entries in order (to a search's scratch: src/search/scratch.ts). */
  admit(bucket: number, to: { takeKnown(m: number, dist: number, len: number, x: number): void }): void {
    const a = this.data[bucket].a;
    for (let i = 0; i < 3 * this.size[bucket]; i += 3) to.takeKnown(a[i], a[i + 1] >>> 16, a[i + 1] & 0xffff, a[i + 2]);
  }
}

/** Whether words[at, at + ids.length) are `ids`. */
export function runAt(words: Uint32Array, at: number, ids: number[]): boolean {
  for (let i = 0; i < ids.length; i++) if (words[at + i] !== ids[i]) return false;
  return true;
}

/** Position of the first run of `ids` in words[from, to), counted from `from`, or -1. */
export function runIn(words: Uint32Array, from: number, to: number, ids: number[]): number {
  for (let at = from; at + ids.length <= to; at++) if (runAt(words, at, ids)) return at - from;
  return -1;
}
