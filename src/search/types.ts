import type { OwnerData } from './owners.ts';
import type { PairData } from './pairs.ts';
import type { SummaryData } from './summaries.ts';
import type { TextList } from './textList.ts';

// The shapes every layer of search shares: an index's data as built or loaded (MarkData), the
// posting families strategies read, a search's filter and cursor, and what it answers. Nothing here
// depends on anything else of search but the pairs', owners' and summaries' data.

export const FACETS = ['status', 'tm_type', 'filing_mode', 'state', 'class_number'] as const;
export type Facet = (typeof FACETS)[number];

/** Facet columns packed in one 32-bit word per mark: class 6 bits, status 8, type 4, filing mode 6, state 8. */
export function packInfo(cls: number, status: number, tmType: number, filingMode: number, state: number): number {
  return (cls | (status << 6) | (tmType << 14) | (filingMode << 18) | (state << 24)) >>> 0;
}
export const INFO_LIMITS = { status: 256, tm_type: 16, filing_mode: 64, state: 256 };

/**
 * The index of one set of marks as built or loaded (src/search/build.ts, snapshot.ts): marks numbered
 * in application-number order, as sequences of word ids, with packed facet columns, and postings
 * from words to marks. Never changed once made.
 */
export interface MarkData extends PairData, OwnerData {
  appNo: Float64Array;
  info: Uint32Array;
  /** Each mark's place in the order of normalised word marks (src/search/order.ts). */
  rank: Uint32Array;
  /** Values of the dictionary-coded facets; '' stands for no value. */
  dict: { status: string[]; tm_type: string[]; filing_mode: string[]; state: string[] };
  wordOffsets: Uint32Array;
  markWords: Uint32Array;
  markLen: Uint16Array;
  /** Marks whose EXACT key differs from their normalised words (punctuation, accents), ids ascending. */
  exactIds: Uint32Array;
  /** Their EXACT keys, in the same order: bytes decoded when read (src/search/textList.ts). */
  exactKeys: TextList;
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
  /** Ready answers and word bitmaps made before (a snapshot's, src/search/readyData.ts); absent in an index just built. */
  ready?: ReadyData;
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
  /** Status labels to keep (a mark with any of them), or null for every status. */
  status: string[] | null;
  /** Values of the other facets to keep, as the register spells them; absent or null for every value. */
  tm_type?: string[] | null;
  filing_mode?: string[] | null;
  state?: string[] | null;
  /** Inclusive ranges of days since 1970-01-01; a mark without an expiry date is in no expiry range. */
  applicationDays?: DayRange | null;
  expireDays?: DayRange | null;
  /** Normalised words each of which a word of the mark's proprietor name must be (src/search/owners.ts). */
  proprietor?: string[] | null;
}

export interface DayRange {
  from: number;
  to: number;
}

export const SORT_FIELDS = ['application_date', 'expire_at', 'word_mark'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/**
 * An order other than relevance: by a field (word_mark: the normalised mark), ascending or descending,
 * ties by application number in the same direction; marks without an expiry date come last either way.
 */
export interface Sort {
  field: SortField;
  desc: boolean;
  /** Where a page starts: after this value and application number in the order. */
  after: SortAfter | null;
}

export interface SortAfter {
  /** Days since 1970-01-01 (null: no expiry date), or the normalised word mark. */
  value: number | string | null;
  appNo: number;
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
  /** Under a sort, the hit's value of the sorted field (as SortAfter.value). */
  value?: number | string | null;
}

export interface IndexResult {
  count: number;
  groups: Record<Facet, Map<string, number>>;
  hits: IndexHit[];
}

export const MAX_DIST = 15;
export const MAX_LEN = 1023;
/** How many sort keys there are: every (distance, length) within the limits. */
export const SORT_KEYS = (MAX_DIST + 1) * (MAX_LEN + 1);

export function sortKey(dist: number, len: number): number {
  return Math.min(dist, MAX_DIST) * (MAX_LEN + 1) + Math.min(len, MAX_LEN);
}

/** The ready answers and word bitmaps a snapshot holds, packed (src/search/readyData.ts): where one answer lies. */
export interface SavedAnswer {
  /** A short prefix, or a word id searched alone. */
  prefix?: string;
  word?: number;
  /** [offset, length] of each part in marks, keys and info. */
  parts: [number, number][];
  /** Offset of its counts; of its marks' bitmap for a word (words of `bitmapWords` each). */
  counts: number;
  holds?: number;
}

export interface ReadyData {
  answers: SavedAnswer[];
  /** How many marks a word needed to keep a bitmap (src/search/wordSets.ts) when these were made. */
  bitmapFrom: number;
  marks: Uint32Array;
  keys: Uint16Array;
  info: Uint32Array;
  counts: Uint32Array;
  holds: Int32Array;
  /** Words that keep a bitmap of their marks, and the bitmaps one after the other. */
  setWords: Uint32Array;
  sets: Int32Array;
}
