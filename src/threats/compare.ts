import { distanceFrom } from '../search/editDistance.ts';
import { normaliseMark, romanise, wordsOf } from '../search/normalise.ts';
import { bounded, QUERY_MAX } from '../search/query.ts';
import { orthographicOf, phonetic, type WordInfo, wordInfo } from './similarity.ts';
import { meaningOf } from './translations.ts';

// Two word marks compared as a whole and word by word. A lawyer looks at the dominant element: a
// shared distinctive word (SUNRISE in SUNRISE and SUNRISE FOODS) weighs much more than a shared
// common one (FOODS, SHREE, INDIA). How distinctive a word is comes from the register itself: the
// fewer marks hold it, the heavier it is (weightOf, from the search index's postings).

export interface MarkForm {
  normalised: string;
  words: string[];
  /** The words run together: joined and split forms compare equal (SUNRISEFOODS, SUNRISE FOODS). */
  compact: string;
  infos: WordInfo[];
  compactInfo: WordInfo;
  weights: number[];
  /** Each word's meaning when it is one of the listed Hindi or English words (src/threats/translations.ts). */
  meanings: (string | undefined)[];
  /** Words written in an Indic script, read as the English words the register spells them with (src/threats/readings.ts). */
  readings?: (WordInfo[] | null)[];
  /** The mark with each read word replaced by its first reading, spaced and run together. */
  readAs?: string;
  readCompact?: string;
  /** The words as the proposal writes them, one per word, for reasons (never an internal romanisation). */
  written?: string[];
  /** As the analysed side: how many marks of its trade (its class and the related ones) hold each word, for reasons. */
  held?: number[];
  /** Bit-parallel edit distance from each word and from the compact form, made on first use as the analysed side. */
  distances?: { words: ((b: string, max: number) => number)[]; compact: (b: string, max: number) => number };
  /**
   * As the analysed side, when given (remembering()): how alike each word is to the other marks' words met so
   * far, by their text, in spelling and in sound. Candidates share their words (FOODS, SHREE, INDIA).
   */
  pairs?: PairMemo;
}

export interface PairMemo {
  spelt: Map<string, number>[];
  said: Map<string, number>[];
}

/**
 * The form with a memo of its words' similarities to other words, for an analysis that compares it with many
 * marks; `memo` (of another form of the same words, weighed in another trade) is shared when given.
 */
export function remembering(form: MarkForm, memo?: PairMemo): MarkForm {
  form.pairs = memo ?? { spelt: form.words.map(() => new Map()), said: form.words.map(() => new Map()) };
  return form;
}

/** How heavy a word is in a comparison, 0-1 (1: a word no other mark holds). */
export type WeightOf = (word: string) => number;

/**
 * Only the first this many characters of a mark (normalised) are compared: comparing grows with the product
 * of two marks' lengths, and the search it starts from reads no more (src/search/query.ts). The importer
 * takes no longer word mark than 500 characters; a longer text (stored by other means, a logo's OCR text)
 * is compared by its beginning.
 */
export const COMPARED_MAX = QUERY_MAX;

/** The words of a mark as a comparison reads them (its first COMPARED_MAX characters, normalised). */
export const comparedWords = (text: string): string[] => wordsOf(bounded(normaliseMark(text), COMPARED_MAX));

export function markForm(text: string, weightOf: WeightOf): MarkForm {
  const normalised = bounded(normaliseMark(text), COMPARED_MAX);
  const words = wordsOf(normalised);
  const compact = words.join('');
  let whole: WordInfo | undefined;
  return {
    normalised,
    words,
    compact,
    infos: words.map(wordInfo),
    // Made when the marks are compared run together: two marks of as many words never are.
    get compactInfo() {
      whole ??= wordInfo(compact);
      return whole;
    },
    weights: words.map(weightOf),
    meanings: words.map(meaningOf),
  };
}

export interface Comparison {
  /** Orthographic similarity 0-1: the better of the whole marks and the weighted word alignment. */
  word: number;
  /** Phonetic similarity 0-1, likewise. */
  phonetic: number;
  /** The same mark once case, punctuation and spaces are ignored. */
  exact: boolean;
  /**
   * Similarity of meaning 0-1 when a word of one mark translates a word of the other (SURAJ, SUN):
   * the weighted alignment with such words counted as equal. 0 when no word is translated.
   */
  meaning: number;
  /**
   * When the marks share some words exactly and each also has words the other lacks (BLUE BIRD, BLUE
   * MOUNTAIN), and none is translated: what the shared words are worth on their own, for the scorer's
   * rule on marks that share only common words (src/threats/score.ts). Absent otherwise.
   */
  apart?: Apart;
  /**
   * When some words of the two marks are alike (spelled or said at least ALIKE) and some word of either has nothing
   * alike in the other: the heaviest of the analysed mark's alike words, and the heaviest word with nothing alike.
   */
  partly?: { alike: number; apart: number };
}

/** Two words at least this alike, in spelling or in sound, are what two marks are alike in. */
export const ALIKE = 0.75;

export interface Apart {
  /** The heaviest shared word's weight (the heavier of the two sides' weights for it). */
  common: number;
  /** How alike the closest pair of words that are not shared is, in spelling or in sound, 0-1. */
  unlike: number;
  /** The lighter of the two marks' heaviest words not shared: how distinctive what tells them apart is. */
  own: number;
  /** The weighted alignment with the shared words counted 1 and every other word 0: the shared words' weight share. */
  share: number;
}

/** A word of the first mark and its closest word of the other (`j`, -1 when it has none) with how close they are, 0-1. */
export interface WordMatch {
  j: number;
  s: number;
}

/**
 * What a comparison found, word by word, for whoever explains a score (src/threats/reasons.ts): read
 * off the alignments as they are made, never computed again. Filled only when asked for.
 */
export interface Evidence {
  /** For each word of the first mark, its closest word of the other by spelling. */
  spelt: WordMatch[];
  /** For each word of the first mark, its closest word of the other by sound. */
  said: WordMatch[];
  /** Words of the two marks (first, other) that translate each other. */
  translated: [number, number][];
  /** The marks run together compared closer, in spelling or in sound, than word by word (a word joined, split, added or dropped). */
  runTogether: boolean;
}

/** An empty Evidence for compareMarks to fill. */
export const noEvidence = (): Evidence => ({ spelt: [], said: [], translated: [], runTogether: false });

/**
 * Weighted alignment: every word of either mark meets its best match in the other; the mean of those
 * matches weighted by the words' distinctiveness. Extra distinctive words lower it, extra common ones
 * hardly do.
 */
function aligned(a: MarkForm, b: MarkForm, sim: (i: number, j: number) => number, best?: WordMatch[]): number {
  let num = 0;
  let den = 0;
  if (bestScratch.length < b.words.length) bestScratch = new Float64Array(b.words.length);
  const bestOfB = bestScratch.fill(0, 0, b.words.length);
  for (let i = 0; i < a.words.length; i++) {
    let m = 0;
    let at = -1;
    for (let j = 0; j < b.words.length; j++) {
      const s = sim(i, j);
      if (s > m) {
        m = s;
        at = j;
      }
      if (s > bestOfB[j]) bestOfB[j] = s;
    }
    best?.push({ j: at, s: m });
    num += a.weights[i] * m;
    den += a.weights[i];
  }
  for (let j = 0; j < b.words.length; j++) {
    num += b.weights[j] * bestOfB[j];
    den += b.weights[j];
  }
  return den > 0 ? num / den : 0;
}

// Scratch of the comparisons (synchronous, never nested): a thousand candidates an analysis, each
// compared word by word, would otherwise each allocate these.
let bestScratch = new Float64Array(64);
let orthoScratch = new Float64Array(256);

/** Words of one listed meaning, whether or not in other words. */
const sameMeaning = (a: MarkForm, b: MarkForm, i: number, j: number) => a.meanings[i] !== undefined && a.meanings[i] === b.meanings[j];
/** Words of one listed meaning in other words (SURAJ and SUN, not SURAJ and SOORAJ). */
const translates = (a: MarkForm, b: MarkForm, i: number, j: number) =>
  sameMeaning(a, b, i, j) && romanise(a.words[i]) !== romanise(b.words[j]);

/** The two marks compared; `evidence`, when given, is filled with what the comparison found word by word. */
export function compareMarks(a: MarkForm, b: MarkForm, evidence?: Evidence): Comparison {
  if (!a.compact || !b.compact) return { word: 0, phonetic: 0, exact: false, meaning: 0 };
  if (a.compact === b.compact || a.readCompact === b.compact || b.readCompact === a.compact)
    return { word: 1, phonetic: 1, exact: true, meaning: 0 };
  // Word-by-word spellings are read by both alignments: computed once.
  a.distances ??= { words: a.words.map(distanceFrom), compact: distanceFrom(a.compact) };
  const d = a.distances;
  const m = a.pairs;
  const nb = b.words.length;
  if (orthoScratch.length < a.words.length * nb) orthoScratch = new Float64Array(a.words.length * nb);
  const ortho = orthoScratch;
  for (let i = 0; i < a.words.length; i++) {
    const x = a.infos[i];
    const r = a.readings?.[i] ?? null;
    for (let j = 0; j < nb; j++) {
      const y = b.infos[j];
      let s = m ? spelt(m.spelt[i], x, y, d.words[i], r) : spelling(x, y, d.words[i], r);
      // A mark of the register in an Indic script, read as English: its readings meet the proposal's words too.
      const theirs = b.readings?.[j];
      if (theirs) for (const t of theirs) s = Math.max(s, t.text === x.text ? 1 : spelling(t, x, undefined, r));
      ortho[i * nb + j] = s;
    }
  }
  const said = (i: number, j: number) => {
    if (ortho[i * nb + j] === 1) return 1;
    const r = a.readings?.[i] ?? null;
    let s: number | undefined;
    if (!m) s = sound(a.infos[i], b.infos[j], r);
    else {
      const memo = m.said[i];
      s = memo.get(b.words[j]);
      if (s === undefined) memo.set(b.words[j], (s = sound(a.infos[i], b.infos[j], r)));
    }
    const theirs = b.readings?.[j];
    if (theirs) for (const t of theirs) s = Math.max(s, sound(t, a.infos[i], r));
    return s;
  };
  const wordAligned = aligned(a, b, (i, j) => ortho[i * nb + j], evidence?.spelt);
  const soundAligned = aligned(a, b, said, evidence?.said);
  const translated = evidence
    ? translations(a, b, evidence.translated)
    : a.words.some((_, i) => b.words.some((_, j) => translates(a, b, i, j)));
  const meaning = translated ? aligned(a, b, (i, j) => (sameMeaning(a, b, i, j) ? 1 : ortho[i * nb + j])) : 0;
  const apart = translated ? undefined : apartOf(a, b, (i, j) => Math.max(ortho[i * nb + j], said(i, j)));
  // The whole marks run together are compared when a word was joined, split, added or dropped, or
  // either is one word. Two marks of as many words are compared word by word only: run together,
  // a shared common first word (ROYAL CHALLENGE, ROYAL STAG) would look like a shared start.
  const partly = partlyAlike(a, b, (i, j) => Math.max(ortho[i * nb + j], said(i, j)));
  if (a.words.length === b.words.length && a.words.length > 1)
    return { word: wordAligned, phonetic: soundAligned, exact: false, meaning, apart, partly };
  const wholeWord = orthographicOf(a.compactInfo, b.compactInfo, d.compact);
  const wholeSound = phonetic(a.compactInfo.sound, b.compactInfo.sound);
  if (evidence) evidence.runTogether = wholeWord > wordAligned || wholeSound > soundAligned;
  // Run together alike, the marks are alike as a whole (SUNRISEFOODS, SUNRISE FOODS), not in part.
  const whole = Math.max(wholeWord, wholeSound) >= ALIKE && Math.max(wholeWord, wholeSound) > Math.max(wordAligned, soundAligned);
  return {
    word: Math.max(wholeWord, wordAligned),
    phonetic: Math.max(wholeSound, soundAligned),
    exact: false,
    meaning,
    apart,
    partly: whole ? undefined : partly,
  };
}

/** Comparison.partly: undefined when no word is alike, or every word of each mark has an alike word in the other. */
function partlyAlike(a: MarkForm, b: MarkForm, alike: (i: number, j: number) => number): Comparison['partly'] {
  let heaviest = 0;
  let apart = -1;
  let matched = false;
  const matchedB = new Array<boolean>(b.words.length).fill(false);
  for (let i = 0; i < a.words.length; i++) {
    let any = false;
    for (let j = 0; j < b.words.length; j++) {
      if (alike(i, j) < ALIKE) continue;
      any = true;
      matchedB[j] = true;
    }
    if (any) {
      matched = true;
      heaviest = Math.max(heaviest, a.weights[i]);
    } else apart = Math.max(apart, a.weights[i]);
  }
  matchedB.forEach((m, j) => {
    if (!m) apart = Math.max(apart, b.weights[j]);
  });
  return matched && apart >= 0 ? { alike: heaviest, apart } : undefined;
}

/**
 * The shared words' worth when the marks share some words exactly and each has others (Apart); undefined
 * otherwise. `alike` is how alike two words are, the better of spelling and sound.
 */
function apartOf(a: MarkForm, b: MarkForm, alike: (i: number, j: number) => number): Apart | undefined {
  if (a.words.length < 2 || b.words.length < 2) return undefined;
  let common = 0;
  let num = 0;
  let den = 0;
  let shared = false;
  let aOwn = -1;
  for (let i = 0; i < a.words.length; i++) {
    den += a.weights[i];
    const j = b.words.indexOf(a.words[i]);
    if (j < 0) aOwn = Math.max(aOwn, a.weights[i]);
    else {
      shared = true;
      num += a.weights[i];
      common = Math.max(common, a.weights[i], b.weights[j]);
    }
  }
  if (!shared || aOwn < 0) return undefined;
  let bOwn = -1;
  for (let j = 0; j < b.words.length; j++) {
    den += b.weights[j];
    if (a.words.includes(b.words[j])) num += b.weights[j];
    else bOwn = Math.max(bOwn, b.weights[j]);
  }
  if (bOwn < 0) return undefined;
  let unlike = 0;
  for (let i = 0; i < a.words.length; i++) {
    if (b.words.includes(a.words[i])) continue;
    for (let j = 0; j < b.words.length; j++) if (!a.words.includes(b.words[j])) unlike = Math.max(unlike, alike(i, j));
  }
  return { common, unlike, own: Math.min(aOwn, bOwn), share: den > 0 ? num / den : 0 };
}

function spelt(
  memo: Map<string, number>,
  x: WordInfo,
  y: WordInfo,
  distance: (b: string, max: number) => number,
  readings: WordInfo[] | null,
): number {
  let s = memo.get(y.text);
  if (s === undefined) memo.set(y.text, (s = spelling(x, y, distance, readings)));
  return s;
}

/** How alike a word (or, when it is read as English, the closest of its readings) and another look. */
function spelling(
  x: WordInfo,
  y: WordInfo,
  distance: ((b: string, max: number) => number) | undefined,
  readings: WordInfo[] | null,
): number {
  let s = orthographicOf(x, y, distance);
  if (readings) for (const r of readings) s = Math.max(s, orthographicOf(r, y));
  return s;
}

/** How alike a word (or the closest of its readings) and another sound. */
function sound(x: WordInfo, y: WordInfo, readings: WordInfo[] | null): number {
  let s = phonetic(x.sound, y.sound);
  if (readings) for (const r of readings) s = Math.max(s, phonetic(r.sound, y.sound));
  return s;
}

/** Every pair of words of the two marks that translate each other, added to `out`; whether there is any. */
function translations(a: MarkForm, b: MarkForm, out: [number, number][]): boolean {
  for (let i = 0; i < a.words.length; i++) {
    if (a.meanings[i] === undefined) continue;
    for (let j = 0; j < b.words.length; j++) if (translates(a, b, i, j)) out.push([i, j]);
  }
  return out.length > 0;
}
