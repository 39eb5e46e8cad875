import type { Bitset } from './bitset.ts';
import type { MarkIndex } from './markIndex.ts';
import type { PreparedQuery } from './query.ts';
import { related } from './related.ts';
import type { SummaryRow } from '../trademarks/repository.ts';
import type { After, Filter, IndexHit, IndexResult } from './types.ts';

// The register as code outside search reads it (src/threats/): searches, the summaries of their hits,
// how many marks hold a word, and each index's words, the marks holding each word and each mark's
// words. Typed arrays, since threats read thousands of holders of a word per analysis. Only to be
// read, and only in the turn of the event loop that got it from the engine: the change feed replaces
// the index of recent changes, and hides marks, between turns (src/search/engine.ts).

/** One index of the register. */
export interface IndexView {
  /** How many words it has: word ids are below it. */
  readonly wordCount: number;
  /** A word's id, or -1. */
  wordId(word: string): number;
  word(id: number): string;
  /** How many marks hold word id (hidden ones too). */
  postings(id: number): number;
  /** Its words that search takes for spelling variants or sound-alikes of `word` (src/search/related.ts), best first, the word itself left out. */
  relatives(word: string): number[];
  /** Its words up to `edits` edits from `word` as spelled, with their distance (the vocabulary's deletion table). */
  variants(word: string, edits: number): Map<number, number>;
  /** Word id → the marks holding it and their packed facets: postMarks and postInfo [postOffsets[id], postOffsets[id + 1]). */
  readonly postOffsets: Uint32Array;
  readonly postMarks: Uint32Array;
  readonly postInfo: Uint32Array;
  /** Mark → its word ids: markWords[wordOffsets[m], wordOffsets[m + 1]). */
  readonly wordOffsets: Uint32Array;
  readonly markWords: Uint32Array;
  readonly appNo: Float64Array;
  /** Each mark's packed facets (src/search/types.ts packInfo: class in the low 6 bits, status code in the next 8). */
  readonly info: Uint32Array;
  /** Each mark's filing day (days since 1970). */
  readonly applicationDays: Int32Array;
  /** Status labels by code. */
  readonly statuses: readonly string[];
  /** Whether mark id is still searchable here (not changed or gone since the index was made). */
  isLive(id: number): boolean;
}

/** The whole register: a base index and, when marks changed since it was made, an index of those. */
export interface RegisterView {
  /** The base index first, then the index of recent changes if there is one: a hit from it carries `delta`. */
  readonly views: readonly IndexView[];
  search(q: PreparedQuery, filter: Filter, want: number, after: After | null): IndexResult;
  /** The summaries of hits just found (in the same turn of the event loop). */
  summaries(hits: IndexHit[]): SummaryRow[];
  /** How many marks hold the word, in the classes flagged in `classes` when given. */
  holders(word: string, classes?: Uint8Array | null): number;
}

/** An IndexView of a MarkIndex and the marks hidden since it was made. */
export class IndexReader implements IndexView {
  readonly wordCount: number;
  readonly postOffsets: Uint32Array;
  readonly postMarks: Uint32Array;
  readonly postInfo: Uint32Array;
  readonly wordOffsets: Uint32Array;
  readonly markWords: Uint32Array;
  readonly appNo: Float64Array;
  readonly info: Uint32Array;
  readonly applicationDays: Int32Array;
  readonly statuses: readonly string[];

  constructor(private readonly ix: MarkIndex, private readonly hidden: Bitset) {
    const d = ix.d;
    this.wordCount = ix.vocab.size;
    this.postOffsets = d.postOffsets;
    this.postMarks = d.postMarks;
    this.postInfo = d.postInfo;
    this.wordOffsets = d.wordOffsets;
    this.markWords = d.markWords;
    this.appNo = d.appNo;
    this.info = d.info;
    this.applicationDays = d.summary.applicationDays;
    this.statuses = d.dict.status;
  }

  wordId(word: string): number {
    return this.ix.vocab.id(word);
  }

  word(id: number): string {
    return this.ix.vocab.words[id];
  }

  postings(id: number): number {
    return this.ix.postings(id);
  }

  relatives(word: string): number[] {
    return related(this.ix.vocab, word, false).map((r) => r.id);
  }

  variants(word: string, edits: number): Map<number, number> {
    return this.ix.vocab.variants(word, edits);
  }

  isLive(id: number): boolean {
    return !this.hidden.has(id);
  }
}
