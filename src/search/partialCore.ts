import type { Bitset } from './bitset.ts';
import type { MarkIndex } from './markIndex.ts';
import type { Related } from './related.ts';
import type { SearchScratch } from './scratch.ts';

// The first candidates of partial matching (src/search/partial.ts): the marks holding every word of a
// core of the query (every word but the connecting ones; every distinctive one), each word as spelled,
// a variant, a sound-alike, joined with a neighbour or split (usefulSplits: OMSUPER as OM SUPER, NO1
// as NO 1 too, since the other words' holders narrow them). The intersection of their holders is small
// however common each word is alone (THE ANAND GULAB: ANAND GULAB; JAIGOLD KISAN AGRO: JAI GOLD KISAN
// AGRO), and its marks are the best partial matches.

/** A query word and the other forms a mark may hold it in. */
export interface CoreWord {
  word: string;
  rel: readonly Related[];
  /** Words of the register that are this word joined with its neighbours. */
  joins: number[];
  /** Ways the word splits into words of the register. */
  splits: number[][];
  /** Those of them worth a bitmap (usefulSplits), found once per query word. */
  useful: number[][];
}

// Scratch bitmaps (src/search/scratch.ts): 2 and 3 hold classify's and partial matching's marks.
const ACC = 4;
const POUR = 5;
/** Where a split search keeps each core's bitmap for its other filters (a search reads two cores at most). */
const KEPT_CORE = 9;

/** The marks holding `c` in any of its forms: its relatives' bitmap, or (with joins or splits) bitmaps from POUR on. */
function holding(ix: MarkIndex, s: SearchScratch, c: CoreWord): Bitset {
  const base = ix.sets.holdingAny(c.word, c.rel, s, POUR);
  if (!c.joins.length && !c.useful.length) return base;
  const h = s.bitmap(POUR + 1);
  h.copy(base);
  for (const j of c.joins) ix.sets.addWord(h, j);
  for (const parts of c.useful) addHoldingAll(ix, s, h, parts);
  return h;
}

/**
 * Adds to `h` the marks holding every word of `parts`, read from the postings of the part fewest marks
 * hold and looked up in the others' bitmaps. Intersecting whole bitmaps instead cost three passes over
 * a bitmap of the register per split, the largest share of a several-word search's time.
 */
function addHoldingAll(ix: MarkIndex, s: SearchScratch, h: Bitset, parts: number[]): void {
  const { postMarks, postOffsets } = ix.d;
  const [least, ...others] = [...parts].sort((a, b) => ix.postings(a) - ix.postings(b));
  const from = postOffsets[least];
  const to = postOffsets[least + 1];
  if (others.length === 1) {
    const b = ix.sets.holdingWord(others[0], s, POUR + 3);
    for (let p = from; p < to; p++) if (b.has(postMarks[p])) h.add(postMarks[p]);
    return;
  }
  let marks: number[] = [];
  for (let p = from; p < to; p++) marks.push(postMarks[p]);
  for (const w of others) {
    const b = ix.sets.holdingWord(w, s, POUR + 3);
    marks = marks.filter((m) => b.has(m));
  }
  for (const m of marks) h.add(m);
}

/**
 * The marks holding every word of `rest`. The same for every filter of a split search (partial matching
 * runs once per filter, src/search/partialGroups.ts): the first filter's is kept for the others.
 */
function holdingRest(ix: MarkIndex, s: SearchScratch, rest: CoreWord[]): Bitset {
  const memo = s.coreMemo;
  const key = rest.map((c) => c.word).join(' ');
  const kept = memo?.get(key);
  if (kept) return kept;
  let others = holding(ix, s, rest[0]);
  if (rest.length > 1) {
    const acc = s.bitmap(ACC);
    acc.copy(others);
    for (const c of rest.slice(1)) acc.and(holding(ix, s, c));
    others = acc;
  }
  if (!memo || memo.size >= 2) return others;
  const copy = s.bitmap(KEPT_CORE + memo.size);
  copy.copy(others);
  memo.set(key, copy);
  return copy;
}

/**
 * The splits worth a bitmap: parts of three letters or more, a particle of one or two glued to a
 * word of four or more (OMSUPER, DRHEERA), or a number beside letters (NO1). Other short parts (KI
 * SAN, GR EEN) are held by too many marks to mean anything.
 */
export function usefulSplits(ix: MarkIndex, splits: number[][]): number[][] {
  const vw = ix.vocab.words;
  return splits.filter((parts) => {
    const lens = parts.map((p) => vw.lengthOf(p));
    if (lens.every((n) => n >= 3)) return true;
    if (parts.length === 2 && Math.min(...lens) <= 2 && Math.max(...lens) >= 4) return true;
    return parts.some((p) => /\d/.test(vw.at(p)));
  });
}

/**
 * Pushes to the search's candidates, up to `max`, the marks holding every word of `core` (none of
 * them in `skip` or `visited`; each added to `visited`). They are read from the postings of the core
 * word cheapest to read that the register holds as spelled, does not split, and is
 * held alone more often than joined with its neighbours (a mark is likeliest to hold the others in
 * another form), failing that one that does not split, and looked up in the bitmaps of the others.
 */
export function readCore(ix: MarkIndex, s: SearchScratch, core: CoreWord[], skip: Bitset | null, visited: Bitset, max: number): void {
  if (core.length < 2) return;
  const cost = (c: CoreWord) => c.rel.reduce((n, r) => n + ix.postings(r.id), 0);
  const byCost = [...core].sort((a, b) => cost(a) - cost(b));
  const whole = (c: CoreWord) => c.useful.length === 0;
  const self = (c: CoreWord) => c.rel.find((r) => r.level === 0);
  const own = (c: CoreWord) => whole(c) && self(c) !== undefined;
  // Held as spelled more often than joined (SRI, not RET beside AIL: RETAIL).
  const mostlyAlone = (c: CoreWord) => c.joins.reduce((n, j) => n + ix.postings(j), 0) < ix.postings(self(c)!.id);
  const source = byCost.find((c) => own(c) && mostlyAlone(c)) ?? byCost.find(own) ?? byCost.find(whole) ?? byCost[0];
  const rest = core.filter((c) => c !== source);
  const cands = s.candidates;
  const { postMarks, postLen, postInfo, postOffsets } = ix.d;
  // Few enough to read them all: classifying their words sorts them, cheaper than pouring bitmaps.
  const cheap = cost(source) <= max - cands.n;
  const others = cheap ? null : holdingRest(ix, s, rest);
  for (const r of source.rel) {
    for (let p = postOffsets[r.id]; p < postOffsets[r.id + 1] && cands.n < max; p++) {
      const m = postMarks[p];
      if ((others && !others.has(m)) || visited.has(m) || skip?.has(m) || !s.passes(m, postInfo[p])) continue;
      visited.add(m);
      cands.push(m, postLen[p], postInfo[p]);
    }
  }
}
