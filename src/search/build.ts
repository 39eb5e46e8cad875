import { inThread } from '../threads/run.ts';
import { MarkIndex } from './markIndex.ts';
import { exactKey, normaliseMark } from './normalise.ts';
import { markRanks } from './order.ts';
import { buildOwnerWords } from './owners.ts';
import { buildPairs } from './pairs.ts';
import type { RunTable } from './soundRuns.ts';
import { buildRuns } from './soundRuns.ts';
import { SummaryBuilder, type SummaryFields } from './summaries.ts';
import { TextList } from './textList.ts';
import { INFO_LIMITS, type MarkData, packInfo } from './types.ts';
import { Vocabulary } from './vocabulary.ts';
import type { VocabularyLookups } from './vocabularyThread.ts';

type RunField = keyof RunTable;

/** One mark as the index needs it (the row the builder streams from PostgreSQL), with its summary's other fields. */
export interface MarkRow extends SummaryFields {
  appNo: number;
  wordMark: string;
  cls: number;
  status: string;
  tmType: string;
  filingMode: string | null;
  state: string | null;
}

class Grow<T extends Uint32Array | Uint8Array | Uint16Array | Float64Array> {
  a: T;
  n = 0;
  constructor(
    private readonly make: (size: number) => T,
    size = 1024,
  ) {
    this.a = make(size);
  }
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = this.make(this.a.length * 2);
      b.set(this.a as never);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  done(): T {
    return this.a.subarray(0, this.n) as T;
  }
}

// Code 0 is NULL (no value). An empty string has a code of its own, also spelled '' so that groups
// leave it out like NULL, and a summary still gives back what the register holds.
class Dictionary {
  readonly values: string[] = [''];
  private readonly ids = new Map<string, number>();
  constructor(
    private readonly name: string,
    private readonly limit: number,
  ) {}
  /** The value's code, or -1 when the dictionary is full. */
  id(v: string | null): number {
    if (v === null) return 0;
    let id = this.ids.get(v);
    if (id === undefined) {
      id = this.values.length;
      if (id >= this.limit) return -1;
      this.ids.set(v, id);
      this.values.push(v);
    }
    return id;
  }

  get full(): string {
    return `more than ${this.limit - 1} distinct values of ${this.name}`;
  }
}

/**
 * A mark longer than this (as stored, or normalised) is left out of the index: a word's place in its
 * mark is kept in 16 bits, and a search reads a candidate's words whole. The importer refuses word marks
 * over 500 characters (docs/ingest.md), so only a record stored by other means is ever this long.
 */
export const MARK_MAX = 4096;

/** A mark the index left out, and why. */
export interface Skipped {
  appNo: number;
  reason: string;
}

/**
 * Builds a MarkIndex from marks given one at a time (any order; they are numbered by application
 * number at the end). Marks without words (figurative marks) are left out: no word query can find them.
 */
export class IndexBuilder {
  private readonly appNo: Grow<Float64Array>;
  private readonly info: Grow<Uint32Array>;
  private readonly markLen: Grow<Uint16Array>;
  private readonly wordStart: Grow<Uint32Array>;
  private readonly tokens: Grow<Uint32Array>;
  private readonly vocab = new Map<string, number>();
  private readonly words: string[] = [];
  private readonly exact = new Map<number, string>();
  private readonly summary = new SummaryBuilder();
  private readonly dict = {
    status: new Dictionary('status', INFO_LIMITS.status),
    tm_type: new Dictionary('tm_type', INFO_LIMITS.tm_type),
    filing_mode: new Dictionary('filing_mode', INFO_LIMITS.filing_mode),
    state: new Dictionary('state', INFO_LIMITS.state),
  };
  private sorted = true;
  /** Marks left out, with the reason. */
  readonly skipped: Skipped[] = [];

  /** `expected`: how many marks are coming (a guess; the arrays grow past it). */
  constructor(expected = 1024) {
    const size = Math.max(1024, expected);
    this.appNo = new Grow((k) => new Float64Array(k), size);
    this.info = new Grow((k) => new Uint32Array(k), size);
    this.markLen = new Grow((k) => new Uint16Array(k), size);
    this.wordStart = new Grow((k) => new Uint32Array(k), size);
    this.tokens = new Grow((k) => new Uint32Array(k), size * 2);
  }

  get size(): number {
    return this.appNo.n;
  }

  /**
   * Adds a mark, or leaves it out when the index cannot hold it and says why (it is also listed in
   * `skipped`): one record the index cannot take must not stop the build, nor the following of changes.
   */
  add(r: MarkRow): string | null {
    // Too long a mark is not even normalised (its summary would keep it whole as well).
    if (r.wordMark.length > MARK_MAX) return this.skip(r, `its word mark runs to ${r.wordMark.length} characters, more than ${MARK_MAX}`);
    const normalised = normaliseMark(r.wordMark);
    if (!normalised) return null;
    if (normalised.length > MARK_MAX)
      return this.skip(r, `normalised, its word mark runs to ${normalised.length} characters, more than ${MARK_MAX}`);
    if (!(r.cls >= 1 && r.cls <= 45)) return this.skip(r, `class ${r.cls} is not 1-45`);
    const { status, tm_type, filing_mode, state } = this.dict;
    const codes = [status.id(r.status), tm_type.id(r.tmType), filing_mode.id(r.filingMode), state.id(r.state)];
    const full = [status, tm_type, filing_mode, state].find((_d, k) => codes[k] < 0);
    if (full) return this.skip(r, full.full);
    const i = this.appNo.n;
    if (i > 0 && this.appNo.a[i - 1] >= r.appNo) this.sorted = false;
    this.appNo.push(r.appNo);
    this.info.push(packInfo(r.cls, codes[0], codes[1], codes[2], codes[3]));
    this.markLen.push(Math.min(normalised.length, 65535));
    this.wordStart.push(this.tokens.n);
    if (normalised !== r.wordMark) {
      const key = exactKey(r.wordMark);
      if (key !== normalised) this.exact.set(i, key);
    }
    this.summary.add(i, r.appNo, r.wordMark, normalised, r);
    let start = 0;
    for (;;) {
      const end = normalised.indexOf(' ', start);
      const w = end < 0 ? normalised.slice(start) : normalised.slice(start, end);
      let t = this.vocab.get(w);
      if (t === undefined) {
        t = this.words.length;
        this.vocab.set(w, t);
        this.words.push(w);
      }
      this.tokens.push(t);
      if (end < 0) break;
      start = end + 1;
    }
    return null;
  }

  private skip(r: MarkRow, reason: string): string {
    this.skipped.push({ appNo: r.appNo, reason });
    return reason;
  }

  finish(): MarkIndex {
    const words = this.sortedWords();
    const vocab = Vocabulary.build(words);
    return new MarkIndex(vocab, this.withRuns(vocab, this.marks(words)));
  }

  /**
   * finish(), with the vocabulary's lookups built in a worker thread while this one lays out the marks:
   * at 7.7M marks each takes seconds, and the other core is idle once the marks have been read.
   */
  async finishInThread(): Promise<MarkIndex> {
    const words = this.sortedWords();
    const lookups = inThread<string[], VocabularyLookups>(new URL('./vocabularyThread.ts', import.meta.url), words);
    const data = this.marks(words);
    const found = await lookups;
    const vocab = new Vocabulary({ ...found, words: TextList.of(words), codes: TextList.of(found.codes) });
    return new MarkIndex(vocab, this.withRuns(vocab, data));
  }

  /** The words, sorted (a word's id is its place here). */
  private sortedWords(): string[] {
    return this.words.slice().sort();
  }

  /** Everything of the index but the runs, which need the vocabulary's phonetic codes. */
  private marks(words: string[]): Omit<MarkData, RunField> {
    const n = this.appNo.n;
    // Number marks by application number.
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const appIn = this.appNo.done();
    if (!this.sorted) order.sort((a, b) => appIn[a] - appIn[b]);
    for (let i = 1; i < n; i++) {
      if (appIn[order[i]] === appIn[order[i - 1]]) throw new Error(`application number ${appIn[order[i]]} given twice`);
    }

    // Temporary token → final word id.
    const finalId = new Uint32Array(words.length);
    words.forEach((w, id) => (finalId[this.vocab.get(w)!] = id));

    const pick = <T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(src: T, make: (n: number) => T): T => {
      const out = make(n);
      for (let i = 0; i < n; i++) out[i] = src[order[i]];
      return out;
    };
    const starts = this.wordStart.done();
    const tokens = this.tokens.done();
    const endOf = (old: number) => (old + 1 < n ? starts[old + 1] : tokens.length);
    const wordOffsets = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) wordOffsets[i + 1] = wordOffsets[i] + (endOf(order[i]) - starts[order[i]]);
    const markWords = new Uint32Array(wordOffsets[n]);
    for (let i = 0; i < n; i++) {
      const old = order[i];
      let p = wordOffsets[i];
      for (let t = starts[old]; t < endOf(old); t++) markWords[p++] = finalId[tokens[t]];
    }

    const exactIds: number[] = [];
    const exactKeys: string[] = [];
    for (let i = 0; i < n; i++) {
      const k = this.exact.get(order[i]);
      if (k !== undefined) {
        exactIds.push(i);
        exactKeys.push(k);
      }
    }

    const markLen = pick(this.markLen.done(), (k) => new Uint16Array(k));
    const info = pick(this.info.done(), (k) => new Uint32Array(k));
    const posted = postings(n, words.length, wordOffsets, markWords, markLen, info);
    return {
      appNo: pick(appIn, (k) => new Float64Array(k)),
      info,
      rank: markRanks({ wordOffsets, markWords, firstOffsets: posted.firstOffsets, firstMarks: posted.firstMarks }),
      dict: {
        status: this.dict.status.values,
        tm_type: this.dict.tm_type.values,
        filing_mode: this.dict.filing_mode.values,
        state: this.dict.state.values,
      },
      wordOffsets,
      markWords,
      markLen,
      exactIds: Uint32Array.from(exactIds),
      exactKeys: TextList.of(exactKeys),
      summary: this.summary.finish(order),
      ...posted,
      ...buildPairs(words.length, wordOffsets, markWords),
      ...buildOwnerWords(this.summary.ownerNames),
    };
  }

  private withRuns(vocab: Vocabulary, data: Omit<MarkData, RunField>): MarkData {
    return { ...data, ...buildRuns(vocab, data.wordOffsets, data.markWords) };
  }
}

/**
 * Word → marks: every mark holding the word, marks it begins, marks it ends, marks that are the word
 * alone; each list in mark order, with the marks' lengths beside their ids.
 */
function postings(n: number, v: number, wordOffsets: Uint32Array, markWords: Uint32Array, markLen: Uint16Array, info: Uint32Array) {
  const postOffsets = new Uint32Array(v + 1);
  const firstOffsets = new Uint32Array(v + 1);
  const lastOffsets = new Uint32Array(v + 1);
  const onlyOffsets = new Uint32Array(v + 1);
  // Whether markWords[p] is the first of its word in mark m: the few words before it are compared, or,
  // in a mark of many words (where comparing would cost their number squared), a stamp per word is read.
  const stamp = new Int32Array(v).fill(-1);
  let stampOf = 0;
  const distinct = (m: number, p: number) => {
    const s = wordOffsets[m];
    if (wordOffsets[m + 1] - s <= 16) {
      for (let q = s; q < p; q++) if (markWords[q] === markWords[p]) return false;
      return true;
    }
    const mark = stampOf + m;
    if (stamp[markWords[p]] === mark) return false;
    stamp[markWords[p]] = mark;
    return true;
  };
  for (let m = 0; m < n; m++) {
    const s = wordOffsets[m];
    const e = wordOffsets[m + 1];
    for (let p = s; p < e; p++) if (distinct(m, p)) postOffsets[markWords[p] + 1]++;
    firstOffsets[markWords[s] + 1]++;
    lastOffsets[markWords[e - 1] + 1]++;
    if (e - s === 1) onlyOffsets[markWords[s] + 1]++;
  }
  for (let w = 0; w < v; w++) {
    postOffsets[w + 1] += postOffsets[w];
    firstOffsets[w + 1] += firstOffsets[w];
    lastOffsets[w + 1] += lastOffsets[w];
    onlyOffsets[w + 1] += onlyOffsets[w];
  }
  const postMarks = new Uint32Array(postOffsets[v]);
  const postLen = new Uint16Array(postOffsets[v]);
  const postInfo = new Uint32Array(postOffsets[v]);
  const firstMarks = new Uint32Array(n);
  const firstLen = new Uint16Array(n);
  const firstInfo = new Uint32Array(n);
  const lastMarks = new Uint32Array(n);
  const lastLen = new Uint16Array(n);
  const lastInfo = new Uint32Array(n);
  const onlyMarks = new Uint32Array(onlyOffsets[v]);
  const onlyInfo = new Uint32Array(onlyOffsets[v]);
  const pf = postOffsets.slice(0, v);
  const ff = firstOffsets.slice(0, v);
  const lf = lastOffsets.slice(0, v);
  const of = onlyOffsets.slice(0, v);
  stampOf = n; // the second pass's stamps, told apart from the first's
  for (let m = 0; m < n; m++) {
    const s = wordOffsets[m];
    const e = wordOffsets[m + 1];
    const len = markLen[m];
    const x = info[m];
    for (let p = s; p < e; p++) {
      if (!distinct(m, p)) continue;
      const at = pf[markWords[p]]++;
      postMarks[at] = m;
      postLen[at] = len;
      postInfo[at] = x;
    }
    const f = ff[markWords[s]]++;
    firstMarks[f] = m;
    firstLen[f] = len;
    firstInfo[f] = x;
    const l = lf[markWords[e - 1]]++;
    lastMarks[l] = m;
    lastLen[l] = len;
    lastInfo[l] = x;
    if (e - s === 1) {
      const o = of[markWords[s]]++;
      onlyMarks[o] = m;
      onlyInfo[o] = x;
    }
  }
  return {
    postOffsets,
    postMarks,
    postLen,
    postInfo,
    firstOffsets,
    firstMarks,
    firstLen,
    firstInfo,
    lastOffsets,
    lastMarks,
    lastLen,
    lastInfo,
    onlyOffsets,
    onlyMarks,
    onlyInfo,
  };
}
