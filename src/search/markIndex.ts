import { Bitset } from './bitset.ts';
import { runIn } from './gather.ts';
import { partitionPoint } from './hash.ts';
import { OwnerSearch } from './owners.ts';
import { type ReadyEntries, unpackReady } from './readyData.ts';
import { Summaries } from './summaries.ts';
import type { MarkData, Postings } from './types.ts';
import type { Vocabulary } from './vocabulary.ts';
import { BITMAP_WORD, WordSets } from './wordSets.ts';

/**
 * How many marks a search's list of admitted marks (and their keys, 6 bytes a mark) starts with; it doubles, as far as
 * the whole register, for a search that admits more. Sized for the register from the start it was 46 MB in every
 * process at 7.7M marks, where most searches admit a few thousand (bench/RESULTS.md, "One index per machine").
 */
export const MEMBERS_FROM = 1 << 20;

// The in-memory index of one set of marks (the register as built, or the marks changed since):
// marks as sequences of word ids, packed facet columns, and postings from words to marks. Marks are
// numbered in application-number order. Postings carry each mark's length and packed facets beside
// its id, so a search reads them front to back and never looks a mark up: at 7.7M marks, one random
// memory access per match would cost more than everything else together.
//
// Immutable once made: what changes as the register does (the marks hidden since, the answers kept
// ready) is src/search/liveIndex.ts's, and what a search works in is its own scratch
// (src/search/scratch.ts). The one thing kept here besides the data is a cache of bitmaps poured
// from its postings (src/search/wordSets.ts), the same whichever search poured them.

export class MarkIndex {
  readonly n: number;
  /** Bitmaps of the marks holding common words, and those kept from query to query. */
  readonly sets: WordSets;
  readonly summaries: Summaries;
  /** The posting families: every mark holding a word, the marks it begins, ends, or is alone in. */
  readonly post: Postings;
  readonly first: Postings;
  readonly last: Postings;
  readonly only: Postings;
  /** Owners by the words of their names (the proprietor filter). */
  readonly owners: OwnerSearch;
  // Which marks have an override, as bits: EXACT asks for every mark of a common word (100,000 for SHREE),
  // and a miss in a Map of a million keys cost EXACT searches a tenth of their time.
  private readonly overridden: Bitset;
  private marksByRank: Uint32Array | null = null;
  /** The ready answers a snapshot brought, until the live index over this one takes them (once). */
  private ready: ReadyEntries | null;

  /**
   * `bitmapFrom`: how many marks a word needs to keep a bitmap of them. `partialClassify`: how many of
   * partial matching's candidates are classified (src/search/partial.ts); past them, the marks of the
   * remaining query words are placed by that word alone (reading a mark's words is a cache miss or two:
   * at 7.7M marks a word such as SUNRISE has 13,000 holders). Tests lower both to reach those paths on
   * small registers. `membersFrom`: how many marks a search's list of admitted marks starts with (src/search/scratch.ts);
   * tests lower it to make it grow.
   */
  constructor(
    readonly vocab: Vocabulary,
    readonly d: MarkData,
    bitmapFrom = BITMAP_WORD,
    readonly partialClassify = 4096,
    readonly membersFrom = MEMBERS_FROM,
  ) {
    this.n = d.appNo.length;
    this.overridden = new Bitset(this.n);
    for (const id of d.exactIds) this.overridden.add(id);
    const saved = d.ready ? unpackReady(this.n, d.ready) : null;
    this.ready = saved;
    this.sets = new WordSets(d, bitmapFrom, saved && d.ready?.bitmapFrom === bitmapFrom ? saved.sets : undefined);
    this.summaries = new Summaries(d.summary, d.appNo, d.info, d.dict, (id) => this.text(id));
    this.post = { offsets: d.postOffsets, marks: d.postMarks, len: d.postLen, info: d.postInfo };
    this.first = { offsets: d.firstOffsets, marks: d.firstMarks, len: d.firstLen, info: d.firstInfo };
    this.last = { offsets: d.lastOffsets, marks: d.lastMarks, len: d.lastLen, info: d.lastInfo };
    this.only = { offsets: d.onlyOffsets, marks: d.onlyMarks, len: null, info: d.onlyInfo };
    this.owners = new OwnerSearch(d, d.summary.owners.offsets.length - 1);
  }

  /** Ready answers made over this index with nothing hidden (by the snapshot's writer), for the next live index to take. */
  offerReady(entries: ReadyEntries): void {
    this.ready = entries;
  }

  /**
   * The ready answers the snapshot brought, to the first caller only: their counts are changed by the live index
   * that takes them (src/search/liveIndex.ts), so no second one may count in them.
   */
  takeReady(): ReadyEntries | null {
    const r = this.ready;
    this.ready = null;
    return r;
  }

  /** Marks in the order of their normalised word marks (d.rank inverted), made when a cursor first needs it. */
  byRank(): Uint32Array {
    if (!this.marksByRank) {
      const rank = this.d.rank;
      const by = new Uint32Array(rank.length);
      for (let m = 0; m < rank.length; m++) by[rank[m]] = m;
      this.marksByRank = by;
    }
    return this.marksByRank;
  }

  /** How many marks hold the word. */
  postings(word: number): number {
    return this.d.postOffsets[word + 1] - this.d.postOffsets[word];
  }

  /** The id of an application number, or -1. */
  idOf(appNo: number): number {
    const a = this.d.appNo;
    const lo = partitionPoint(0, a.length, (i) => a[i] < appNo);
    return lo < a.length && a[lo] === appNo ? lo : -1;
  }

  /** The normalised text of a mark, from its words. */
  text(id: number): string {
    const { wordOffsets, markWords } = this.d;
    const out: string[] = [];
    for (let p = wordOffsets[id]; p < wordOffsets[id + 1]; p++) out.push(this.vocab.words.at(markWords[p]));
    return out.join(' ');
  }

  /** The mark's EXACT key when it differs from its normalised words (punctuation, accents). */
  exactKey(id: number): string | undefined {
    if (!this.overridden.has(id)) return undefined;
    // exactIds ascend: the override's place among them, its key decoded from the snapshot's bytes.
    return this.d.exactKeys.at(partitionPoint(0, this.d.exactIds.length, (i) => this.d.exactIds[i] < id));
  }

  /** Position of the first run of `ids` in mark m, or -1. */
  findSequence(m: number, ids: number[]): number {
    return runIn(this.d.markWords, this.d.wordOffsets[m], this.d.wordOffsets[m + 1], ids);
  }
}
