import { normaliseMark, phoneticCodes, wordsOf } from '../search/normalise.ts';
import { relatedClasses } from '../threats/classes.ts';
import type { WeightOf } from '../threats/compare.ts';
import { DISTINCTIVE } from '../threats/reasons.ts';
import { soundex } from '../threats/similarity.ts';
import { meaningOf } from '../threats/translations.ts';
import type { WatchProbe } from './repository.ts';

// The watches indexed the way the register is, so that a new mark meets only the watches it could be
// confused with, not every watch: by group of cognate classes (a mark in 30 meets the watches of 29-33
// and 43, src/threats/classes.ts), then by the keys of their distinctive words (each word as spelt,
// its sound codes: Double Metaphone after Indian romanisation and Soundex, and its meaning when it is a
// listed Hindi or English word), the words run together counted as one more word. A mark meets the
// watches sharing a key with any of its words; a mark with a logo meets every logo watch of its group.
// The analysis then scores each meeting as a clearance would (src/threats/analysis.ts scoreMarks).

/** Soundex is coarse on short words (SUN, SON, SEEN): only words this long are keyed by it. */
const SOUNDEX_MIN = 5;

/** The keys of one word: as spelt, its sound codes and its meaning. */
function wordKeys(word: string, out: Set<string>): void {
  out.add(`w:${word}`);
  for (const c of phoneticCodes(word)) out.add(`p:${c}`);
  if (word.length >= SOUNDEX_MIN && /^[A-Z]+$/.test(word)) out.add(`s:${soundex(word)}`);
  const m = meaningOf(word);
  if (m) out.add(`m:${m}`);
}

/** The words of a text (normalised) and, for several, the words run together. */
function wordsWithCompact(text: string): string[] {
  const words = wordsOf(normaliseMark(text));
  return words.length > 1 ? [...words, words.join('')] : words;
}

/** The keys a mark is looked up by: every word of it. */
export function markKeys(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of wordsWithCompact(text)) wordKeys(w, out);
  return out;
}

/**
 * The keys a watch is filed under: its distinctive words (weighing at least DISTINCTIVE in the trade),
 * or all its words when none is, and the words run together.
 */
export function watchKeys(text: string, weightOf: WeightOf): Set<string> {
  const words = wordsOf(normaliseMark(text));
  const distinctive = words.filter((w) => weightOf(w) >= DISTINCTIVE);
  const keyed = distinctive.length ? distinctive : words;
  const out = new Set<string>();
  for (const w of words.length > 1 ? [...keyed, words.join('')] : keyed) wordKeys(w, out);
  return out;
}

/** A group of cognate classes, named by its first class (a class of no group is its own). */
const groupOf = (c: number) => relatedClasses(c)[0];

interface Group {
  byKey: Map<string, WatchProbe[]>;
  logos: WatchProbe[];
}

export class WatchIndex {
  private readonly groups = new Map<number, Group>();

  /** `weights` gives the word weights of the trade of a group (the classes related to its first). */
  constructor(watches: readonly WatchProbe[], weights: (classes: number[]) => WeightOf) {
    for (const w of watches) {
      for (const g of new Set(w.classes.map(groupOf))) {
        let group = this.groups.get(g);
        if (!group) this.groups.set(g, (group = { byKey: new Map(), logos: [] }));
        if (w.logo) group.logos.push(w);
        if (!w.word_mark) continue;
        for (const k of watchKeys(w.word_mark, weights(relatedClasses(g)))) {
          const list = group.byKey.get(k);
          if (list) list.push(w);
          else group.byKey.set(k, [w]);
        }
      }
    }
  }

  /** The watches a mark could fire: of its class's group, sharing a key with its words, or with a logo when it has one. */
  candidates(mark: { word_mark: string; class_number: number; has_logo: boolean }): Set<WatchProbe> {
    const out = new Set<WatchProbe>();
    const group = this.groups.get(groupOf(mark.class_number));
    if (!group) return out;
    for (const k of markKeys(mark.word_mark)) for (const w of group.byKey.get(k) ?? []) out.add(w);
    if (mark.has_logo) for (const w of group.logos) out.add(w);
    return out;
  }
}
