import { Bitset } from './bitset.ts';
import { partitionPoint } from './hash.ts';
import { normaliseMark, wordsOf } from './normalise.ts';
import { TextList } from './textList.ts';

// The `proprietor` filter: proprietor names searched by their words, normalised as word marks are
// (TATA MOTORS finds "Tata Motors Ltd." and "M/s. TATA MOTORS"). Every query word must be a word of
// the name, in any order; a query word of three characters or more may also begin one (TATA MOT finds
// TATA MOTORS). Names are the index's owners, each distinct name once (src/search/summaries.ts: a
// mark's owner id), so the lists are a quarter of what one per mark would be: at 7.7M marks about
// 2M names of three or four words. A search's answer is a bitmap over owners, 250 KB at that size,
// which the filter reads through the mark's owner id.

export interface OwnerData {
  /** Distinct words of the owners' names, sorted: bytes decoded when read (src/search/textList.ts). */
  ownerWords: TextList;
  /** Word i → the owners whose name holds it, ascending: ownerPostings[ownerWordOffsets[i], ownerWordOffsets[i + 1]). */
  ownerWordOffsets: Uint32Array;
  ownerPostings: Uint32Array;
}

/** A query word of this many characters or more also matches the words it begins. */
export const OWNER_PREFIX_FROM = 3;

/** The word lists of owner names given in owner order. */
export function buildOwnerWords(names: string[]): OwnerData {
  const ids = new Map<string, number>();
  const list: string[] = [];
  /** The last owner each word was seen in. */
  const seenIn: number[] = [];
  let tokens = new Uint32Array(Math.max(1024, names.length * 4));
  const starts = new Uint32Array(names.length + 1);
  let t = 0;
  for (let o = 0; o < names.length; o++) {
    starts[o] = t;
    const words = wordsOf(normaliseMark(names[o]));
    if (t + words.length > tokens.length) {
      const grown = new Uint32Array(Math.max(2 * tokens.length, t + words.length));
      grown.set(tokens);
      tokens = grown;
    }
    for (const w of words) {
      let id = ids.get(w);
      if (id === undefined) {
        id = list.length;
        ids.set(w, id);
        list.push(w);
        seenIn.push(-1);
      }
      // A word twice in one name is one posting.
      if (seenIn[id] === o) continue;
      seenIn[id] = o;
      tokens[t++] = id;
    }
  }
  starts[names.length] = t;
  const sorted = list.slice().sort();
  const finalId = new Uint32Array(list.length);
  sorted.forEach((w, i) => (finalId[ids.get(w)!] = i));
  const offsets = new Uint32Array(sorted.length + 1);
  for (let q = 0; q < t; q++) offsets[finalId[tokens[q]] + 1]++;
  for (let i = 0; i < sorted.length; i++) offsets[i + 1] += offsets[i];
  const fill = offsets.slice(0, sorted.length);
  const postings = new Uint32Array(t);
  for (let o = 0; o < names.length; o++) for (let q = starts[o]; q < starts[o + 1]; q++) postings[fill[finalId[tokens[q]]]++] = o;
  return { ownerWords: TextList.of(sorted), ownerWordOffsets: offsets, ownerPostings: postings };
}

const KEPT = 16;

/** Finds owners by the words of their names. */
export class OwnerSearch {
  // The last few answers: paging through a proprietor's marks asks the same again.
  private readonly kept = new Map<string, Bitset>();

  constructor(
    private readonly d: OwnerData,
    private readonly owners: number,
  ) {}

  /** The owners whose names match every one of `words` (normalised); see the top of this file. */
  matching(words: string[]): Bitset {
    const key = words.join(' ');
    const kept = this.kept.get(key);
    if (kept) {
      this.kept.delete(key);
      this.kept.set(key, kept);
      return kept;
    }
    const { ownerWords: list, ownerWordOffsets: offsets, ownerPostings: postings } = this.d;
    const ranges = words.map((w): [number, number] => {
      const lo = partitionPoint(0, list.length, (i) => list.at(i) < w);
      if (w.length < OWNER_PREFIX_FROM) return [lo, lo < list.length && list.at(lo) === w ? lo + 1 : lo];
      return [lo, partitionPoint(lo, list.length, (i) => list.at(i).startsWith(w))];
    });
    const size = ([lo, hi]: [number, number]) => offsets[hi] - offsets[lo];
    ranges.sort((a, b) => size(a) - size(b));
    const out = new Bitset(this.owners);
    if (ranges.length) out.addAll(postings, offsets[ranges[0][0]], offsets[ranges[0][1]]);
    if (ranges.length > 1) {
      const other = new Bitset(this.owners);
      for (const r of ranges.slice(1)) {
        other.clear();
        other.addAll(postings, offsets[r[0]], offsets[r[1]]);
        out.and(other);
      }
    }
    this.kept.set(key, out);
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return out;
  }
}
