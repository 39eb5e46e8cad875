import { Bitset } from './bitset.ts';
import type { FilterSplit } from './filterSplit.ts';
import { FilterCheck } from './filters.ts';
import { Buckets, Candidates, SHRINK_AFTER_SEARCHES, searchBegun } from './gather.ts';
import type { MarkIndex } from './markIndex.ts';
import { RunScratch } from './soundRuns.ts';
import { SLOT_LENGTH_MASK, STRATEGY_COUNT, slotOf } from './strategies.ts';
import { type Filter, INFO_LIMITS, MAX_DIST, MAX_LEN, type Postings, SORT_KEYS, sortKey } from './types.ts';
import type { BitmapPool } from './wordSets.ts';

// What one search works in, over one index: a bitmap of the marks seen so far (dedup, strongest
// strategy first); the marks admitted, in a list whose runs are the strategies' buckets, each with
// its sort key; facet counts; and the buffers strategies fill on the way. A new mark that passes the
// filters is counted into the facets and appended. Sized for its index at 7.7M marks (50 MB), so a
// scratch is kept from search to search (src/search/liveIndex.ts); a search has it to itself from
// begin() until it has read its page.

const NO_MARKS = new Bitset(0);

export class SearchScratch implements BitmapPool {
  readonly seen: Bitset;
  members: Uint32Array;
  keys: Uint16Array;
  /** How many marks are admitted: members[0, count) and their keys. */
  count = 0;
  /** Strategy s's marks are members[bucketEnd[s - 1], bucketEnd[s]). */
  readonly bucketEnd = new Uint32Array(STRATEGY_COUNT);
  /** Sort keys counted while a page is picked (src/search/results.ts). */
  readonly hist = new Uint32Array(SORT_KEYS);
  // Facet counts in three tables, split into the five facets when the search ends: class and status
  // (the low 14 bits of the packed facets), type and filing mode (the next 10), state. Three counters
  // per admitted mark instead of five is a quarter off the hottest loop.
  readonly facetClassStatus = new Uint32Array(1 << 14);
  readonly facetTypeMode = new Uint32Array(1 << 10);
  readonly facetState = new Uint32Array(INFO_LIMITS.state);
  /** Candidates whose words a strategy reads, and the multi-word classification's buckets. */
  readonly candidates = new Candidates();
  readonly classified = new Buckets(6);
  /** Marks holding some of a multi-word query's words (src/search/partial.ts); a split search swaps in each filter's. */
  partials = new Buckets(3);
  /** Pairs (word id, distance) of partial matches admitted from postings, unclassified (src/search/partial.ts). */
  partialWords: number[] = [];
  /** The filters of a search made for several at once, while it runs (src/search/filterSplit.ts). */
  split: FilterSplit | null = null;
  /**
   * A split search that counts nothing needs only each filter's first page: once every filter has this many
   * marks in closed strategies, later strategies cannot reach a page (0: the search reads every strategy).
   */
  pageOnly = 0;
  private tallied = 0;
  private readonly perPart = new Uint32Array(64);
  /** While a split search's partial matching runs: its core words' bitmaps, by core (src/search/partialCore.ts). */
  coreMemo: Map<string, Bitset> | null = null;
  readonly runs = new RunScratch();

  // The filters of the running search, and the index's hidden marks.
  private filtering = false;
  private check: FilterCheck | null = null;
  private hidden = NO_MARKS;

  private readonly pool: Bitset[] = [];
  private roleHead: Int32Array | null = null;
  private roleHas: Bitset | null = null;
  private rolePacked = new Uint32Array(0);
  private roleNext = new Int32Array(0);
  private wordFlags: Bitset | null = null;
  private readonly markLen: Uint16Array;
  private readonly info: Uint32Array;
  /** Searches in a row since one admitted more than the index's membersFrom. */
  private small = 0;

  constructor(private readonly ix: MarkIndex) {
    this.seen = new Bitset(ix.n);
    this.members = new Uint32Array(Math.min(ix.n, ix.membersFrom));
    this.keys = new Uint16Array(this.members.length);
    this.markLen = ix.d.markLen;
    this.info = ix.d.info;
  }

  /**
   * Starts a search with `filter`; `hidden` (`hiddenCount` marks) are the index's marks hidden since it
   * was made, to be read, not changed, until the search ends.
   */
  begin(filter: Filter, hidden: Bitset, hiddenCount: number): void {
    searchBegun();
    this.seen.clear();
    const from = this.ix.membersFrom;
    this.small = this.count > from ? 0 : this.small + 1;
    if (this.members.length > from && this.small >= SHRINK_AFTER_SEARCHES) {
      this.members = new Uint32Array(from);
      this.keys = new Uint16Array(from);
    }
    this.count = 0;
    this.pageOnly = 0;
    this.tallied = 0;
    this.perPart.fill(0);
    this.bucketEnd.fill(0);
    this.facetClassStatus.fill(0);
    this.facetTypeMode.fill(0);
    this.facetState.fill(0);
    this.hidden = hidden;
    const check = new FilterCheck(this.ix, filter);
    this.check = check.active ? check : null;
    this.filtering = this.check !== null || hiddenCount > 0;
  }

  /**
   * Runs `f` with `filter`'s checks in place of the running search's: `filter` keeps only marks the running
   * search's filter keeps (one filter of a split search: src/search/partialGroups.ts).
   */
  narrowed<T>(filter: Filter, f: () => T): T {
    const { check, filtering } = this;
    const narrow = new FilterCheck(this.ix, filter);
    this.check = narrow.active ? narrow : check;
    this.filtering = filtering || narrow.active;
    try {
      return f();
    } finally {
      this.check = check;
      this.filtering = filtering;
    }
  }

  /**
   * Room for `more` admissions past the count: the list at least doubled when it has none. Not at once to the
   * register's size: 6 bytes a mark, that was 41 MB at 7.7M in every process for any search admitting over a million.
   */
  private room(more: number): void {
    // No search admits a mark twice: the register's size is room for any.
    if (this.count + more <= this.members.length || this.members.length >= this.ix.n) return;
    const size = Math.min(this.ix.n, Math.max(this.count + more, 2 * this.members.length));
    const members = new Uint32Array(size);
    const keys = new Uint16Array(size);
    members.set(this.members.subarray(0, this.count));
    keys.set(this.keys.subarray(0, this.count));
    this.members = members;
    this.keys = keys;
  }

  /** Strategy s is done: later admissions belong to later strategies. */
  close(s: number): void {
    for (let t = s; t < STRATEGY_COUNT; t++) this.bucketEnd[t] = this.count;
  }

  /**
   * Whether the strategies closed so far fill every filter's page of a search made with `pageOnly` (split or not): the
   * page is ordered by strategy first, so nothing admitted later could be on it. Asked only right after close().
   */
  pagesFull(): boolean {
    const split = this.split;
    if (!this.pageOnly) return false;
    // One filter: every mark admitted passes it (and is not hidden).
    if (!split) return this.count >= this.pageOnly;
    const { partOf } = split;
    for (; this.tallied < this.count; this.tallied++) {
      const k = partOf[this.info[this.members[this.tallied]] & 63];
      if (k >= 0) this.perPart[k]++;
    }
    for (let k = 0; k < split.parts.length; k++) if (this.perPart[k] < this.pageOnly) return false;
    return true;
  }

  /**
   * Admits postings [from, to) of a family at spelling distance `dist` (lengths from the family, or
   * `fixedLen`). With `miss` (a fuzzy match's share of letter triples missed: slotOf in strategies.ts),
   * the key's length slot is that share, then the length.
   */
  take(f: Postings, from: number, to: number, dist: number, fixedLen = 0, miss = -1): void {
    if (to <= from) return;
    let base = Math.min(dist, MAX_DIST) * (MAX_LEN + 1);
    let cap = MAX_LEN;
    if (miss >= 0) {
      base += slotOf(miss, 0);
      cap = SLOT_LENGTH_MASK;
    }
    const fixed = base + Math.min(fixedLen, cap);
    this.room(to - from);
    this.count = this.filtering
      ? this.takeFiltered(f, from, to, base, fixed, cap)
      : this.takeAll(f.marks, f.len, f.info, from, to, base, fixed, cap);
  }

  /** Admits every posting of `word` in a family. */
  takeWord(f: Postings, word: number, dist: number, fixedLen = 0, miss = -1): void {
    this.take(f, f.offsets[word], f.offsets[word + 1], dist, fixedLen, miss);
  }

  // The hot loop of every search: one pass over postings, nothing but sequential reads, a bitmap in
  // cache, appends and small counters.
  private takeAll(
    marks: Uint32Array,
    len: Uint16Array | null,
    info: Uint32Array,
    from: number,
    to: number,
    base: number,
    fixed: number,
    cap: number,
  ): number {
    const seen = this.seen.words;
    const members = this.members;
    const keys = this.keys;
    const fClassStatus = this.facetClassStatus;
    const fTypeMode = this.facetTypeMode;
    const fState = this.facetState;
    let c = this.count;
    for (let p = from; p < to; p++) {
      const m = marks[p];
      const w = m >>> 5;
      const bit = 1 << (m & 31);
      const sw = seen[w];
      if ((sw & bit) !== 0) continue;
      seen[w] = sw | bit;
      members[c] = m;
      if (len === null) keys[c] = fixed;
      else {
        const l = len[p];
        keys[c] = l > cap ? base + cap : base + l;
      }
      c++;
      const x = info[p];
      fClassStatus[x & 0x3fff]++;
      fTypeMode[(x >>> 14) & 0x3ff]++;
      fState[x >>> 24]++;
    }
    return c;
  }

  // takeAll with the filters, kept apart so that the loop of an unfiltered search tests nothing more.
  private takeFiltered(f: Postings, from: number, to: number, base: number, fixed: number, cap: number): number {
    const seen = this.seen.words;
    const dead = this.hidden.words;
    const { marks, len, info } = f;
    const check = this.check;
    let c = this.count;
    for (let p = from; p < to; p++) {
      const m = marks[p];
      const w = m >>> 5;
      const bit = 1 << (m & 31);
      if ((seen[w] & bit) !== 0) continue;
      seen[w] |= bit;
      const x = info[p];
      if ((dead[w] & bit) !== 0 || (check !== null && !check.passes(m, x))) continue;
      this.members[c] = m;
      if (len === null) this.keys[c] = fixed;
      else this.keys[c] = base + Math.min(len[p], cap);
      c++;
      this.facetClassStatus[x & 0x3fff]++;
      this.facetTypeMode[(x >>> 14) & 0x3ff]++;
      this.facetState[x >>> 24]++;
    }
    return c;
  }

  /** Whether the running search has filters (src/search/filters.ts), or marks hidden. */
  get filtered(): boolean {
    return this.filtering;
  }

  /**
   * Whether mark m with packed facets x would be admitted by the running search's filters (seen or
   * not): strategies that read candidates' words skip the others before reading them.
   */
  passes(m: number, x: number): boolean {
    if (!this.filtering) return true;
    return !this.hidden.has(m) && (this.check === null || this.check.passes(m, x));
  }

  /** Admits one mark at spelling distance `dist`, unless already found (its length and facets looked up). */
  takeOne(m: number, dist: number): void {
    const seen = this.seen;
    if (seen.has(m)) return;
    seen.add(m);
    this.admit(m, dist, this.markLen[m], this.info[m]);
  }

  /** takeOne for a mark whose length and facets the caller read beside it in a posting. */
  takeKnown(m: number, dist: number, len: number, x: number): void {
    const seen = this.seen;
    if (seen.has(m)) return;
    seen.add(m);
    this.admit(m, dist, len, x);
  }

  /** takeOne for a fuzzy match missing `miss` steps of the query's letter triples (slotOf in strategies.ts). */
  takeFuzzy(m: number, dist: number, miss: number): void {
    const seen = this.seen;
    if (seen.has(m)) return;
    seen.add(m);
    this.admit(m, dist, slotOf(miss, this.markLen[m]), this.info[m]);
  }

  private admit(m: number, dist: number, len: number, x: number): void {
    if (!this.passes(m, x)) return;
    if (this.count === this.members.length) this.room(1);
    this.members[this.count] = m;
    this.keys[this.count++] = sortKey(dist, len);
    this.facetClassStatus[x & 0x3fff]++;
    this.facetTypeMode[(x >>> 14) & 0x3ff]++;
    this.facetState[x >>> 24]++;
  }

  /** A cleared bitmap over the index's marks (`i`: which one), for sets a strategy builds. */
  bitmap(i: number): Bitset {
    while (this.pool.length <= i) this.pool.push(new Bitset(this.ix.n));
    const b = this.pool[i];
    b.clear();
    return b;
  }

  /**
   * Scratch for multiWord's word roles: `head` (by word id, all -1) and `has` (by word id, empty), both to be left so,
   * and room for `n` entries.
   */
  roleScratch(n: number): { head: Int32Array; has: Bitset; packed: Uint32Array; next: Int32Array } {
    this.roleHead ??= new Int32Array(this.ix.vocab.size).fill(-1);
    this.roleHas ??= new Bitset(this.ix.vocab.size);
    if (this.rolePacked.length < n) {
      this.rolePacked = new Uint32Array(n);
      this.roleNext = new Int32Array(n);
    }
    return { head: this.roleHead, has: this.roleHas, packed: this.rolePacked, next: this.roleNext };
  }

  /**
   * A bitmap over the vocabulary holding `ids` (a word-id test instead of a string comparison per
   * word of every candidate); `done` empties it for the next caller.
   */
  wordSet(ids: ArrayLike<number>): { set: Bitset; done: () => void } {
    const set = (this.wordFlags ??= new Bitset(this.ix.vocab.size));
    for (let i = 0; i < ids.length; i++) set.add(ids[i]);
    return {
      set,
      done: () => {
        for (let i = 0; i < ids.length; i++) set.remove(ids[i]);
      },
    };
  }
}
