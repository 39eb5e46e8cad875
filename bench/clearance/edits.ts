import { normaliseMark, wordsOf } from '../../src/search/normalise.ts';
import { relatedClasses } from '../../src/threats/classes.ts';
import { descriptiveWords } from '../../src/threats/descriptive.ts';
import { equivalents } from '../../src/threats/translations.ts';
import type { Rng } from '../rng.ts';

// The edits a copier makes to a mark to file something close to it (issue 21, item 6), written here
// from how look-alike marks are made (a letter changed, a sound respelled the way Indian filings
// respell it, a trade word added or dropped, a word translated, words swapped, joined or split), not
// from the register generator's rules. Each edit returns null when it cannot change the mark.

export const EDIT_KINDS = [
  'respelling',
  'sound_english',
  'sound_hinglish',
  'descriptive',
  'translation',
  'word_order',
  'join_split',
] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

const VOWELS = 'AEIOU';
const isVowel = (c: string) => VOWELS.includes(c);

/** The word a copier works on: the longest (most often the distinctive one). */
function mainWord(words: string[]): number {
  let best = 0;
  for (let i = 1; i < words.length; i++) if (words[i].length > words[best].length) best = i;
  return best;
}

function respell(w: string, r: Rng): string | null {
  if (w.length < 4) return null;
  const ops: (() => string | null)[] = [
    // a letter dropped (not the first)
    () => {
      const i = 1 + r.int(w.length - 1);
      return w.slice(0, i) + w.slice(i + 1);
    },
    // a consonant doubled
    () => {
      const cs = [...w].map((c, i) => (isVowel(c) ? -1 : i)).filter((i) => i > 0);
      if (!cs.length) return null;
      const i = r.pick(cs);
      return w.slice(0, i + 1) + w[i] + w.slice(i + 1);
    },
    // two inner letters swapped
    () => {
      const i = 1 + r.int(w.length - 2);
      if (w[i] === w[i + 1]) return null;
      return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
    },
    // one vowel changed for another
    () => {
      const vs = [...w].map((c, i) => (isVowel(c) ? i : -1)).filter((i) => i >= 0);
      if (!vs.length) return null;
      const i = r.pick(vs);
      const others = [...VOWELS].filter((v) => v !== w[i]);
      return w.slice(0, i) + r.pick(others) + w.slice(i + 1);
    },
  ];
  for (let t = 0; t < 6; t++) {
    const out = r.pick(ops)();
    if (out && out !== w) return out;
  }
  return null;
}

/** Respellings said the same in English. */
const ENGLISH: [RegExp, string][] = [
  [/PH/, 'F'],
  [/F/, 'PH'],
  [/CK/, 'K'],
  [/C(?=[AOU])/, 'K'],
  [/K(?=[AOU])/, 'C'],
  [/QU/, 'KW'],
  [/X/, 'KS'],
  [/Y$/, 'IE'],
  [/IE$/, 'Y'],
  [/I(?=[^AEIOU]$)/, 'Y'],
  [/S$/, 'Z'],
  [/Z/, 'S'],
  [/OO/, 'U'],
  [/EE/, 'EA'],
  [/EA/, 'EE'],
  [/IGHT/, 'ITE'],
  [/TION$/, 'SHUN'],
  [/WR/, 'R'],
  [/KN/, 'N'],
];

/** Respellings said the same in Hinglish: the ways one Hindi word is romanised on the register. */
const HINGLISH: [RegExp, string][] = [
  [/EE/, 'I'],
  [/I(?=[^AEIOU]|$)/, 'EE'],
  [/OO/, 'U'],
  [/U/, 'OO'],
  [/AA/, 'A'],
  [/A(?=[^AEIOU])/, 'AA'],
  [/SH/, 'S'],
  [/SHR/, 'SR'],
  [/SR/, 'SHR'],
  [/W/, 'V'],
  [/V/, 'W'],
  [/PH/, 'F'],
  [/Z/, 'J'],
  [/KSH/, 'X'],
  [/TH/, 'T'],
  [/DH/, 'D'],
  [/BH/, 'B'],
  [/([^AEIOU])$/, '$1A'],
  [/([^AEIOU])A$/, '$1'],
  [/Y/, 'I'],
];

function soundAlike(w: string, rules: [RegExp, string][], r: Rng): string | null {
  const fit = rules.filter(([re]) => re.test(w)).map(([re, to]) => w.replace(re, to));
  const changed = fit.filter((x) => x !== w && x.length >= 2);
  return changed.length ? r.pick(changed) : null;
}

const GLUE = new Set(['THE', 'OF', 'AND']);

function descriptive(words: string[], cls: number, r: Rng): string[] | null {
  const trade = descriptiveWords(relatedClasses(cls));
  const pool = [...trade].filter((w) => !GLUE.has(w));
  const at = words.map((w, i) => (trade.has(w) ? i : -1)).filter((i) => i >= 0);
  const kept = words.length - at.length;
  const ops: (() => string[] | null)[] = [
    () => [...words, r.pick(pool)],
    () => {
      if (!at.length || kept < 1) return null;
      const i = r.pick(at);
      return words.filter((_, j) => j !== i);
    },
    () => {
      if (!at.length || kept < 1) return null;
      const i = r.pick(at);
      const other = pool.filter((w) => w !== words[i]);
      return words.map((w, j) => (j === i ? r.pick(other) : w));
    },
  ];
  // A mark of trade words alone has no distinctive word to keep.
  if (kept < 1) return null;
  for (let t = 0; t < 6; t++) {
    const out = r.pick(ops)();
    if (out) return out;
  }
  return null;
}

function translate(words: string[], r: Rng): string[] | null {
  const at = words.map((w, i) => (equivalents(w).length ? i : -1)).filter((i) => i >= 0);
  if (!at.length) return null;
  const i = r.pick(at);
  return words.map((w, j) => (j === i ? r.pick(equivalents(w)) : w));
}

function swap(words: string[], r: Rng): string[] | null {
  if (words.length < 2) return null;
  const i = r.int(words.length - 1);
  const out = [...words];
  if (words.length === 2 || r.next() < 0.5) [out[0], out[out.length - 1]] = [out[out.length - 1], out[0]];
  else [out[i], out[i + 1]] = [out[i + 1], out[i]];
  return out.join(' ') === words.join(' ') ? null : out;
}

function joinSplit(words: string[], r: Rng): string[] | null {
  if (words.length >= 2) {
    const i = r.int(words.length - 1);
    return [...words.slice(0, i), words[i] + words[i + 1], ...words.slice(i + 2)];
  }
  const w = words[0];
  if (w.length < 6) return null;
  const at = 3 + r.int(w.length - 5);
  return [w.slice(0, at), w.slice(at)];
}

/** The proposal a copier of `mark` (in class `cls`) would file with this edit, or null when the edit cannot apply. */
export function edit(kind: EditKind, mark: string, cls: number, r: Rng): string | null {
  const words = wordsOf(normaliseMark(mark));
  if (!words.length) return null;
  const one = (f: (w: string) => string | null) => {
    const i = mainWord(words);
    const w = f(words[i]);
    return w === null ? null : words.map((x, j) => (j === i ? w : x));
  };
  let out: string[] | null;
  switch (kind) {
    case 'respelling':
      out = one((w) => respell(w, r));
      break;
    case 'sound_english':
      out = one((w) => soundAlike(w, ENGLISH, r));
      break;
    case 'sound_hinglish':
      out = one((w) => soundAlike(w, HINGLISH, r));
      break;
    case 'descriptive':
      out = descriptive(words, cls, r);
      break;
    case 'translation':
      out = translate(words, r);
      break;
    case 'word_order':
      out = swap(words, r);
      break;
    case 'join_split':
      out = joinSplit(words, r);
      break;
  }
  if (!out) return null;
  const text = out.join(' ');
  return normaliseMark(text) === normaliseMark(mark) ? null : text;
}
