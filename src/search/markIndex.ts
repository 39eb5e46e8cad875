import { Vocabulary } from './vocabulary.ts';
import { Bitset } from './bitset.ts';
import { partitionPoint } from './hash.ts';
import { S_EXACT, STRATEGY_COUNT } from './strategies.ts';
import { prepareQuery, type PreparedQuery } from './query.ts';
import { singleWord } from './singleWord.ts';
import { multiWord } from './multiWord.ts';
import { queryRunCodes, RunHits, soundRuns } from './soundRuns.ts';
import { BITMAP_WORD, WordSets } from './wordSets.ts';
import { candidates, runAt, runIn } from './gather.ts';
import { SHORT_FROM, ShortPrefixes } from './shortPrefix.ts';
import { READY_FROM, ReadyWords } from './readyWords.ts';
import { orderPart, readyAnswer, readyCounts, readyHits, type Part, type ReadyAnswer } from './ready.ts';
import { Summaries, type SummaryData } from './summaries.ts';
import { PAIR_ENDS, PAIR_STARTS, pairsInto, type PairData } from './pairs.ts';

// The in-memory index of one set of marks (the register as built, or the marks changed since):
// marks as sequences of word ids, packed facet columns, and postings from words to marks. Marks are
// numbered in application-number order. Postings carry each mark's length and packed facets beside
// its id, so a search reads them front to back and never looks a mark up: at 7.7M marks, one random
// memory access per match would cost more than everything else together.
//
// A search pours postings into a bitmap of the marks seen so far (dedup, strongest strategy first);
// a new mark that passes the filters is counted into the facets and appended, with its sort key, to a
// list whose runs are the strategies' buckets. Only the buckets that reach the page are ordered.
// Searching is synchronous; the scratch space is this index's own.

export const FACETS = ['status', 'tm_type', 'filing_mode', 'state', 'class_number'] as const;
export type Facet = (typeof FACETS)[number];

/** Facet columns packed in one 32-bit word per mark: class 6 bits, status 8, type 4, filing mode 6, state 8. */
export function packInfo(cls: number, status: number, tmType: number, filingMode: number, state: number): number {
  return (cls | (status << 6) | (tmType << 14) | (filingMode << 18) | (state << 24)) >>> 0;
}
export const INFO_LIMITS = { status: 256, tm_type: 16, filing_mode: 64, state: 256 };

export interface MarkData extends PairData {
  appNo: Float64Array;
  info: Uint32Array;
  /** Values of the dictionary-coded facets; '' stands for no value. */
  dict: { status: string[]; tm_type: string[]; filing_mode: string[]; state: string[] };
  wordOffsets: Uint32Array;
  markWords: Uint32Array;
  markLen: Uint16Array;
  /** Marks whose EXACT key differs from their normalised words (punctuation, accents), ids ascending. */
  exactIds: Uint32Array;
  exactKeys: string[];
  /** Word → marks holding it, with each mark's length and facets beside its id. */
  postOffsets: Uint32Array;
  postMarks: Uint32Array;
  postLen: Uint16Array;
  postInfo: Uint32Array;
  /** Word → marks it begins. */
  firstOffsets: Uint32Array;
  firstMarks: Uint32Array;
  firstLen: Uint16Array;
  firstInfo: Uint32Array;
  /** Word → marks it ends. */
  lastOffsets: Uint32Array;
  lastMarks: Uint32Array;
  lastLen: Uint16Array;
  lastInfo: Uint32Array;
  /** Word → marks that are that word alone. */
  onlyOffsets: Uint32Array;
  onlyMarks: Uint32Array;
  onlyInfo: Uint32Array;
  /** Runs of two and three words by the hash of their joined phonetic code (src/search/soundRuns.ts). */
  runHashes: Uint32Array;
  runFirst: Uint32Array;
  runOffsets: Uint32Array;
  runMarks: Uint32Array;
  runStarts: Uint16Array;
  /** The other fields of the marks' summaries (src/search/summaries.ts). */
  summary: SummaryData;
}

/** One posting list family: ids, lengths and facets side by side. */
export interface Postings {
  offsets: Uint32Array;
  marks: Uint32Array;
  len: Uint16Array | null;
  info: Uint32Array;
}

export interface Filter {
  /** 46 flags indexed by class number, or null for every class. */
  classes: Uint8Array | null;
  /** Status label to keep, or null. */
  status: string | null;
}

/** Where a page starts: after this result in the order (strategy, distance, length, application number). */
export interface After {
  strategy: number;
  dist: number;
  len: number;
  appNo: number;
}

export interface IndexHit {
  /** The mark's id in the index that found it: the engine's base index, or with `delta` its index of recent changes. */
  id: number;
  delta?: boolean;
  appNo: number;
  strategy: number;
  dist: number;
  len: number;
}

export interface IndexResult {
  count: number;
  groups: Record<Facet, Map<string, number>>;
  hits: IndexHit[];
}

const NO_RUNS = new RunHits();

export const MAX_DIST = 15;
export const MAX_LEN = 1023;
const KEYS = (MAX_DIST + 1) * (MAX_LEN + 1);

export function sortKey(dist: number, len: number): number {
  return Math.min(dist, MAX_DIST) * (MAX_LEN + 1) + Math.min(len, MAX_LEN);
}

export class MarkIndex {
  readonly n: number;
  private readonly dead: Bitset;
  private deadCount = 0;
  private readonly exactOverride = new Map<number, string>();
  /** Bitmaps of the marks holding common words, and those kept from query to query. */
  readonly sets: WordSets;
  readonly summaries: Summaries;
  // Scratch.
  private seenSet: Bitset | null = null;
  private readonly pool: Bitset[] = [];
  private members!: Uint32Array;
  private keys!: Uint16Array;
  private count = 0;
  private readonly bucketEnd = new Uint32Array(STRATEGY_COUNT);
  private readonly hist = new Uint32Array(KEYS);
  // Facet counts in three tables, split into the five facets when the search ends: class and status
  // (the low 14 bits of the packed facets), type and filing mode (the next 10), state. Three counters
  // per admitted mark instead of five is a quarter off the hottest loop.
  private readonly facetClassStatus = new Uint32Array(1 << 14);
  private readonly facetTypeMode = new Uint32Array(1 << 10);
  private readonly facetState = new Uint32Array(INFO_LIMITS.state);

  private readonly short: ShortPrefixes;
  private readonly readyWords: ReadyWords;

  /**
   * `bitmapFrom`: how many marks a word needs to keep a bitmap of them; `shortFrom`: how many postings a
   * prefix of one or two characters needs to keep its answer ready; `readyFrom`: how many marks a word
   * needs to keep its answer ready when searched alone (tests lower them to reach those paths on small
   * registers).
   */
  constructor(
    readonly vocab: Vocabulary, readonly d: MarkData, bitmapFrom = BITMAP_WORD, shortFrom = SHORT_FROM,
    private readonly readyFrom = READY_FROM,
  ) {
    this.n = d.appNo.length;
    this.dead = new Bitset(this.n);
    d.exactIds.forEach((id, i) => this.exactOverride.set(id, d.exactKeys[i]));
    this.sets = new WordSets(d, bitmapFrom, (i) => this.bitmap(i));
    this.short = new ShortPrefixes(vocab, d, this.dead, shortFrom);
    this.readyWords = new ReadyWords(this.n);
    this.summaries = new Summaries(d.summary, d.appNo, d.info, d.dict, (id) => this.text(id));
  }

  /** How many marks hold the word. */
  postings(word: number): number {
    return this.d.postOffsets[word + 1] - this.d.postOffsets[word];
  }

  get seen(): Bitset {
    return this.seenSet!;
  }

  /** The id of an application number, or -1. */
  idOf(appNo: number): number {
    const a = this.d.appNo;
    const lo = partitionPoint(0, a.length, (i) => a[i] < appNo);
    return lo < a.length && a[lo] === appNo ? lo : -1;
  }

  /** Hides a mark (it changed or went away; its newer copy lives in another index). */
  remove(appNo: number): void {
    const id = this.idOf(appNo);
    if (id >= 0 && !this.dead.has(id)) {
      this.dead.add(id);
      this.deadCount++;
      this.short.remove(id, this.d.info[id]);
      this.readyWords.remove(id, this.d.info[id]);
    }
  }

  isLive(id: number): boolean {
    return !this.dead.has(id);
  }

  /** The normalised text of a mark, from its words. */
  text(id: number): string {
    const { wordOffsets, markWords } = this.d;
    const out: string[] = [];
    for (let p = wordOffsets[id]; p < wordOffsets[id + 1]; p++) out.push(this.vocab.words[markWords[p]]);
    return out.join(' ');
  }

  /** A cleared bitmap from the pool (`i`: which one), for sets a strategy builds. */
  bitmap(i: number): Bitset {
    while (this.pool.length <= i) this.pool.push(new Bitset(this.n));
    const b = this.pool[i];
    b.clear();
    return b;
  }

  search(q: PreparedQuery, filter: Filter, want: number, after: After | null): IndexResult {
    const ready = this.readyAnswer(q, filter);
    if (ready) {
      const c = readyCounts(ready, filter.classes);
      return { count: c.count, groups: this.groups(c.classStatus, c.typeMode, c.state), hits: readyHits(ready, this.d.appNo, this.dead, filter.classes, want, after) };
    }
    this.begin(filter);
    if (q.words.length) {
      if (q.mode === 'EXACT') this.exactMode(q);
      else if (q.words.length === 1) singleWord(this, q);
      else multiWord(this, q);
    }
    this.close(STRATEGY_COUNT - 1);
    return { count: this.passing, groups: this.groups(this.facetClassStatus, this.facetTypeMode, this.facetState), hits: this.page(want, after) };
  }

  /**
   * Makes every ready answer now (src/search/ready.ts: short prefixes, common words searched alone),
   * yielding to the event loop between them, so that no search pays for making one (up to 300 ms
   * for SHREE; all of them take about 5 s at 7.7M marks). Returns how many it made.
   */
  async prepare(): Promise<number> {
    const none: Filter = { classes: null, status: null };
    const queries = this.short.prefixes().map((p) => prepareQuery(p, 'SMART'));
    for (let w = 0; w < this.vocab.size; w++) {
      if (this.postings(w) >= this.readyFrom && this.vocab.words[w].length > 2) queries.push(prepareQuery(this.vocab.words[w], 'SMART'));
    }
    let made = 0;
    for (const q of queries) {
      if (this.readyAnswer(q, none)) made++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return made;
  }

  /**
   * The ready answer of a SMART query of one word without a status filter (src/search/ready.ts), when
   * it is a short prefix or a word common enough to keep one.
   */
  private readyAnswer(q: PreparedQuery, filter: Filter): ReadyAnswer | undefined {
    if (q.mode !== 'SMART' || q.words.length !== 1 || filter.status !== null) return undefined;
    const w = q.words[0];
    if (q.normalised.length <= 2) return this.short.get(w);
    const id = this.vocab.id(w);
    if (id < 0 || this.postings(id) < this.readyFrom) return undefined;
    return this.readyWords.get(id, (holds) => this.wholeAnswer(q, holds));
  }

  /** Searches a one-word query over every class and keeps its whole result, in order; `holds` gets its marks. */
  private wholeAnswer(q: PreparedQuery, holds: Bitset): ReadyAnswer {
    this.begin({ classes: null, status: null });
    singleWord(this, q);
    this.close(STRATEGY_COUNT - 1);
    const parts: Part[] = [];
    for (let s = 0, from = 0; s < STRATEGY_COUNT; from = this.bucketEnd[s++]) {
      const marks = this.members.slice(from, this.bucketEnd[s]);
      for (let i = 0; i < marks.length; i++) holds.add(marks[i]);
      parts.push(orderPart(marks, Uint32Array.from(this.keys.subarray(from, this.bucketEnd[s])), this.d.info));
    }
    return readyAnswer(parts, this.dead);
  }

  // ---- admission -----------------------------------------------------------------------------

  // The filters of the running search.
  private filtering = false;
  private classes: Uint8Array | null = null;
  private statusOk = -1;
  private passing = 0;

  private begin(filter: Filter): void {
    if (!this.seenSet) {
      this.seenSet = new Bitset(this.n);
      this.members = new Uint32Array(this.n);
      this.keys = new Uint16Array(this.n);
    } else {
      this.seenSet.clear();
    }
    this.count = 0;
    this.passing = 0;
    this.bucketEnd.fill(0);
    this.facetClassStatus.fill(0);
    this.facetTypeMode.fill(0);
    this.facetState.fill(0);
    this.classes = filter.classes;
    this.statusOk = filter.status === null ? -1 : this.d.dict.status.indexOf(filter.status);
    // A status no mark here has: nothing passes.
    if (filter.status !== null && this.statusOk < 0) this.classes = new Uint8Array(64);
    this.filtering = this.classes !== null || this.statusOk !== -1 || this.deadCount > 0;
  }

  /** Strategy s is done: later admissions belong to later strategies. */
  close(s: number): void {
    for (let t = s; t < STRATEGY_COUNT; t++) this.bucketEnd[t] = this.count;
  }

  /** Admits postings [from, to) of a family at spelling distance `dist` (lengths from the family, or `fixedLen`). */
  take(f: Postings, from: number, to: number, dist: number, fixedLen = 0): void {
    if (to <= from) return;
    const base = Math.min(dist, MAX_DIST) * (MAX_LEN + 1);
    this.count = this.filtering
      ? this.takeFiltered(f, from, to, base, base + Math.min(fixedLen, MAX_LEN))
      : this.takeAll(f.marks, f.len, f.info, from, to, base, base + Math.min(fixedLen, MAX_LEN));
  }

  // The hot loop of every search: one pass over postings, nothing but sequential reads, a bitmap in
  // cache, appends and small counters.
  private takeAll(marks: Uint32Array, len: Uint16Array | null, info: Uint32Array, from: number, to: number, base: number, fixed: number): number {
    const seen = this.seenSet!.words;
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
        keys[c] = l > MAX_LEN ? base + MAX_LEN : base + l;
      }
      c++;
      const x = info[p];
      fClassStatus[x & 0x3fff]++;
      fTypeMode[(x >>> 14) & 0x3ff]++;
      fState[x >>> 24]++;
    }
    this.passing += c - this.count;
    return c;
  }

  private takeFiltered(f: Postings, from: number, to: number, base: number, fixed: number): number {
    const seen = this.seenSet!.words;
    const dead = this.dead.words;
    const { marks, len, info } = f;
    const classes = this.classes;
    const statusOk = this.statusOk;
    let c = this.count;
    for (let p = from; p < to; p++) {
      const m = marks[p];
      const w = m >>> 5;
      const bit = 1 << (m & 31);
      if ((seen[w] & bit) !== 0) continue;
      seen[w] |= bit;
      const x = info[p];
      if ((dead[w] & bit) !== 0 || (classes !== null && classes[x & 63] === 0)) continue;
      if (statusOk !== -1 && ((x >>> 6) & 255) !== statusOk) continue;
      this.members[c] = m;
      if (len === null) this.keys[c] = fixed;
      else this.keys[c] = base + Math.min(len[p], MAX_LEN);
      c++;
      this.facetClassStatus[x & 0x3fff]++;
      this.facetTypeMode[(x >>> 14) & 0x3ff]++;
      this.facetState[x >>> 24]++;
    }
    this.passing += c - this.count;
    return c;
  }

  /** Whether the running search has filters (a class, a status, or marks gone away). */
  get filtered(): boolean {
    return this.filtering;
  }

  /**
   * Whether mark m with packed facets x would be admitted by the running search's filters (seen or
   * not): strategies that read candidates' words skip the others before reading them.
   */
  passes(m: number, x: number): boolean {
    if (!this.filtering) return true;
    if (this.dead.has(m) || (this.classes !== null && this.classes[x & 63] === 0)) return false;
    return this.statusOk === -1 || ((x >>> 6) & 255) === this.statusOk;
  }

  /** Admits one mark at spelling distance `dist`, unless already found (its length and facets looked up). */
  takeOne(m: number, dist: number): void {
    const seen = this.seenSet!;
    if (seen.has(m)) return;
    seen.add(m);
    this.admit(m, dist, this.d.markLen[m], this.d.info[m]);
  }

  /** takeOne for a mark whose length and facets the caller read beside it in a posting. */
  takeKnown(m: number, dist: number, len: number, x: number): void {
    const seen = this.seenSet!;
    if (seen.has(m)) return;
    seen.add(m);
    this.admit(m, dist, len, x);
  }

  private admit(m: number, dist: number, len: number, x: number): void {
    if (!this.passes(m, x)) return;
    this.members[this.count] = m;
    this.keys[this.count++] = sortKey(dist, len);
    this.passing++;
    this.facetClassStatus[x & 0x3fff]++;
    this.facetTypeMode[(x >>> 14) & 0x3ff]++;
    this.facetState[x >>> 24]++;
  }

  get post(): Postings {
    return { offsets: this.d.postOffsets, marks: this.d.postMarks, len: this.d.postLen, info: this.d.postInfo };
  }

  get first(): Postings {
    return { offsets: this.d.firstOffsets, marks: this.d.firstMarks, len: this.d.firstLen, info: this.d.firstInfo };
  }

  get last(): Postings {
    return { offsets: this.d.lastOffsets, marks: this.d.lastMarks, len: this.d.lastLen, info: this.d.lastInfo };
  }

  get only(): Postings {
    return { offsets: this.d.onlyOffsets, marks: this.d.onlyMarks, len: null, info: this.d.onlyInfo };
  }

  private roleHead: Int32Array | null = null;
  private roleHas: Bitset | null = null;
  private rolePacked = new Uint32Array(0);
  private roleNext = new Int32Array(0);

  /** Scratch for multiWord's word roles: `head` (by word id, all -1) and `has` (by word id, empty), both to be left so, and room for `n` entries. */
  roleScratch(n: number): { head: Int32Array; has: Bitset; packed: Uint32Array; next: Int32Array } {
    this.roleHead ??= new Int32Array(this.vocab.size).fill(-1);
    this.roleHas ??= new Bitset(this.vocab.size);
    if (this.rolePacked.length < n) {
      this.rolePacked = new Uint32Array(n);
      this.roleNext = new Int32Array(n);
    }
    return { head: this.roleHead, has: this.roleHas, packed: this.rolePacked, next: this.roleNext };
  }

  private wordFlags: Bitset | null = null;

  /**
   * A bitmap over the vocabulary holding `ids` (a word-id test instead of a string comparison per
   * word of every candidate); `done` empties it for the next caller.
   */
  wordSet(ids: ArrayLike<number>): { set: Bitset; done: () => void } {
    const set = (this.wordFlags ??= new Bitset(this.vocab.size));
    for (let i = 0; i < ids.length; i++) set.add(ids[i]);
    return {
      set,
      done: () => {
        for (let i = 0; i < ids.length; i++) set.remove(ids[i]);
      },
    };
  }

  /** Marks not seen yet holding a run of words that, run together, sounds like `compact`. */
  soundRuns(compact: string): RunHits {
    const codes = queryRunCodes(compact);
    if (!codes.length) return NO_RUNS;
    const seen = this.seenSet!;
    const info = this.d.info;
    return soundRuns(this.vocab, this.d, this.d.markWords, compact, codes, this.bitmap(7), this.bitmap(8), (m) => seen.has(m) || !this.passes(m, info[m]));
  }

  /**
   * Admits the sound-alike runs spelled within `max` edits (as spelling variants, by spelling
   * distance) or, with `far`, those beyond it (as sound-alikes, by distance after romanisation).
   */
  takeRuns(runs: RunHits, max: number, far: boolean): void {
    const marks = runs.marks;
    for (let i = 0; i < runs.n; i++) {
      const spelled = runs.spelled(i);
      if (spelled > max === far) this.takeOne(marks[i], 2 * (far ? runs.sounded(i) : spelled));
    }
  }

  /**
   * Admits, at distance 0, the marks of `word`'s pairs whose next word is in [lo, hi) and that carry
   * every flag of `flags` (src/search/pairs.ts).
   */
  takePairs(word: number, lo: number, hi: number, flags: number): void {
    const [from, to] = pairsInto(this.d, word, lo, hi);
    const pm = this.d.pairMarks;
    for (let p = from; p < to; p++) {
      const x = pm[p];
      if ((x & flags) === flags) this.takeOne(x >>> 2, 0);
    }
  }

  /** Admits every posting of `word` in a family. */
  takeWord(f: Postings, word: number, dist: number, fixedLen = 0): void {
    this.take(f, f.offsets[word], f.offsets[word + 1], dist, fixedLen);
  }

  // ---- EXACT ---------------------------------------------------------------------------------

  private exactMode(q: PreparedQuery): void {
    const ids = q.words.map((w) => this.vocab.id(w));
    if (ids.includes(-1)) return;
    const { firstOffsets, firstMarks, onlyOffsets, onlyMarks } = this.d;
    const plain = q.exact === q.normalised;
    const accept = (m: number) => {
      const override = this.exactOverride.get(m);
      if (override === undefined ? plain : override === q.exact) this.takeOne(m, 0);
    };
    if (ids.length === 1) {
      for (let p = onlyOffsets[ids[0]]; p < onlyOffsets[ids[0] + 1]; p++) accept(onlyMarks[p]);
    } else if (ids.length === 2) {
      // The mark is the pair: it begins and ends it.
      const [from, to] = pairsInto(this.d, ids[0], ids[1], ids[1] + 1);
      const pm = this.d.pairMarks;
      for (let p = from; p < to; p++) {
        const x = pm[p];
        if ((x & (PAIR_STARTS | PAIR_ENDS)) === (PAIR_STARTS | PAIR_ENDS) && this.passes(x >>> 2, this.d.info[x >>> 2])) accept(x >>> 2);
      }
    } else {
      // Marks the first word begins that hold the rarest of the others (a bitmap), then their words.
      const from = firstOffsets[ids[0]];
      const to = firstOffsets[ids[0] + 1];
      const rarest = ids.slice(1).reduce((a, b) => (this.postings(a) <= this.postings(b) ? a : b));
      const holding = to - from > 256 ? this.bitmap(0) : null;
      if (holding) this.sets.addWord(holding, rarest);
      const cands = candidates;
      cands.reset(to - from);
      for (let p = from; p < to; p++) {
        const m = firstMarks[p];
        if ((!holding || holding.has(m)) && this.passes(m, this.d.firstInfo[p])) cands.push(m, 0, 0);
      }
      cands.gather(this.d);
      const { n, marks, bounds, words } = cands;
      for (let c = 0; c < n; c++) {
        if (bounds[2 * c + 1] - bounds[2 * c] === ids.length && runAt(words, bounds[2 * c], ids)) accept(marks[c]);
      }
    }
    this.close(S_EXACT);
  }

  /** Position of the first run of `ids` in mark m, or -1. */
  findSequence(m: number, ids: number[]): number {
    return runIn(this.d.markWords, this.d.wordOffsets[m], this.d.wordOffsets[m + 1], ids);
  }

  // ---- results -------------------------------------------------------------------------------

  private groups(cs: Uint32Array, tm: Uint32Array, state: Uint32Array): Record<Facet, Map<string, number>> {
    const dict = this.d.dict;
    const cls = new Uint32Array(64);
    const status = new Uint32Array(INFO_LIMITS.status);
    const type = new Uint32Array(INFO_LIMITS.tm_type);
    const mode = new Uint32Array(INFO_LIMITS.filing_mode);
    for (let i = 0; i < cs.length; i++) {
      if (cs[i] === 0) continue;
      cls[i & 63] += cs[i];
      status[i >>> 6] += cs[i];
    }
    for (let i = 0; i < tm.length; i++) {
      if (tm[i] === 0) continue;
      type[i & 15] += tm[i];
      mode[i >>> 4] += tm[i];
    }
    const named = (counts: Uint32Array, names: string[]) => {
      const m = new Map<string, number>();
      for (let i = 0; i < names.length; i++) if (counts[i] && names[i] !== '') m.set(names[i], counts[i]);
      return m;
    };
    const classes = new Map<string, number>();
    cls.forEach((c, i) => c && classes.set(String(i), c));
    return {
      status: named(status, dict.status),
      tm_type: named(type, dict.tm_type),
      filing_mode: named(mode, dict.filing_mode),
      state: named(state, dict.state),
      class_number: classes,
    };
  }

  // ---- the page ------------------------------------------------------------------------------

  /**
   * The first `want` results in order (after `after`, when paging by cursor). Within a bucket the
   * keys are histogrammed so that only the marks that reach the page are sorted.
   */
  private page(want: number, after: After | null): IndexHit[] {
    const out: IndexHit[] = [];
    const { members, keys, hist } = this;
    const appNo = this.d.appNo;
    let start = 0;
    for (let s = 0; s < STRATEGY_COUNT && out.length < want; s++) {
      const from = start;
      const end = this.bucketEnd[s];
      start = end;
      if (end === from || (after && s < after.strategy)) continue;
      const cursor = after && after.strategy === s;
      const afterKey = cursor ? sortKey(after.dist, after.len) : -1;
      const afterApp = cursor ? after.appNo : -1;
      const keep = (i: number) => !cursor || keys[i] > afterKey || (keys[i] === afterKey && appNo[members[i]] > afterApp);
      const need = want - out.length;
      hist.fill(0);
      let total = 0;
      if (cursor) {
        for (let i = from; i < end; i++) {
          if (!keep(i)) continue;
          hist[keys[i]]++;
          total++;
        }
      } else {
        for (let i = from; i < end; i++) hist[keys[i]]++;
        total = end - from;
      }
      let cutoff = KEYS - 1;
      if (total > need) {
        let acc = 0;
        for (let k = 0; k < KEYS; k++) {
          acc += hist[k];
          if (acc >= need) {
            cutoff = k;
            break;
          }
        }
      }
      const picked: number[] = [];
      for (let i = from; i < end; i++) if (keys[i] <= cutoff && (!cursor || keep(i))) picked.push(i);
      picked.sort((a, b) => keys[a] - keys[b] || members[a] - members[b]);
      for (let j = 0; j < picked.length && out.length < want; j++) {
        const i = picked[j];
        const m = members[i];
        out.push({ id: m, appNo: appNo[m], strategy: s, dist: keys[i] >>> 10, len: keys[i] & MAX_LEN });
      }
    }
    return out;
  }
}
