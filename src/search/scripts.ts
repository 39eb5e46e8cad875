// Letters of other scripts, written as the Latin letters a searcher would type (docs/search.md,
// "Other scripts"): Indic scripts romanised, Greek and Cyrillic letters that look Latin folded to
// the Latin letter, and Greek and Cyrillic words transliterated. Shipped tables rather than a
// package: the transliteration packages map Indic letters one by one and drop the vowel every
// consonant carries (नमकीन → NMKIN), which the register writes (NAMKEEN), so a Devanagari mark would
// only ever meet its romanisation as a sound-alike.

// ---------------------------------------------------------------------------------------------
// Indic scripts. Unicode lays the nine main ones out alike (from ISCII): the same offset in each
// block of 128 is the same letter, so one table serves Devanagari, Bengali, Gurmukhi, Gujarati,
// Odia, Tamil, Telugu, Kannada and Malayalam, with a few letters of their own. Romanised the way
// India's register and signboards mostly write them (Hunterian: SH, CH, CHH, long vowels single).

const BLOCK_FIRST = 0x0900;
const BLOCK_END = 0x0d80;
const SCRIPTS = ['deva', 'beng', 'guru', 'gujr', 'orya', 'taml', 'telu', 'knda', 'mlym'] as const;
type Script = (typeof SCRIPTS)[number];

/** Scripts whose languages drop the vowel a consonant carries at the end of a word and between some consonants (GANESH). */
const DROPS_SCHWA = new Set<Script>(['deva', 'beng', 'guru', 'gujr', 'orya']);

/** Consonants by offset 0x15-0x39 in the block. */
// biome-ignore format: a table
const CONSONANTS = [
  'K', 'KH', 'G', 'GH', 'N', 'CH', 'CHH', 'J', 'JH', 'N', 'T', 'TH', 'D', 'DH', 'N', 'T', 'TH', 'D', 'DH', 'N', 'N', 'P', 'PH', 'B',
  'BH', 'M', 'Y', 'R', 'R', 'L', 'L', 'L', 'V', 'SH', 'SH', 'S', 'H',
];
/** Independent vowels by offset 0x04-0x14. */
const VOWELS = ['A', 'A', 'A', 'I', 'I', 'U', 'U', 'RI', 'LI', 'E', 'E', 'E', 'AI', 'O', 'O', 'O', 'AU'];
/** Vowel signs by offset 0x3e-0x4c. */
const SIGNS = ['A', 'I', 'I', 'U', 'U', 'RI', 'RI', 'E', 'E', 'E', 'AI', 'O', 'O', 'O', 'AU'];

// NFC (which every run is read in) spells the nukta letters (क़ ड़ য় ਖ਼) as the consonant and a nukta.
/** Letters of one script only (offset → consonant): Bengali and Assamese, Gurmukhi, Odia, Tamil, Telugu. */
// biome-ignore format: a table
const OWN_CONSONANTS: Partial<Record<Script, Map<number, string>>> = {
  // Bengali writes য as J (যমুনা JAMUNA) and ব as B.
  beng: new Map([[0x2f, 'J'], [0x70, 'R'], [0x71, 'V']]),
  guru: new Map([[0x5c, 'R']]),
  orya: new Map([[0x5f, 'Y'], [0x71, 'V']]),
  // Tamil's ச is said, and romanised, S at the start of a word (சக்தி SAKTHI).
  taml: new Map([[0x1a, 'S']]),
  telu: new Map([[0x58, 'TS'], [0x59, 'DZ'], [0x5a, 'R']]),
};
/** Consonants written without their vowel (Bengali's khanda ta, Malayalam's chillus). */
// biome-ignore format: a table
const OWN_FINALS: Partial<Record<Script, Map<number, string>>> = {
  beng: new Map([[0x4e, 'T']]),
  mlym: new Map([[0x54, 'M'], [0x55, 'Y'], [0x56, 'L'], [0x7a, 'N'], [0x7b, 'N'], [0x7c, 'R'], [0x7d, 'L'], [0x7e, 'L'], [0x7f, 'K']]),
};
/**
 * A consonant (by offset) with a nukta: the sound it stands for (क़ Q, ज़ Z, फ़ F, য় Y, Gurmukhi ਸ਼ SH).
 * ड़ and ढ़ stay D and DH, as Hindi brands write them (घड़ी GHADI, बीड़ी BIDI).
 */
// biome-ignore format: a table
const NUKTA = new Map([[0x15, 'Q'], [0x17, 'GH'], [0x1c, 'Z'], [0x2b, 'F'], [0x2f, 'Y'], [0x38, 'SH']]);

type Kind =
  | 'consonant'
  | 'final'
  | 'vowel'
  | 'sign'
  | 'virama'
  | 'nukta'
  | 'nasal'
  | 'visarga'
  | 'geminate'
  | 'digit'
  | 'om'
  | 'break'
  | 'none';

interface Letter {
  kind: Kind;
  text: string;
  /** Offset in the block, for the consonants (labials take M before them, ज्ञ is GY). */
  at: number;
}

function letter(cp: number): Letter {
  const script = SCRIPTS[(cp - BLOCK_FIRST) >> 7];
  const at = cp & 0x7f;
  const own = OWN_CONSONANTS[script]?.get(at);
  if (own !== undefined) return { kind: 'consonant', text: own, at };
  const final = OWN_FINALS[script]?.get(at);
  if (final !== undefined) return { kind: 'final', text: final, at };
  if (script === 'guru' && at === 0x70) return { kind: 'nasal', text: '', at };
  if (script === 'guru' && at === 0x71) return { kind: 'geminate', text: '', at };
  // Gurmukhi's vowel bearers ੲ and ੳ carry a vowel sign: alone they are the vowel it gives.
  if (script === 'guru' && (at === 0x72 || at === 0x73)) return { kind: 'vowel', text: '', at };
  if (at >= 0x15 && at <= 0x39) return { kind: 'consonant', text: CONSONANTS[at - 0x15], at };
  if (at >= 0x04 && at <= 0x14) return { kind: 'vowel', text: VOWELS[at - 0x04], at };
  if (at === 0x60) return { kind: 'vowel', text: 'RI', at };
  if (at === 0x61) return { kind: 'vowel', text: 'LI', at };
  if (at >= 0x3e && at <= 0x4c) return { kind: 'sign', text: SIGNS[at - 0x3e], at };
  if (at === 0x62 || at === 0x63) return { kind: 'sign', text: 'LI', at };
  if (at === 0x4d) return { kind: 'virama', text: '', at };
  if (at === 0x3c) return { kind: 'nukta', text: '', at };
  if (at === 0x01 || at === 0x02) return { kind: 'nasal', text: '', at };
  if (at === 0x03) return { kind: 'visarga', text: 'H', at };
  if (at >= 0x66 && at <= 0x6f) return { kind: 'digit', text: String(at - 0x66), at };
  if (script === 'deva' && at === 0x50) return { kind: 'om', text: 'OM', at };
  if (script === 'taml' && at === 0x50) return { kind: 'om', text: 'OM', at };
  if (script === 'deva' && (at === 0x64 || at === 0x65 || at === 0x70)) return { kind: 'break', text: ' ', at };
  // Length marks, accents, the avagraha: nothing a searcher types.
  return { kind: 'none', text: '', at };
}

const LETTERS = new Map<number, Letter>();
const letterOf = (cp: number): Letter => {
  let l = LETTERS.get(cp);
  if (!l) LETTERS.set(cp, (l = letter(cp)));
  return l;
};

/** One syllable of a word: its consonants, its vowel, and what closes it. */
interface Syllable {
  onset: string;
  /** Consonants in the onset (a cluster of two or more never loses the vowel after it). */
  size: number;
  /** Offset of the onset's first consonant (-1 without one), for a nasal before it. */
  first: number;
  /** Offset of the onset's last consonant, for a nukta or ज्ञ, and how many letters it is written in. */
  last: number;
  lastLength: number;
  vowel: string;
  /** The vowel is the one the consonant carries, not written: it may be dropped. */
  inherent: boolean;
  /** A nasal sign (ं ँ) closing the syllable. */
  nasal: boolean;
  coda: string;
  /** A virama ended the onset: the next consonant joins it. */
  open: boolean;
}

const isIndic = (cp: number) => cp >= BLOCK_FIRST && cp < BLOCK_END;
// Joiners choose how a cluster is drawn (क्‍ष, Malayalam's chillus), not what it says.
const isJoiner = (cp: number) => cp === 0x200c || cp === 0x200d;
// p, ph, b, bh, m and v: an anusvara before them is said M (अंबिका AMBIKA, संवाद SAMVAD).
const isLabial = (at: number) => (at >= 0x2a && at <= 0x2e) || at === 0x35;

/** Text with every run of Indic letters romanised in upper case; everything else as it was. */
export function romaniseIndic(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    if (!isIndic(cp)) {
      out += String.fromCodePoint(cp);
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    let j = i;
    while (j < text.length && (isIndic(text.charCodeAt(j)) || isJoiner(text.charCodeAt(j)))) j++;
    out += romaniseRun(text.slice(i, j));
    i = j;
  }
  return out;
}

/** A run of Indic letters (digits and dandas may cut it into several words). */
function romaniseRun(run: string): string {
  const script = SCRIPTS[(run.charCodeAt(0) - BLOCK_FIRST) >> 7];
  let out = '';
  let word: Syllable[] = [];
  let geminate = false;
  const flush = () => {
    if (word.length) out += spell(word, DROPS_SCHWA.has(script));
    word = [];
  };
  for (const ch of run) {
    const cp = ch.charCodeAt(0);
    if (isJoiner(cp)) continue;
    const l = letterOf(cp);
    const cur = word.at(-1);
    switch (l.kind) {
      case 'consonant':
      case 'final': {
        const c = geminate ? l.text[0] + l.text : l.text;
        geminate = false;
        if (cur?.open) {
          // ज्ञ is said GY in Hindi (ज्ञान GYAN).
          if (cur.last === 0x1c && l.at === 0x1e) cur.onset = `${cur.onset.slice(0, -1)}GY`;
          else cur.onset += c;
          cur.size++;
          cur.last = l.at;
          cur.lastLength = c.length;
          cur.open = l.kind === 'final';
          cur.vowel = l.kind === 'final' ? '' : 'A';
          cur.inherent = l.kind !== 'final';
        } else {
          const fin = l.kind === 'final';
          word.push({
            onset: c,
            size: 1,
            first: l.at,
            last: l.at,
            lastLength: c.length,
            vowel: fin ? '' : 'A',
            inherent: !fin,
            nasal: false,
            coda: '',
            open: fin,
          });
        }
        break;
      }
      case 'nukta': {
        const sound = cur?.onset ? NUKTA.get(cur.last) : undefined;
        if (cur && sound) {
          cur.onset = cur.onset.slice(0, cur.onset.length - cur.lastLength) + sound;
          cur.lastLength = sound.length;
        }
        break;
      }
      case 'virama':
        if (cur?.onset && cur.inherent) {
          cur.vowel = '';
          cur.inherent = false;
          cur.open = true;
        }
        break;
      case 'sign':
        if (cur && (cur.inherent || (cur.onset === '' && cur.vowel === ''))) {
          cur.vowel = l.text;
          cur.inherent = false;
          cur.open = false;
        } else {
          word.push(syllable('', l.text));
        }
        break;
      case 'vowel':
        word.push(syllable('', l.text));
        break;
      case 'nasal':
        if (cur) cur.nasal = true;
        else word.push({ ...syllable('', ''), nasal: true });
        break;
      case 'visarga':
        if (cur) cur.coda += 'H';
        break;
      case 'geminate':
        geminate = true;
        break;
      case 'digit':
      case 'om':
      case 'break':
        flush();
        out += l.text;
        break;
      default:
        break;
    }
  }
  flush();
  return out;
}

function syllable(onset: string, vowel: string): Syllable {
  return { onset, size: 0, first: -1, last: -1, lastLength: 0, vowel, inherent: false, nasal: false, coda: '', open: false };
}

/**
 * A word's syllables written out. Where the language drops the vowel a consonant carries, it is
 * dropped at the end of a word of two syllables or more (गणेश GANESH) unless a cluster comes before
 * it (कृष्ण KRISHNA, सूर्य SURYA); then, left to right, between two syllables that keep theirs when
 * no cluster of three would form (नमकीन NAMKIN, राजकमल RAJKAMAL, भारत BHARAT, but पतंजलि PATANJALI): a short form of
 * the rule Hindi speakers follow (Narasimhan, Sproat and Kiraz, "Schwa-deletion in Hindi", 2004).
 */
function spell(s: Syllable[], dropsSchwa: boolean): string {
  const n = s.length;
  if (dropsSchwa && n >= 2) {
    const droppable = (x: Syllable) => x.inherent && x.size === 1 && !x.nasal && !x.coda;
    const drop = (x: Syllable) => {
      x.vowel = '';
      x.inherent = false;
    };
    if (droppable(s[n - 1]) && s[n - 2].vowel) drop(s[n - 1]);
    for (let i = 1; i < n - 1; i++) {
      const [prev, x, next] = [s[i - 1], s[i], s[i + 1]];
      if (droppable(x) && prev.vowel && !prev.nasal && !prev.coda && next.size === 1 && next.vowel) drop(x);
    }
  }
  let out = '';
  for (let i = 0; i < n; i++) {
    const x = s[i];
    out += x.onset + x.vowel;
    if (x.nasal) out += i + 1 < n && x.vowel && isLabial(s[i + 1].first) ? 'M' : 'N';
    out += x.coda;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Greek and Cyrillic. Read in upper case with accents already dropped (Й is И, Ё is Е, Ά is Α).

/** Greek and Cyrillic capitals drawn like a Latin capital: a copier's МОВВI for MOBBI. */
// biome-ignore format: a table
const LOOKALIKE: Record<string, string> = {
  // Cyrillic
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', У: 'Y',
  Ѕ: 'S', І: 'I', Ј: 'J', Ү: 'Y', Һ: 'H', Ԛ: 'Q', Ԝ: 'W', Ӏ: 'I',
  // Greek
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T',
  Υ: 'Y', Χ: 'X', Ϲ: 'C', Ϳ: 'J',
};

/** Cyrillic as Russian passports and road signs spell it (BGN/PCGN without diacritics), with the letters of the other languages. */
// biome-ignore format: a table
const CYRILLIC: Record<string, string> = {
  А: 'A', Б: 'B', В: 'V', Г: 'G', Д: 'D', Е: 'E', Ж: 'ZH', З: 'Z', И: 'I', К: 'K', Л: 'L', М: 'M', Н: 'N',
  О: 'O', П: 'P', Р: 'R', С: 'S', Т: 'T', У: 'U', Ф: 'F', Х: 'KH', Ц: 'TS', Ч: 'CH', Ш: 'SH', Щ: 'SHCH',
  Ъ: '', Ы: 'Y', Ь: '', Э: 'E', Ю: 'YU', Я: 'YA', Є: 'YE', І: 'I', Ґ: 'G', Ђ: 'DJ', Ј: 'J', Љ: 'LJ',
  Њ: 'NJ', Ћ: 'C', Џ: 'DZ', Ѕ: 'DZ', Ў: 'U', Ѓ: 'GJ', Ќ: 'KJ', Ү: 'U', Һ: 'H', Ө: 'O', Ә: 'A', Ғ: 'GH',
  Қ: 'Q', Ң: 'NG', Ұ: 'U', Ӏ: '',
};

/** Modern Greek as Greece transcribes it (ELOT 743): Η and Υ are I and Y, Χ is CH, Β is V. */
// biome-ignore format: a table
const GREEK: Record<string, string> = {
  Α: 'A', Β: 'V', Γ: 'G', Δ: 'D', Ε: 'E', Ζ: 'Z', Η: 'I', Θ: 'TH', Ι: 'I', Κ: 'K', Λ: 'L', Μ: 'M',
  Ν: 'N', Ξ: 'X', Ο: 'O', Π: 'P', Ρ: 'R', Σ: 'S', Τ: 'T', Υ: 'Y', Φ: 'F', Χ: 'CH', Ψ: 'PS', Ω: 'O',
  Ϲ: 'S', Ϳ: 'J',
};
/** Greek letter pairs said as one sound: at the start of a word, then elsewhere. */
// biome-ignore format: a table
const GREEK_PAIRS: Record<string, [string, string]> = {
  ΟΥ: ['OU', 'OU'], ΑΥ: ['AV', 'AV'], ΕΥ: ['EV', 'EV'], ΜΠ: ['B', 'MP'], ΝΤ: ['D', 'NT'], ΓΚ: ['G', 'NK'],
  ΓΓ: ['NG', 'NG'], ΓΞ: ['NX', 'NX'], ΓΧ: ['NCH', 'NCH'],
};

const GREEK_OR_CYRILLIC = /[\u0370-\u03ff\u0400-\u052f]/;
const LATIN = /\p{Script=Latin}/u;

/** Text (upper case, accents dropped) holding Greek or Cyrillic letters; each of its words folded or transliterated. */
export function foldGreekCyrillic(text: string, transliterate: boolean): string {
  return text
    .split(/([^\p{L}\p{N}]+)/u)
    .map((w) => (GREEK_OR_CYRILLIC.test(w) ? foldWord(w, transliterate) : w))
    .join('');
}

/**
 * A word with Greek or Cyrillic letters. Beside Latin letters, or where every one of them looks like
 * a Latin letter, they are a disguise and read as the letters they look like (СОСА is COCA); a word
 * of other Greek or Cyrillic letters is transliterated (ВОДКА is VODKA, ΑΘΗΝΑ ATHINA), or left as
 * it is when not `transliterate` (EXACT: the mark as it looks).
 */
function foldWord(w: string, transliterate: boolean): string {
  const chars = [...w];
  const foreign = chars.filter((c) => GREEK_OR_CYRILLIC.test(c));
  if (LATIN.test(w) || foreign.every((c) => LOOKALIKE[c] !== undefined)) {
    return chars.map((c) => LOOKALIKE[c] ?? (transliterate ? one(c) : c)).join('');
  }
  if (!transliterate) return w;
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const pair = GREEK_PAIRS[chars[i] + (chars[i + 1] ?? '')];
    if (pair) {
      out += pair[i === 0 ? 0 : 1];
      i++;
    } else {
      out += one(chars[i]);
    }
  }
  return out;
}

const one = (c: string): string => GREEK[c] ?? CYRILLIC[c] ?? c;
