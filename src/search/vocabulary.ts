import { distanceFrom } from './editDistance.ts';
import { fnv1a, partitionPoint, radixSortPairs } from './hash.ts';
import { phoneticCodes } from './normalise.ts';
import { TextList } from './textList.ts';

// Every distinct word of the register, sorted, with the word-level lookups SMART search needs:
// exact word, words with a prefix (a range of the sorted list), words with a suffix (a range of the
// list sorted by reversed spelling), words containing a substring (trigrams of the vocabulary),
// spelling variants (a table of deletions: two words within k edits share a string reached by at
// most k deletions from each) and sound-alikes (words by phonetic code). Marks are found from words
// through the postings of MarkIndex.

export interface VocabularyData {
  /** Kept as bytes (a loaded snapshot's, mapped), decoded when read: as strings, with the codes, 70 MiB of every process's heap at 7.7M. */
  words: TextList;
  /** Word ids ordered by reversed spelling. */
  reversed: Uint32Array;
  /** Trigram code → word ids containing it (CSR). */
  gramOffsets: Uint32Array;
  gramWords: Uint32Array;
  /**
   * Hashes of every word and of its deletions (1 for all words, 2 as well from six letters), sorted; the word
   * of each. Words longer than VARIANT_WORD_MAX are not in it.
   */
  delHashes: Uint32Array;
  delWords: Uint32Array;
  /** Phonetic codes, sorted, → word ids (CSR). */
  codes: TextList;
  codeOffsets: Uint32Array;
  codeWords: Uint32Array;
  /** Word id → index in `codes` of its primary code, NO_CODE when it has none. */
  primary: Uint32Array;
}

export const NO_CODE = 0xffffffff;

const ALPHABET = 37;
const GRAMS = ALPHABET ** 3;
// Words of at least this length are indexed with two deletions (a query word of eight letters may be
// two edits from one of six).
const TWO_DELETIONS_FROM = 6;
/**
 * Longer words have no spelling variants and are no word's variant: a word's deletions grow with the
 * square of its length (a 200,000-letter word would need 2·10^10 of them). Such words are still found as
 * words, by prefix, suffix and substring.
 */
export const VARIANT_WORD_MAX = 32;

/** How many entries a word has in the table of deletions. */
function deletions(length: number): number {
  if (length > VARIANT_WORD_MAX) return 0;
  return 1 + length + (length >= TWO_DELETIONS_FROM ? (length * (length - 1)) / 2 : 0);
}

function charIndex(c: number): number {
  if (c >= 65 && c <= 90) return c - 65;
  if (c >= 48 && c <= 57) return c - 22;
  return 36;
}

function gramAt(w: string, i: number): number {
  return (charIndex(w.charCodeAt(i)) * ALPHABET + charIndex(w.charCodeAt(i + 1))) * ALPHABET + charIndex(w.charCodeAt(i + 2));
}

/** Calls f(id, gram) once for every distinct trigram of every word, words in id order. */
function eachDistinctGram(words: string[], f: (id: number, gram: number) => void): void {
  const seen = new Int32Array(GRAMS).fill(-1);
  for (let id = 0; id < words.length; id++) {
    const w = words[id];
    for (let i = 0; i + 3 <= w.length; i++) {
      const g = gramAt(w, i);
      if (seen[g] !== id) {
        seen[g] = id;
        f(id, g);
      }
    }
  }
}

const reverse = (s: string) => s.split('').reverse().join('');

export class Vocabulary {
  readonly words: TextList;

  constructor(readonly d: VocabularyData) {
    this.words = d.words;
  }

  get size(): number {
    return this.words.length;
  }

  /** Builds the lookups for a sorted, duplicate-free word list. */
  static build(words: string[]): Vocabulary {
    const n = words.length;
    const reversed = Uint32Array.from({ length: n }, (_, i) => i);
    const rev = words.map(reverse);
    reversed.sort((a, b) => (rev[a] < rev[b] ? -1 : rev[a] > rev[b] ? 1 : 0));

    // Trigrams: count, then fill (word ids come out ascending in every list).
    const gramCount = new Uint32Array(GRAMS + 1);
    eachDistinctGram(words, (_, g) => gramCount[g + 1]++);
    for (let g = 0; g < GRAMS; g++) gramCount[g + 1] += gramCount[g];
    const gramOffsets = gramCount.slice();
    const gramWords = new Uint32Array(gramOffsets[GRAMS]);
    const fill = gramOffsets.slice(0, GRAMS);
    eachDistinctGram(words, (id, g) => (gramWords[fill[g]++] = id));

    // Deletions.
    let total = 0;
    for (const w of words) total += deletions(w.length);
    const hashes = new Uint32Array(total);
    const owners = new Uint32Array(total);
    let k = 0;
    for (let id = 0; id < n; id++) {
      const w = words[id];
      if (w.length > VARIANT_WORD_MAX) continue;
      hashes[k] = fnv1a(w);
      owners[k++] = id;
      for (let i = 0; i < w.length; i++) {
        hashes[k] = fnv1a(w, i);
        owners[k++] = id;
      }
      if (w.length >= TWO_DELETIONS_FROM) {
        for (let i = 0; i < w.length; i++) {
          for (let j = i + 1; j < w.length; j++) {
            hashes[k] = fnv1a(w, i, j);
            owners[k++] = id;
          }
        }
      }
    }
    const dels = radixSortPairs(hashes, owners);

    // Phonetic codes.
    const byCode = new Map<string, number[]>();
    const primaryCode: string[] = new Array(n);
    for (let id = 0; id < n; id++) {
      const all = phoneticCodes(words[id]);
      primaryCode[id] = all[0] ?? '';
      for (const c of all) {
        const list = byCode.get(c);
        if (list) list.push(id);
        else byCode.set(c, [id]);
      }
    }
    const codes = [...byCode.keys()].sort();
    const codeOffsets = new Uint32Array(codes.length + 1);
    codes.forEach((c, i) => (codeOffsets[i + 1] = codeOffsets[i] + byCode.get(c)!.length));
    const codeWords = new Uint32Array(codeOffsets[codes.length]);
    codes.forEach((c, i) => codeWords.set(byCode.get(c)!, codeOffsets[i]));
    const codeIndex = new Map(codes.map((c, i) => [c, i]));
    const primary = Uint32Array.from(primaryCode, (c) => codeIndex.get(c) ?? NO_CODE);

    return new Vocabulary({
      words: TextList.of(words),
      reversed,
      gramOffsets,
      gramWords,
      delHashes: dels.keys,
      delWords: dels.values,
      codes: TextList.of(codes),
      codeOffsets,
      codeWords,
      primary,
    });
  }

  /** The word's id, or -1. */
  id(word: string): number {
    const words = this.words;
    const lo = partitionPoint(0, words.length, (i) => words.compareAt(i, word) < 0);
    return lo < words.length && words.compareAt(lo, word) === 0 ? lo : -1;
  }

  /** Ids [lo, hi) of the words starting with `p`. */
  prefixRange(p: string): [number, number] {
    const words = this.words;
    const lo = partitionPoint(0, words.length, (i) => words.compareAt(i, p) < 0);
    return [lo, partitionPoint(lo, words.length, (i) => words.startsWithAt(i, p))];
  }

  /** Ids of the words ending with `s`. */
  withSuffix(s: string): Uint32Array {
    const r = reverse(s);
    const order = this.d.reversed;
    const words = this.words;
    const lo = partitionPoint(0, order.length, (i) => words.compareReversedAt(order[i], r) < 0);
    return order.subarray(
      lo,
      partitionPoint(lo, order.length, (i) => words.endsWithAt(order[i], s)),
    );
  }

  /** Ids of the words containing `s` (three characters or more), ascending. */
  containing(s: string): number[] {
    const { gramOffsets, gramWords } = this.d;
    // The two rarest trigrams of s; their lists (ascending) are intersected before any word is read.
    let g1 = -1;
    let g2 = -1;
    const size = (g: number) => gramOffsets[g + 1] - gramOffsets[g];
    for (let i = 0; i + 3 <= s.length; i++) {
      const g = gramAt(s, i);
      if (g === g1 || g === g2) continue;
      if (g1 < 0 || size(g) < size(g1)) {
        g2 = g1;
        g1 = g;
      } else if (g2 < 0 || size(g) < size(g2)) {
        g2 = g;
      }
    }
    const out: number[] = [];
    if (g1 < 0) return out;
    let a = gramOffsets[g1];
    const aEnd = gramOffsets[g1 + 1];
    if (g2 < 0) {
      for (; a < aEnd; a++) if (this.words.includesAt(gramWords[a], s)) out.push(gramWords[a]);
      return out;
    }
    let b = gramOffsets[g2];
    const bEnd = gramOffsets[g2 + 1];
    while (a < aEnd && b < bEnd) {
      const x = gramWords[a];
      const y = gramWords[b];
      if (x < y) a++;
      else if (y < x) b++;
      else {
        if (this.words.includesAt(x, s)) out.push(x);
        a++;
        b++;
      }
    }
    return out;
  }

  /** Words within `max` edits of `w` (itself excluded), with their distance. */
  variants(w: string, max: number): Map<number, number> {
    const found = new Map<number, number>();
    // No word of the table is within reach of a longer one (and probing would cost its length squared).
    if (max <= 0 || w.length > VARIANT_WORD_MAX + max) return found;
    const distance = distanceFrom(w);
    const probe = (h: number) => {
      const { delHashes, delWords } = this.d;
      for (let p = partitionPoint(0, delHashes.length, (i) => delHashes[i] < h); p < delHashes.length && delHashes[p] === h; p++) {
        const id = delWords[p];
        if (found.has(id)) continue;
        const d = distance(this.words.at(id), max);
        found.set(id, d);
      }
    };
    probe(fnv1a(w));
    for (let i = 0; i < w.length; i++) probe(fnv1a(w, i));
    if (max >= 2) for (let i = 0; i < w.length; i++) for (let j = i + 1; j < w.length; j++) probe(fnv1a(w, i, j));
    for (const [id, d] of found) if (d === 0 || d > max) found.delete(id);
    return found;
  }

  /** The primary phonetic code of a word of the register ('' when it has none). */
  code(id: number): string {
    const c = this.d.primary[id];
    return c === NO_CODE ? '' : this.d.codes.at(c);
  }

  /** Words sharing a phonetic code with `w` (itself included when it is a word of the register). */
  soundAlikes(w: string): Set<number> {
    const out = new Set<number>();
    const { codes, codeOffsets, codeWords } = this.d;
    for (const c of phoneticCodes(w)) {
      const lo = partitionPoint(0, codes.length, (i) => codes.at(i) < c);
      if (lo === codes.length || codes.at(lo) !== c) continue;
      for (let p = codeOffsets[lo]; p < codeOffsets[lo + 1]; p++) out.add(codeWords[p]);
    }
    return out;
  }
}
