import type { IndexHit } from '../search/types.ts';
import type { IndexView, RegisterView } from '../search/view.ts';

// What threats read of the register beyond searches (src/threats/candidates.ts, service.ts): a
// word's holders ranked against a mark, the established respellings of a word, how many marks there
// are in some classes. Read through the search index's view (src/search/view.ts), in the turn of the
// event loop that got it.

/**
 * How holdersBy ranks the holders of a word against a mark: standing × the weighted share of words
 * the two hold alike, (Σ over the holder's words the mark also holds of both weights) / (the mark's
 * total weight + the holder's).
 */
export interface HolderRanking {
  /** The mark's words and their weights, and the sum of those weights. */
  words: Map<string, number>;
  total: number;
  /** The weight of a holder's word (read per word of every holder, it must be cheap). */
  weight: HolderWeights;
  /** The mark's filing day (days since 1970): holders filed after it are `later`. */
  day: number;
  standing(cls: number, status: string, later: boolean): number;
}

/**
 * A holder's word's weight, in two parts: what `holders` marks holding it in every class make of it, the same in every
 * trade and for every mark (kept per word id while the register stays the same: see plainWeights), and the trade's
 * cap on it, which few words meet.
 */
export interface HolderWeights {
  /** The same object for every ranking whose plain() is the same function: what the kept weights are kept for. */
  readonly key: object;
  plain(word: string, holders: number): number;
  /** Whether some trade caps the word: only those words are spelled out again for the cap. */
  capped(word: string): boolean;
  cap(word: string, weight: number): number;
}

/**
 * The `max` marks holding `word` in the flagged classes that share most with a mark, by
 * `HolderRanking`, ties to the earlier application, leaving out those `skip` names; none when more than
 * `limit` marks of those classes hold it. Search orders a word's holders by how they hold it and by
 * length, which says nothing of how much else they say. Word weights and standings are looked up once
 * per word id and per class, status and filing order: a common word's holders are read by the
 * ten thousand.
 */
export function holdersBy(
  register: RegisterView,
  word: string,
  classes: Uint8Array,
  max: number,
  limit: number,
  by: HolderRanking,
  skip: Set<number>,
): IndexHit[] {
  if (max <= 0 || register.holders(word, classes) > limit) return [];
  const best: { hit: IndexHit; r: number }[] = [];
  const views = register.views;
  for (let at = 0; at < views.length; at++) {
    const ix = views[at];
    const id = ix.wordId(word);
    if (id < 0) continue;
    const { postOffsets, postMarks, postInfo, wordOffsets, markWords, appNo, dict, summary } = ix.d;
    const cache = wordCache(ix);
    // The entries of an earlier call with the same ranking hold (its other distinctive words' holders share words).
    if (cache.by !== by) {
      cache.by = by;
      cache.gen++;
    }
    const gen = cache.gen;
    const { stamps, words } = cache;
    const plain = plainWeights(ix, register, by.weight.key);
    // The mark's words as this index numbers them: a holder's words are compared by id, never spelled out.
    const mineIds: number[] = [];
    const mineWeights: number[] = [];
    for (const [text, weight] of by.words) {
      const w = ix.wordId(text);
      if (w < 0) continue;
      mineIds.push(w);
      mineWeights.push(weight);
    }
    // A proposal not yet filed has no later marks: its holders' filing days are not read.
    const dated = Number.isFinite(by.day);
    for (let p = postOffsets[id]; p < postOffsets[id + 1]; p++) {
      const m = postMarks[p];
      const info = postInfo[p];
      if (!classes[info & 63] || !ix.isLive(m)) continue;
      const later = dated && summary.applicationDays[m] > by.day;
      const key = (info & 0x3fff) | (later ? 0x4000 : 0);
      if (cache.standingStamp[key] !== gen) {
        cache.standingStamp[key] = gen;
        cache.standing[key] = by.standing(info & 63, dict.status[(info >>> 6) & 0xff], later);
      }
      const st = cache.standing[key];
      let held = 0;
      let common = 0;
      for (let q = wordOffsets[m]; q < wordOffsets[m + 1]; q++) {
        const w = markWords[q];
        const at = 3 * w;
        if (stamps[at] !== gen) {
          let x = plain.weights[w];
          if (Number.isNaN(x)) {
            const text = ix.word(w);
            x = plain.weights[w] = by.weight.plain(text, views.length > 1 ? register.holders(text) : ix.postings(w));
            plain.capped[w] = by.weight.capped(text) ? CAPPED : NOT_CAPPED;
          }
          if (plain.capped[w] === CAPPED) x = by.weight.cap(ix.word(w), x);
          const k = mineIds.indexOf(w);
          stamps[at] = gen;
          words[at + 1] = x;
          words[at + 2] = k < 0 ? -1 : x + mineWeights[k];
        }
        held += words[at + 1];
        if (words[at + 2] >= 0) common += words[at + 2];
      }
      const r = (st * common) / (by.total + held);
      if ((best.length === max && r <= best[max - 1].r) || skip.has(appNo[m])) continue;
      const hit: IndexHit = { id: m, appNo: appNo[m], strategy: 0, dist: 0, len: 0, ...(at === 0 ? {} : { delta: true }) };
      let to = best.length === max ? max - 1 : best.length;
      if (best.length < max) best.push({ hit, r });
      while (to > 0 && (best[to - 1].r < r || (best[to - 1].r === r && best[to - 1].hit.appNo > hit.appNo))) {
        best[to] = best[to - 1];
        to--;
      }
      best[to] = { hit, r };
    }
  }
  return best.map((b) => b.hit);
}

/** Every live mark holding `word` in the flagged classes, as hits; none when more than `limit` marks hold it there. */
export function holdersOf(register: RegisterView, word: string, classes: Uint8Array, limit: number): IndexHit[] {
  if (register.holders(word, classes) > limit) return [];
  const out: IndexHit[] = [];
  register.views.forEach((ix, at) => {
    const id = ix.wordId(word);
    if (id < 0) return;
    const { postOffsets, postMarks, postInfo, appNo } = ix.d;
    for (let p = postOffsets[id]; p < postOffsets[id + 1]; p++) {
      const m = postMarks[p];
      if (!classes[postInfo[p] & 63] || !ix.isLive(m)) continue;
      out.push({ id: m, appNo: appNo[m], strategy: 0, dist: 0, len: 0, ...(at === 0 ? {} : { delta: true }) });
    }
  });
  return out;
}

/**
 * Words of the register that are spelling variants or sound-alikes of `word` (not the word itself),
 * the most held first, at most `max`: a register holds many one-off misspellings of a word and few
 * established spellings (SHREEJI beside SHREEZI, SHREEHZI, SHRREEZI…), and the established ones are
 * where most conflicting marks are.
 */
export function relatedWords(register: RegisterView, word: string, max: number): string[] {
  return mostHeld(register, (ix) => ix.relatives(word), max);
}

/**
 * Words of the register exactly two edits from `word` as spelled (SWATSKI → SWASTIK, MOONEN → MOON),
 * the most held first, at most `max`: one edit further than search goes for a word of up to seven
 * letters. Found through the vocabulary's table of deletions, which holds two deletions of words from
 * six letters and one of shorter ones: a word of the register shorter than six letters is found when
 * one deletion from it meets two from `word` (BRNA from BRNRO: BRN).
 */
export function farWords(register: RegisterView, word: string, max: number): string[] {
  return mostHeld(register, (ix) => [...ix.variants(word, 2)].filter(([, d]) => d === 2).map(([id]) => id), max);
}

/**
 * Each index lists its own words, by id: their postings summed over the indexes are holders(). A common word has
 * thousands of relatives, and spelling each out cost more than the search that follows (SHREE), so of the base
 * index's only those are spelled that can still be among the first `max`: no fewer marks hold the max-th of all
 * than the max-th of the base alone, and the recent changes add at most `extra` to any word.
 */
function mostHeld(register: RegisterView, ids: (ix: IndexView) => number[], max: number): string[] {
  const [base, ...recent] = register.views;
  const held = new Map<string, number>();
  for (const ix of recent) {
    for (const id of ids(ix)) {
      const w = ix.word(id);
      held.set(w, (held.get(w) ?? 0) + ix.postings(id));
    }
  }
  let extra = 0;
  for (const n of held.values()) extra = Math.max(extra, n);
  const own = ids(base);
  const counts = Float64Array.from(own, (id) => base.postings(id));
  const floor = own.length > max ? counts.slice().sort()[own.length - max] - extra : Number.NEGATIVE_INFINITY;
  own.forEach((id, i) => {
    if (counts[i] < floor) return;
    const w = base.word(id);
    held.set(w, (held.get(w) ?? 0) + counts[i]);
  });
  return [...held]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, max)
    .map(([w]) => w);
}

/** How many marks there are in the flagged classes (in every class when null). */
export function marksIn(register: RegisterView, classes: Uint8Array | null): number {
  let n = 0;
  for (const ix of register.views) {
    let counts = classCounts.get(ix);
    if (!counts) {
      counts = new Uint32Array(64);
      for (const info of ix.d.info) counts[info & 63]++;
      classCounts.set(ix, counts);
    }
    for (let c = 0; c < 64; c++) if (!classes || classes[c]) n += counts[c];
  }
  return n;
}

// Per-word scratch of holdersBy, kept per index: a ranking's entries are those stamped with its generation.
interface WordCache {
  gen: number;
  /** The ranking the entries of `gen` were made for: they depend on nothing else. */
  by: HolderRanking | null;
  /**
   * Per word id, three 32-bit slots side by side in one buffer: the generation its entries were made for (`stamps`),
   * its weight, and its weight plus the mark's, -1 when the mark does not hold it (`words`). Side by side, a holder's
   * word costs one cache miss rather than three: a common word's holders are read by the ten thousand.
   */
  stamps: Uint32Array;
  words: Float32Array;
  /** By class, status code and filing order (15 bits of a posting's facets and a flag). */
  standingStamp: Uint32Array;
  standing: Float32Array;
}
const wordCaches = new WeakMap<IndexView, WordCache>();

function wordCache(ix: IndexView): WordCache {
  let c = wordCaches.get(ix);
  if (!c) {
    const n = ix.wordCount;
    c = {
      gen: 0,
      by: null,
      ...slots(3 * n),
      standingStamp: new Uint32Array(0x8000),
      standing: new Float32Array(0x8000),
    };
    wordCaches.set(ix, c);
  }
  return c;
}

/**
 * The plain weights of an index's words, by word id (NaN until read), and whether a trade caps each: a holder's rare
 * words are new to each ranking, and are spelled out and weighed once while the register stays the same. Kept
 * for one HolderWeights key and one state of the register (its last index is a new object whenever the base or the
 * index of recent changes is replaced, and a word's holders with it): 5 bytes a word, 5 MiB at 7.7M marks.
 */
interface PlainWeights {
  key: object | null;
  version: object | null;
  weights: Float32Array;
  capped: Uint8Array;
}
const CAPPED = 1;
const NOT_CAPPED = 2;
const plainCaches = new WeakMap<IndexView, PlainWeights>();

function plainWeights(ix: IndexView, register: RegisterView, key: object): PlainWeights {
  const version = register.views[register.views.length - 1];
  let c = plainCaches.get(ix);
  if (!c) {
    c = { key: null, version: null, weights: new Float32Array(ix.wordCount), capped: new Uint8Array(ix.wordCount) };
    plainCaches.set(ix, c);
  }
  if (c.key !== key || c.version !== version) {
    c.key = key;
    c.version = version;
    c.weights.fill(Number.NaN);
  }
  return c;
}

/** A Uint32Array and a Float32Array of `n` slots over one buffer. */
function slots(n: number): { stamps: Uint32Array; words: Float32Array } {
  const buffer = new ArrayBuffer(4 * n);
  return { stamps: new Uint32Array(buffer), words: new Float32Array(buffer) };
}

// Marks per class of an index (an index never changes its marks' classes; hidden marks still count).
const classCounts = new WeakMap<IndexView, Uint32Array>();
