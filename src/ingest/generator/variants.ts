import type { Rng } from './rng.ts';
import { DIGIT_WORDS, genericWord, isGeneric, isVocabulary, PREFIXES, popularWord } from './words.ts';

// Deliberate look-alikes and sound-alikes of earlier marks. These families are the ground truth the
// confusion engine is calibrated on (examination reports cite them), so every operation here must
// produce a mark a registry examiner would genuinely call similar.

// Romanisation pairs: the same Hindi sound written two ways (SHREE/SHRI, PHOOL/FOOL, VIJAY/WIJAY).
const SOUND_PAIRS: [string, string][] = [
  ['AA', 'A'],
  ['EE', 'I'],
  ['OO', 'U'],
  ['PH', 'F'],
  ['W', 'V'],
  ['Q', 'K'],
  ['SH', 'S'],
  ['BH', 'B'],
  ['KH', 'K'],
  ['TH', 'T'],
  ['DH', 'D'],
  ['Z', 'J'],
  ['X', 'KS'],
  ['CK', 'K'],
  ['C', 'K'],
  ['Y', 'I'],
];
const VOWEL = 'AEIOU';
const NUMBER_SOUNDS: Record<string, string> = { FOUR: 'FOR', TWO: 'TO', ONE: 'WON', EIGHT: 'ATE' };

export function variantOf(parent: string, rng: Rng, cls: number): string {
  const r = rng.float();
  let out: string | null = null;
  if (r < 0.27) out = spelling(parent, rng);
  else if (r < 0.52) out = soundAlike(parent, rng);
  else if (r < 0.6) out = numberSwap(parent, rng);
  else if (r < 0.72) out = joinOrSplit(parent);
  if (out === null || out === parent) out = sharedWord(parent, rng, cls);
  return out;
}

function tokens(s: string): string[] {
  return s.split(' ');
}

/** Index of the token a copier would imitate: the longest non-generic word. */
function distinctiveToken(toks: string[]): number {
  let best = -1;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (!/^[A-Z]{3,}$/.test(t)) continue;
    if (best === -1 || (isGeneric(toks[best]) && !isGeneric(t)) || (isGeneric(toks[best]) === isGeneric(t) && t.length > toks[best].length))
      best = k;
  }
  return best;
}

function spelling(parent: string, rng: Rng): string | null {
  const toks = tokens(parent);
  const k = distinctiveToken(toks);
  if (k < 0 || toks[k].length < 4) return null;
  let w = toks[k];
  const edits = rng.chance(0.65) ? 1 : 2;
  for (let e = 0; e < edits; e++) {
    const p = 1 + rng.int(w.length - 1);
    const op = rng.int(5);
    if (op === 0 && VOWEL.includes(w[p])) w = w.slice(0, p) + rng.pick(['A', 'E', 'I', 'O', 'U', 'Y']) + w.slice(p + 1);
    else if (op === 1)
      w = w.slice(0, p) + w[p] + w.slice(p); // doubled letter: RAAJ, BALLAJI
    else if (op === 2 && w.length > 4) w = w.slice(0, p) + w.slice(p + 1);
    else if (op === 3 && p < w.length - 1) w = w.slice(0, p) + w[p + 1] + w[p] + w.slice(p + 2);
    else w = w.slice(0, p) + rng.pick(['H', 'A', 'E', 'I', 'Y', 'R', 'N']) + w.slice(p);
  }
  toks[k] = w;
  return toks.join(' ');
}

function soundAlike(parent: string, rng: Rng): string | null {
  // Collect every place a pair applies, in either direction, then rewrite one of them.
  const spots: [number, string, string][] = [];
  for (const [a, b] of SOUND_PAIRS) {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      let at = parent.indexOf(from, 1);
      while (at > 0 && spots.length < 64) {
        // Single letters only turn into digraphs inside words, so NEW does not become NEWH.
        if (/[A-Z]/.test(parent[at - 1]) && !(from.length === 1 && to.length === 2 && from === to[0])) spots.push([at, from, to]);
        at = parent.indexOf(from, at + 1);
      }
    }
  }
  if (spots.length === 0) return null;
  const [at, from, to] = rng.pick(spots);
  return parent.slice(0, at) + to + parent.slice(at + from.length);
}

function numberSwap(parent: string, rng: Rng): string | null {
  const toks = tokens(parent);
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (/^\d$/.test(t)) {
      toks[k] = DIGIT_WORDS[Number(t)];
      if (NUMBER_SOUNDS[toks[k]] && rng.chance(0.4)) toks[k] = NUMBER_SOUNDS[toks[k]];
      return toks.join(' ');
    }
    const d = DIGIT_WORDS.indexOf(t);
    if (d >= 0) {
      toks[k] = String(d);
      return toks.join(' ');
    }
    const sound = Object.entries(NUMBER_SOUNDS).find(([, v]) => v === t);
    if (sound) {
      toks[k] = String(DIGIT_WORDS.indexOf(sound[0]));
      return toks.join(' ');
    }
  }
  // No number to swap: prefix a lucky digit, which keeps the whole earlier mark.
  if (toks.length < 3 && rng.chance(0.5)) return `${rng.pick(['7', '4', '9', '1'])} ${parent}`;
  return null;
}

function joinOrSplit(parent: string): string | null {
  const toks = tokens(parent);
  if (toks.length >= 2) {
    // SUNRISE FOODS -> SUNRISEFOODS; only letters join, NO. 1 stays apart.
    for (let k = 0; k < toks.length - 1; k++) {
      if (/^[A-Z]+$/.test(toks[k]) && /^[A-Z]+$/.test(toks[k + 1])) {
        return [...toks.slice(0, k), toks[k] + toks[k + 1], ...toks.slice(k + 2)].join(' ');
      }
    }
    return null;
  }
  const w = toks[0];
  for (let cut = 3; cut <= w.length - 3; cut++) {
    if (isVocabulary(w.slice(0, cut)) && isVocabulary(w.slice(cut))) return `${w.slice(0, cut)} ${w.slice(cut)}`;
  }
  return null;
}

function sharedWord(parent: string, rng: Rng, cls: number): string {
  const toks = tokens(parent);
  const k = distinctiveToken(toks);
  const keep = k >= 0 ? toks[k] : parent;
  const r = rng.float();
  if (r < 0.4) return `${keep} ${genericWord(rng, cls)}`;
  if (r < 0.65) return `${rng.pick(PREFIXES)} ${keep}`;
  if (r < 0.85) return `${keep} ${popularWord(rng)}`;
  return `${popularWord(rng)} ${keep}`;
}

// ---- similarity, as an examiner would judge it ---------------------------------------------------

/** Canonical spelling: digits and number words unified, romanisation variants folded. */
export function normaliseTokens(mark: string): string[] {
  const out: string[] = [];
  for (const raw of mark.toUpperCase().split(/[^A-Z0-9]+/)) {
    if (!raw) continue;
    if (/^\d+$/.test(raw)) {
      for (const d of raw) out.push(fold(DIGIT_WORDS[Number(d)]));
      continue;
    }
    const sound = NUMBER_SOUNDS[raw] ? raw : Object.keys(NUMBER_SOUNDS).find((k) => NUMBER_SOUNDS[k] === raw);
    out.push(fold(sound ?? raw));
  }
  return out;
}

function fold(w: string): string {
  return w
    .replace(/PH/g, 'F')
    .replace(/SH/g, 'S')
    .replace(/BH/g, 'B')
    .replace(/KH/g, 'K')
    .replace(/TH/g, 'T')
    .replace(/DH/g, 'D')
    .replace(/CK/g, 'K')
    .replace(/Q/g, 'K')
    .replace(/C/g, 'K')
    .replace(/X/g, 'KS')
    .replace(/W/g, 'V')
    .replace(/Z/g, 'J')
    .replace(/EE/g, 'I')
    .replace(/OO/g, 'U')
    .replace(/Y/g, 'I')
    .replace(/H/g, '')
    .replace(/(.)\1+/g, '$1');
}

export function editDistance(a: string, b: string, max = 3): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** Shares a normalised word, or the whole marks are within two edits once normalised. */
export function similarMarks(a: string, b: string): boolean {
  if (!a || !b) return false;
  return similarTokens(normaliseTokens(a), normaliseTokens(b));
}

export function similarTokens(ta: string[], tb: string[], weak?: Set<string>): boolean {
  if (ta.length === 0 || tb.length === 0) return false;
  for (const t of ta) if (t.length >= 3 && !weak?.has(t) && tb.includes(t)) return true;
  const ca = ta.join('');
  const cb = tb.join('');
  return ca.length >= 2 && editDistance(ca, cb, 2) <= 2;
}
