import { boundedDistance } from '../search/editDistance.ts';
import { phoneticCodes, romanise } from '../search/normalise.ts';

// How alike two words look and sound, each 0-1. Pure functions over normalised words (upper case,
// letters and digits: src/search/normalise.ts), shared by the threats endpoint, its calibration and
// the hand-labelled pairs, so all three score exactly alike. docs/threats.md explains each measure.

/** 1 − OSA edit distance / the longer length. */
export function editSimilarity(a: string, b: string): number {
  const n = Math.max(a.length, b.length);
  if (n === 0) return 1;
  return 1 - boundedDistance(a, b, n) / n;
}

/** Jaro-Winkler: shared characters in near order, with a bonus for a common start (up to 4 letters). */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (!la || !lb) return 0;
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  const usedB = new Uint8Array(lb);
  const matchA: number[] = [];
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(lb - 1, i + window);
    for (let j = lo; j <= hi; j++) {
      if (!usedB[j] && a[i] === b[j]) {
        usedB[j] = 1;
        matchA.push(i);
        break;
      }
    }
  }
  const m = matchA.length;
  if (!m) return 0;
  let t = 0;
  let j = 0;
  for (const i of matchA) {
    while (!usedB[j]) j++;
    if (a[i] !== b[j]) t++;
    j++;
  }
  const jaro = (m / la + m / lb + (m - t / 2) / m) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < la && prefix < lb && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** Dice overlap of the words' trigrams, padded so that short words and their ends count. */
export function trigramSimilarity(a: string, b: string): number {
  return a === b ? 1 : dice(grams(a), grams(b));
}

/** Dice overlap of two sorted lists of trigram codes (repeats counted as often as they occur in both). */
function dice(ga: Uint32Array, gb: Uint32Array): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < ga.length && j < gb.length) {
    if (ga[i] === gb[j]) {
      shared++;
      i++;
      j++;
    } else if (ga[i] < gb[j]) i++;
    else j++;
  }
  return (2 * shared) / (ga.length + gb.length);
}

/** The trigrams of "  w " as sorted numbers (three 16-bit character codes folded into one 32-bit number). */
function grams(w: string): Uint32Array {
  const p = `  ${w} `;
  const out = new Uint32Array(p.length - 2);
  for (let i = 0; i + 3 <= p.length; i++) out[i] = ((p.charCodeAt(i) * 65599 + p.charCodeAt(i + 1)) * 65599 + p.charCodeAt(i + 2)) >>> 0;
  return out.sort();
}

const VOWELS = /[AEIOUY]/;

/** The first syllable as a reader takes it in: up to the first vowel run and one consonant after (SUN of SUNRISE). */
export function firstSyllable(w: string): string {
  let i = 0;
  while (i < w.length && !VOWELS.test(w[i])) i++;
  if (i === w.length) return w.slice(0, 3);
  while (i < w.length && VOWELS.test(w[i])) i++;
  return w.slice(0, Math.min(w.length, i + 1));
}

/** Weights of the orthographic blend (docs/threats.md): the first syllable counts on its own as well. */
export const ORTHO_WEIGHTS = { edit: 0.4, jaroWinkler: 0.2, trigram: 0.25, firstSyllable: 0.15 } as const;

/** What comparing a word needs, computed once per word (words recur across candidates and requests). */
export interface WordInfo {
  text: string;
  grams: Uint32Array;
  syllable: string;
  sound: Sound;
}

const INFO_MEMO = 200_000;
let infos = new Map<string, WordInfo>();

export function wordInfo(w: string): WordInfo {
  let x = infos.get(w);
  if (!x) {
    // Dropped whole when full: cheaper than keeping an order, and refilled by the next few requests.
    if (infos.size >= INFO_MEMO) infos = new Map();
    infos.set(w, (x = { text: w, grams: grams(w), syllable: firstSyllable(w), sound: soundOf(w) }));
  }
  return x;
}

/** How alike two spellings look: edit distance, Jaro-Winkler, trigrams and the first syllable blended. */
export function orthographic(a: string, b: string): number {
  return orthographicOf(wordInfo(a), wordInfo(b));
}

/**
 * orthographic() of two words' infos. `distance`, when given, is distanceFrom(a.text): the analysed
 * mark's words are compared with hundreds of candidates, so their bit-parallel form is made once.
 */
export function orthographicOf(a: WordInfo, b: WordInfo, distance?: (b: string, max: number) => number): number {
  if (a.text === b.text) return 1;
  if (!a.text || !b.text) return 0;
  const w = ORTHO_WEIGHTS;
  const n = Math.max(a.text.length, b.text.length);
  const edit = distance ? 1 - distance(b.text, n) / n : editSimilarity(a.text, b.text);
  return (
    w.edit * edit +
    w.jaroWinkler * jaroWinkler(a.text, b.text) +
    w.trigram * dice(a.grams, b.grams) +
    w.firstSyllable * (a.syllable === b.syllable ? 1 : editSimilarity(a.syllable, b.syllable))
  );
}

const SOUNDEX: Record<string, string> = {
  B: '1',
  F: '1',
  P: '1',
  V: '1',
  C: '2',
  G: '2',
  J: '2',
  K: '2',
  Q: '2',
  S: '2',
  X: '2',
  Z: '2',
  D: '3',
  T: '3',
  L: '4',
  M: '5',
  N: '5',
  R: '6',
};

/** American Soundex (letter + three digits) of a word's letters; '' when it has none. */
export function soundex(word: string): string {
  const w = word.replace(/[^A-Z]/g, '');
  if (!w) return '';
  let out = w[0];
  let last = SOUNDEX[w[0]] ?? '';
  for (let i = 1; i < w.length && out.length < 4; i++) {
    const c = w[i];
    const d = SOUNDEX[c] ?? '';
    // H and W do not separate letters of the same code; vowels do.
    if (d && d !== last) out += d;
    if (c !== 'H' && c !== 'W') last = d;
  }
  return out.padEnd(4, '0');
}

/**
 * Sound codes of a word after Indian romanisation (numbers spelled out): Double Metaphone codes, Soundex,
 * and the romanised spelling as said, vowels kept (spokenForm).
 */
export interface Sound {
  codes: string[];
  soundex: string;
  spoken: string;
}

export function soundOf(word: string): Sound {
  const r = romanise(word);
  return { codes: phoneticCodes(word), soundex: soundex(r), spoken: spokenForm(r) };
}

/**
 * A romanised word as it is said, vowels kept: aspirating and silent H dropped (not a first letter),
 * OU as O (FOUR, FOR), Y as the vowel I, C as K or (in CH) one sound of its own, X as KS, doubled letters once. Codes drop
 * every vowel and merge classes of consonants, so PRIDE and BHARAT (both PRT), or JAI DURGA and
 * JAAITRECHH, share a code; their spoken forms stay apart.
 */
export function spokenForm(romanised: string): string {
  return romanised
    .replace(/CH+/g, 'c')
    .replace(/C/g, 'K')
    .replace(/OU/g, 'O')
    .replace(/X/g, 'KS')
    .replace(/Y/g, 'I')
    .replace(/(?<=.)H/g, '')
    .replace(/(.)\1+/g, '$1');
}

/**
 * Weights of the phonetic blend: Double Metaphone (shared code, else code spelling), Soundex, and the
 * spelling similarity of the spoken forms, which keeps the vowels and the voicing that codes drop.
 */
export const PHONETIC_WEIGHTS = { metaphone: 0.35, soundex: 0.15, spoken: 0.5 } as const;

/**
 * How alike two words sound: Double Metaphone of the romanised words, Soundex, and the spoken forms
 * compared as spelled (the same spoken form is a full match). A shared code counts fully; otherwise the
 * codes' spelling similarity and Soundex's matching positions count squared, so that short codes one
 * letter apart (BADSHAH PTS, FOODS FTS) are not called alike.
 */
export function phonetic(a: Sound, b: Sound): number {
  if (a.spoken && a.spoken === b.spoken) return 1;
  let dm = 0;
  if (a.codes.length && b.codes.length) {
    if (a.codes.some((c) => b.codes.includes(c))) dm = 1;
    else for (const x of a.codes) for (const y of b.codes) dm = Math.max(dm, editSimilarity(x, y) ** 2);
  }
  let sx = 0;
  if (a.soundex && b.soundex) {
    if (a.soundex === b.soundex) sx = 1;
    else {
      let same = 0;
      for (let i = 0; i < 4; i++) if (a.soundex[i] === b.soundex[i]) same++;
      sx = (same / 4) ** 2;
    }
  }
  const spoken = a.spoken && b.spoken ? editSimilarity(a.spoken, b.spoken) : 0;
  return PHONETIC_WEIGHTS.metaphone * dm + PHONETIC_WEIGHTS.soundex * sx + PHONETIC_WEIGHTS.spoken * spoken;
}
