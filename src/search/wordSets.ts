import { Bitset, bitmapWords } from './bitset.ts';
import type { Related } from './related.ts';
import type { MarkData } from './types.ts';

// Sets of marks as bitmaps, by the words they hold. Strategies that look candidates up in "the marks
// holding SHREE or a variant of it", "the marks holding a word ending in SAI" or "the marks holding a
// word beginning with S" pour those sets from postings; pouring a common one costs milliseconds, so
// the words held by many marks keep a bitmap from the start, and sets that cost much to pour are kept
// from query to query. Both are poured from the index's postings, which never change, so a kept set
// is the same whichever search poured it; a set not worth keeping goes into the search's own bitmaps.

/**
 * Words held by at least this many marks also keep their marks as a bitmap (under 1 MB each, a few
 * dozen words): a search that needs "the marks holding SHREE" as a set ORs it in a fraction of a
 * millisecond instead of setting 350,000 scattered bits.
 */
export const BITMAP_WORD = 32_768;
/** Sets costing this many postings or more to pour are kept (SHREE's relatives: 2.8 ms to pour). */
const KEPT_FROM = 16_384;
/**
 * How many sets are kept, the most recently used: at most 128, and at most KEPT_BYTES of bitmaps. A set is a bitmap
 * of the whole register (0.85 MB at 7.7M marks), kept by every API process: 128 of them were 109 MB a process,
 * a third of what a process may hold beside the machine's one index (docs/architecture.md, "One index per machine").
 * At 7.7M 98 are kept; the benchmark's 660 queries keep 83.
 */
const KEPT_SETS = 128;
export const KEPT_BYTES = 80 * 2 ** 20;

/** A search's scratch bitmaps (src/search/scratch.ts): bitmap(i) is its i-th, cleared. */
export interface BitmapPool {
  bitmap(i: number): Bitset;
}

/** A set of marks to pour, named by what it holds so that it can be kept: what pouring it costs, and how. */
export interface Pour {
  key: string;
  cost: number;
  fill: (b: Bitset) => void;
}

export class WordSets {
  private readonly n: number;
  private readonly wordSets = new Map<number, Bitset>();
  /** The words with a bitmap, ascending. */
  private readonly setWords: number[] = [];
  private readonly keptSets = new Map<string, Bitset>();
  private readonly keepAtMost: number;

  /** `from`: how many marks a word needs to keep a bitmap; `saved`: those bitmaps as a snapshot holds them, made with the same `from`. */
  constructor(
    private readonly d: MarkData,
    readonly from: number,
    saved?: Map<number, Bitset>,
  ) {
    this.n = d.appNo.length;
    this.keepAtMost = Math.max(1, Math.min(KEPT_SETS, Math.floor(KEPT_BYTES / (bitmapWords(this.n) * 4))));
    const words = d.postOffsets.length - 1;
    for (let w = 0; w < words; w++) {
      if (this.postings(w) < from) continue;
      let b = saved?.get(w);
      if (!b) {
        b = new Bitset(this.n);
        b.addAll(d.postMarks, d.postOffsets[w], d.postOffsets[w + 1]);
      }
      this.wordSets.set(w, b);
      this.setWords.push(w);
    }
  }

  /** The words' own bitmaps, by word (for the snapshot). */
  bitmaps(): Map<number, Bitset> {
    return this.wordSets;
  }

  private postings(word: number): number {
    return this.d.postOffsets[word + 1] - this.d.postOffsets[word];
  }

  /** Adds the marks holding `word` to `b`. */
  addWord(b: Bitset, word: number): void {
    const { postMarks, postOffsets } = this.d;
    if (postOffsets[word + 1] - postOffsets[word] >= this.from) b.or(this.wordSets.get(word)!);
    else b.addAll(postMarks, postOffsets[word], postOffsets[word + 1]);
  }

  /** Adds the marks holding any of the words [lo, hi) to `b`: one block of postings, but for the words with a bitmap. */
  addRange(b: Bitset, lo: number, hi: number): void {
    const { postMarks, postOffsets } = this.d;
    let from = lo;
    for (const w of this.setWords) {
      if (w < lo || w >= hi) continue;
      b.addAll(postMarks, postOffsets[from], postOffsets[w]);
      b.or(this.wordSets.get(w)!);
      from = w + 1;
    }
    b.addAll(postMarks, postOffsets[from], postOffsets[hi]);
  }

  /** What addWord costs, in postings poured. */
  addCost(word: number): number {
    const n = this.postings(word);
    return n >= this.from ? BITMAP_WORD / 4 : n;
  }

  /** What adding the words `ids` costs, in postings. */
  wordsCost(ids: ArrayLike<number>): number {
    let n = 0;
    for (let i = 0; i < ids.length; i++) n += this.addCost(ids[i]);
    return n;
  }

  /**
   * What adding the words [lo, hi) costs: their postings are one block, less what the words with a
   * bitmap spare (a prefix such as S spans 200,000 words; this reads a few dozen numbers).
   */
  rangeCost(lo: number, hi: number): number {
    let n = this.d.postOffsets[hi] - this.d.postOffsets[lo];
    for (const w of this.setWords) if (w >= lo && w < hi) n -= this.postings(w) - BITMAP_WORD / 4;
    return n;
  }

  /** The marks holding any of the words [lo, hi): the words with a prefix, one block of postings. */
  range(lo: number, hi: number): Pour {
    return { key: `words ${lo}-${hi}`, cost: this.rangeCost(lo, hi), fill: (b) => this.addRange(b, lo, hi) };
  }

  /** The marks holding any of the words `ids`, named `key` (what the words are: "ending SAI"). */
  anyOf(key: string, ids: ArrayLike<number>): Pour {
    return {
      key,
      cost: this.wordsCost(ids),
      fill: (b) => {
        for (let i = 0; i < ids.length; i++) this.addWord(b, ids[i]);
      },
    };
  }

  /**
   * The set `p` pours. Sets costing KEPT_FROM postings or more are kept for the next query needing
   * them, the last keepAtMost of them; the others are poured into the search's bitmap `into`. Only to be read.
   */
  kept(p: Pour, pool: BitmapPool, into: number): Bitset {
    if (p.cost < KEPT_FROM) {
      const b = pool.bitmap(into);
      p.fill(b);
      return b;
    }
    let b = this.keptSets.get(p.key);
    if (b) {
      this.keptSets.delete(p.key);
    } else {
      b = new Bitset(this.n);
      p.fill(b);
      if (this.keptSets.size >= this.keepAtMost) this.keptSets.delete(this.keptSets.keys().next().value!);
    }
    this.keptSets.set(p.key, b);
    return b;
  }

  /** The set kept under `key`, if it is kept. */
  keptAlready(key: string): Bitset | undefined {
    return this.keptSets.get(key);
  }

  /** The marks holding `word`: its own bitmap, or as `kept` gives them. Only to be read. */
  holdingWord(word: number, pool: BitmapPool, into: number): Bitset {
    return this.wordSets.get(word) ?? this.kept(this.anyOf(`word ${word}`, [word]), pool, into);
  }

  /** The marks holding a relative of query word `word` (`rel`), as `kept` gives them. Only to be read. */
  holdingAny(word: string, rel: readonly Related[], pool: BitmapPool, into: number): Bitset {
    return this.kept(
      this.anyOf(
        `relatives ${word}`,
        rel.map((r) => r.id),
      ),
      pool,
      into,
    );
  }
}
