// A mark's words written in Devanagari, as Indian labels print the brand name beside its Latin form
// (SHREE GANESH: श्री गनेश). A plain phonetic reading of Hindi words spelt in Latin letters, the way the
// generator's words are (words.ts), not a dictionary: good enough to look like a label, and deterministic.
// Consonants meeting without a vowel join with a virama; a word's last consonant keeps its inherent a.

const CONSONANTS: [string, string][] = [
  ['chh', 'छ'],
  ['kh', 'ख'],
  ['gh', 'घ'],
  ['ch', 'च'],
  ['jh', 'झ'],
  ['th', 'थ'],
  ['dh', 'ध'],
  ['ph', 'फ'],
  ['bh', 'भ'],
  ['sh', 'श'],
  ['ck', 'क'],
  ['k', 'क'],
  ['g', 'ग'],
  ['c', 'क'],
  ['j', 'ज'],
  ['t', 'त'],
  ['d', 'द'],
  ['n', 'न'],
  ['p', 'प'],
  ['b', 'ब'],
  ['m', 'म'],
  ['y', 'य'],
  ['r', 'र'],
  ['l', 'ल'],
  ['v', 'व'],
  ['w', 'व'],
  ['s', 'स'],
  ['h', 'ह'],
  ['f', 'फ'],
  ['z', 'ज'],
  ['q', 'क'],
  ['x', 'क्स'],
];
// Vowels: the letter standing alone, and the sign after a consonant ('' for the inherent a).
const VOWELS: [string, string, string][] = [
  ['aa', 'आ', 'ा'],
  ['ai', 'ऐ', 'ै'],
  ['au', 'औ', 'ौ'],
  ['ee', 'ई', 'ी'],
  ['ii', 'ई', 'ी'],
  ['oo', 'ऊ', 'ू'],
  ['ou', 'औ', 'ौ'],
  ['a', 'अ', ''],
  ['i', 'इ', 'ि'],
  ['u', 'उ', 'ु'],
  ['e', 'ए', 'े'],
  ['o', 'ओ', 'ो'],
];
const VIRAMA = '्';
const DIGITS = '०१२३४५६७८९';

function word(w: string): string {
  let out = '';
  let afterConsonant = false;
  let k = 0;
  while (k < w.length) {
    const v = VOWELS.find(([l]) => w.startsWith(l, k));
    if (v) {
      out += afterConsonant ? v[2] : v[1];
      afterConsonant = false;
      k += v[0].length;
      continue;
    }
    const c = CONSONANTS.find(([l]) => w.startsWith(l, k));
    if (c) {
      if (afterConsonant) out += VIRAMA;
      out += c[1];
      afterConsonant = true;
      k += c[0].length;
      continue;
    }
    const d = w.charCodeAt(k) - 48;
    if (d >= 0 && d <= 9) out += DIGITS[d];
    afterConsonant = false;
    k++;
  }
  return out;
}

/** The words of `text` (Latin letters and digits) in Devanagari; other characters are left out. */
export function toDevanagari(text: string): string {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(word)
    .join(' ');
}
