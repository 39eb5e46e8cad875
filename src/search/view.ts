import type { Bitset } from './bitset.ts';
import type { MarkIndex } from './markIndex.ts';
import type { PreparedQuery } from './query.ts';
import { related } from './related.ts';
import type { BriefRow, SummaryData } from './summaries.ts';
import type { After, Filter, IndexHit, IndexResult, MarkData } from './types.ts';

// The register as code outside search reads it (src/threats/): searches, the summaries of their hits,
// how many marks hold a word, and each index's words, the marks holding each word and each mark's
// words. Typed arrays, since threats read thousands of holders of a word per analysis. Only to be
// read, and only in the turn of the event loop that got it from the engine: the change feed replaces
// the index of recent changes, and hides marks, between turns (src/search/engine.ts).

/**
 * The arrays of an index that threats read (src/search/types.ts MarkData): word id → the marks holding
 * it and their packed facets (postMarks and postInfo [postOffsets[id], postOffsets[id + 1])); mark →
 * its word ids (markWords[wordOffsets[m], wordOffsets[m + 1])), application number, packed facets
 * (class in the low 6 bits, status code in the next 8), status labels by code and filing day.
 */
export type IndexArrays = Readonly<
  Pick<MarkData, 'postOffsets' | 'postMarks' | 'postInfo' | 'wordOffsets' | 'markWords' | 'appNo' | 'info'>
> & {
  readonly dict: Readonly<Pick<MarkData['dict'], 'status'>>;
  readonly summary: Readonly<Pick<SummaryData, 'applicationDays'>>;
};

/** One index of the register. */
export interface IndexView {
  readonly d: IndexArrays;
  /** How many words it has: word ids are below it. */
  readonly wordCount: number;
  /** A word's id, or -1. */
  wordId(word: string): number;
  /** Whether any of its words starts with `prefix`. */
  hasPrefix(prefix: string): boolean;
  word(id: number): string;
  /** How many marks hold word id (hidden ones too). */
  postings(id: number): number;
  /**
   * Its words that search takes for spelling variants or sound-alikes of `word` (src/search/related.ts), best first,
   * the word itself left out.
   */
  relatives(word: string): number[];
  /** Its words up to `edits` edits from `word` as spelled, with their distance (the vocabulary's deletion table). */
  variants(word: string, edits: number): Map<number, number>;
  /** Whether mark id is still searchable here (not changed or gone since the index was made). */
  isLive(id: number): boolean;
}

/** The whole register: a base index and, when marks changed since it was made, an index of those. */
export interface RegisterView {
  /** The base index first, then the index of recent changes if there is one: a hit from it carries `delta`. */
  readonly views: readonly IndexView[];
  search(q: PreparedQuery, filter: Filter, want: number, after: After | null): IndexResult;
  /** The first `want` hits of the query under each filter, as search() answers each (groups and a whole count only with `counts`). */
  searchEach(q: PreparedQuery, filters: Filter[], want: number, counts?: boolean): IndexResult[];
  /** The summary fields the analysis reads of hits just found (in the same turn of the event loop). */
  briefs(hits: IndexHit[]): BriefRow[];
  /** How many marks hold the word, in the classes flagged in `classes` when given. */
  holders(word: string, classes?: Uint8Array | null): number;
}

/** An IndexView of a MarkIndex and the marks hidden since it was made. */
export class IndexReader implements IndexView {
  readonly d: IndexArrays;
  readonly wordCount: number;

  constructor(
    private readonly ix: MarkIndex,
    private readonly hidden: Bitset,
  ) {
    this.d = ix.d;
    this.wordCount = ix.vocab.size;
  }

  wordId(word: string): number {
    return this.ix.vocab.id(word);
  }

  word(id: number): string {
    return this.ix.vocab.words.at(id);
  }

  hasPrefix(prefix: string): boolean {
    const [lo, hi] = this.ix.vocab.prefixRange(prefix);
    return hi > lo;
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
