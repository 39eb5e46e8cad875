import { doubleMetaphone } from 'double-metaphone';
import { foldGreekCyrillic, romaniseIndic } from './scripts.ts';

// How word marks and queries are compared. One module, so the index, the SQL reference path
// (src/search/sqlReference.ts mirrors normaliseMark in SQL for Latin text) and logo OCR text all agree.

/**
 * The searchable form of a mark: letters folded (below), upper case, every run of characters that are
 * not letters or digits turned into one space, trimmed. "Sri-Sai  Foods (P) Ltd." → "SRI SAI FOODS P LTD",
 * "श्री गणेश" → "SHRI GANESH", "МОВВI" → "MOBBI".
 */
export function normaliseMark(text: string): string {
  const fast = normaliseAscii(text);
  if (fast !== null) return fast;
  return foldLetters(text, true)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

// The same for plain ASCII text without building intermediate strings: most of the register.
const ALREADY = /^[A-Z0-9]+(?: [A-Z0-9]+)*$/;

function normaliseAscii(text: string): string | null {
  if (ALREADY.test(text)) return text;
  let out = '';
  let pendingSpace = false;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 128) return null;
    if (c >= 97 && c <= 122) c -= 32;
    if ((c >= 65 && c <= 90) || (c >= 48 && c <= 57)) {
      if (pendingSpace && out.length) out += ' ';
      pendingSpace = false;
      out += String.fromCharCode(c);
    } else {
      pendingSpace = true;
    }
  }
  return out;
}

/**
 * EXACT's comparison key: the mark as it looks, ignoring case, runs of whitespace, accents and the
 * letters SMART folds letter for letter (Æ, Ø, Ł, ß; Greek and Cyrillic look-alikes), so CAFÉ is CAFE
 * and МОВВI is MOBBI; punctuation counts, and a mark in another script stays in it (श्री गणेश is not
 * SHRI GANESH). Marks with equal keys have equal normalised forms, which EXACT looks them up by.
 */
export function exactKey(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is the range from NUL
  const letters = /^[\x00-\x7f]*$/.test(text) ? text.toUpperCase() : foldLetters(text, false);
  return letters.replace(/\s+/g, ' ').trim();
}

// Letters Unicode does not decompose into a Latin letter and an accent, folded as PostgreSQL's
// unaccent folds them (the SQL reference, src/search/sqlReference.ts, relies on it).
const LATIN_LETTERS: Record<string, string> = { Æ: 'AE', Œ: 'OE', Ø: 'O', Ł: 'L', Đ: 'D', Ð: 'D', Þ: 'TH', Ħ: 'H', Ŧ: 'T', Ŋ: 'N', ĸ: 'Q' };
const LATIN_LETTER = new RegExp(`[${Object.keys(LATIN_LETTERS).join('')}]`, 'g');
const INDIC = /[\u0900-\u0d7f]/;
// Combining marks, except the Indic vowel signs and viramas that EXACT keeps (they are letters there, not accents).
const ACCENTS = /(?![\u0900-\u0d7f])\p{M}/gu;
const GREEK_OR_CYRILLIC = /[\u0370-\u052f]/;

/**
 * Upper case, accents dropped, Æ Œ Ø Ł… spelled in Latin letters, Greek and Cyrillic look-alikes read
 * as the Latin letters they look like; with `transliterate` (SMART) Indic scripts are also romanised and
 * Greek and Cyrillic words transliterated (src/search/scripts.ts).
 */
function foldLetters(text: string, transliterate: boolean): string {
  let s = transliterate && INDIC.test(text) ? romaniseIndic(text.normalize('NFC')) : text;
  s = s
    .normalize('NFKD')
    .replace(transliterate ? /\p{M}+/gu : ACCENTS, '')
    .toUpperCase()
    .replace(LATIN_LETTER, (c) => LATIN_LETTERS[c]);
  return GREEK_OR_CYRILLIC.test(s) ? foldGreekCyrillic(s, transliterate) : s;
}

export function wordsOf(normalised: string): string[] {
  return normalised.length ? normalised.split(' ') : [];
}

const ONES = [
  'ZERO',
  'ONE',
  'TWO',
  'THREE',
  'FOUR',
  'FIVE',
  'SIX',
  'SEVEN',
  'EIGHT',
  'NINE',
  'TEN',
  'ELEVEN',
  'TWELVE',
  'THIRTEEN',
  'FOURTEEN',
  'FIFTEEN',
  'SIXTEEN',
  'SEVENTEEN',
  'EIGHTEEN',
  'NINETEEN',
];
const TENS = ['', '', 'TWENTY', 'THIRTY', 'FORTY', 'FIFTY', 'SIXTY', 'SEVENTY', 'EIGHTY', 'NINETY'];

// A digit alone is read as the word it stands for in brand names: 2 as TO (2GETHER), 4 as FOR (4EVER),
// 8 as ATE (GR8); they sound like TWO, FOUR and EIGHT anyway.
const DIGIT_SOUNDS = ['ZERO', 'ONE', 'TO', 'THREE', 'FOR', 'FIVE', 'SIX', 'SEVEN', 'ATE', 'NINE'];

/** A number as English words run together (4 → FOR, 24 → TWENTYFOUR, 786 → SEVENHUNDREDEIGHTYSIX). */
export function numberWords(digits: string): string {
  if (digits.length === 1) return DIGIT_SOUNDS[Number(digits)];
  const n = Number(digits);
  if (!Number.isSafeInteger(n) || digits.length > 4) return [...digits].map((d) => ONES[Number(d)]).join('');
  const parts: string[] = [];
  let rest = n;
  if (rest >= 1000) {
    parts.push(ONES[Math.floor(rest / 1000)], 'THOUSAND');
    rest %= 1000;
  }
  if (rest >= 100) {
    parts.push(ONES[Math.floor(rest / 100)], 'HUNDRED');
    rest %= 100;
  }
  if (rest >= 20) {
    parts.push(TENS[Math.floor(rest / 10)]);
    rest %= 10;
    if (rest) parts.push(ONES[rest]);
  } else if (rest || !parts.length) {
    parts.push(ONES[rest]);
  }
  return parts.join('');
}

// Indian romanisation: the same sound spelled several ways (SHREE/SHRI/SRI, PHOOL/FUL, LAKSHMI/LAXMI,
// KHAN/KAN). Folded before the phonetic code, longest first. Double Metaphone then drops the vowel
// differences that are left (aa/a, ee/i, oo/u inside a word).
const ROMANISATION: [RegExp, string][] = [
  // English spellings first: KNIGHT, NIGHT and NITE; QUALITY and KWALITY; TWOGETHER and 2GETHER.
  [/IGH/g, 'I'],
  [/QU/g, 'KV'],
  [/^TWO/, 'TO'],
  [/AA/g, 'A'],
  [/EE/g, 'I'],
  [/OO/g, 'U'],
  [/PH/g, 'F'],
  [/W/g, 'V'],
  [/Q/g, 'K'],
  [/SH/g, 'S'],
  [/BH/g, 'B'],
  [/KH/g, 'K'],
  [/GH/g, 'G'],
  [/TH/g, 'T'],
  [/DH/g, 'D'],
  [/JH/g, 'J'],
  [/CK/g, 'K'],
  [/Z/g, 'J'],
];

/** A word with numbers spelled out and Indian romanisation folded: the input to the phonetic code. */
export function romanise(word: string): string {
  let w = word.replace(/\d+/g, numberWords);
  for (const [re, to] of ROMANISATION) w = w.replace(re, to);
  return w;
}

/**
 * The word's sound-alike codes: Double Metaphone (primary and, when different, alternate) of its
 * romanised form. Words sharing a code sound alike. Words without Latin letters have none.
 */
export function phoneticCodes(word: string): string[] {
  const r = romanise(word);
  if (!/[A-Z]/.test(r)) return [];
  const [a, b] = doubleMetaphone(r);
  if (!a) return [];
  const out = b && b !== a ? [a, b] : [a];
  // A number of several digits is also said digit by digit (786: SEVEN EIGHT SIX).
  if (/\d\d/.test(word)) {
    const [c] = doubleMetaphone(romaniseDigits(word));
    if (c && !out.includes(c)) out.push(c);
  }
  return out;
}

function romaniseDigits(word: string): string {
  let w = word.replace(/\d/g, (d) => ONES[Number(d)]);
  for (const [re, to] of ROMANISATION) w = w.replace(re, to);
  return w;
}

/**
 * How far apart two words may be spelled and still count as a spelling variant: none up to three
 * characters, one edit up to seven, two from eight (the query word's length decides).
 */
export function maxEdits(length: number): number {
  return length <= 3 ? 0 : length <= 7 ? 1 : 2;
}
