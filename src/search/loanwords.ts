// English words written in an Indic script (सनराइज, फ़ूड्स, गोल्डन) read back as the Latin words the register
// spells them with (SUNRISE, FOODS, GOLDEN). Romanising letter by letter gives SANRAIJ, FUDSA, GOLDAN: a Hindi
// writer spells an English word by its sound, and the sound has many English spellings. So a romanised word is
// respelled piece by piece with the spellings English gives that sound (schwa A as U, E or O; AI as I or A; J as
// Z, S or G; PH as F; V as W; a silent E at the end), and a respelling counts only when the register holds it as
// a word: the register, not a dictionary, says which English word was meant (docs/clearance.md, *Marks across
// scripts*). Respellings are walked through the vocabulary's prefixes, so a branch no word starts with ends at
// once, and the fewest changes win.

/** What the respelling asks of the register: whether any word starts with a prefix, and how many marks hold a word. */
export interface Lexicon {
  hasPrefix(prefix: string): boolean;
  holders(word: string): number;
}

/** A piece of a romanised word and its English spellings with what each costs (the piece itself, first, costs 0). */
type Piece = [string, [string, number][]];

// Longest pieces first: CHH before CH, AI before A. A change costs what it says of the sound: the schwa written
// U (SANRAIJ, SUNRISE) is how English spells it, a vowel written otherwise much less so.
// biome-ignore format: a table
const PIECES: Piece[] = [
  ['CHH', [['CHH', 0], ['CH', 0.3]]],
  ['KS', [['KS', 0], ['X', 0.5], ['CKS', 0.5], ['CS', 0.7]]], ['KV', [['KV', 0], ['QU', 0.5], ['KW', 0.7]]],
  ['VH', [['VH', 0], ['WH', 0.5], ['W', 0.7]]],
  ['CH', [['CH', 0], ['TCH', 0.7], ['C', 1]]], ['SH', [['SH', 0], ['CI', 0.8], ['TI', 0.8], ['S', 1], ['CH', 1]]],
  ['KH', [['KH', 0], ['K', 0.5]]], ['GH', [['GH', 0], ['G', 0.5]]], ['TH', [['TH', 0], ['T', 0.5]]],
  ['DH', [['DH', 0], ['D', 0.5], ['TH', 0.7]]], ['PH', [['PH', 0], ['F', 0.3], ['FF', 0.6]]], ['BH', [['BH', 0], ['B', 0.5]]],
  ['JH', [['JH', 0], ['J', 0.5], ['Z', 0.8]]],
  ['AI', [['AI', 0], ['I', 0.5], ['A', 0.5], ['IGH', 0.7], ['Y', 0.8], ['IE', 1], ['AY', 1], ['EI', 1]]],
  ['AU', [['AU', 0], ['OW', 0.5], ['O', 0.8], ['AW', 0.8], ['OU', 0.8]]],
  ['AY', [['AY', 0], ['IA', 0.7], ['I', 0.7], ['AI', 0.8], ['EY', 1], ['EI', 1]]],
  ['EY', [['EY', 0], ['AI', 0.7], ['AY', 0.7], ['EI', 1], ['A', 1]]],
  ['AL', [['AL', 0], ['UL', 0.5], ['EL', 0.7], ['LE', 0.7], ['OL', 0.8], ['ALL', 0.5]]],
  ['A', [['A', 0], ['U', 0.5], ['E', 0.7], ['O', 0.8], ['I', 1.2], ['EA', 1.2]]],
  ['E', [['E', 0], ['A', 0.5], ['AI', 0.7], ['EA', 0.8], ['AY', 0.8]]],
  ['I', [['I', 0], ['EE', 0.5], ['Y', 1], ['EA', 0.7], ['IE', 1], ['E', 1.5]]],
  ['U', [['U', 0], ['OO', 0.5], ['O', 0.8], ['OU', 1], ['EW', 1]]],
  ['O', [['O', 0], ['OW', 0.7], ['OA', 0.8], ['AU', 1], ['AW', 1], ['OU', 1]]],
  ['K', [['K', 0], ['C', 0.5], ['CK', 0.5], ['Q', 1], ['CH', 1]]], ['G', [['G', 0], ['GG', 0.5], ['GU', 1]]],
  ['J', [['J', 0], ['Z', 0.7], ['G', 0.7], ['S', 0.8], ['GE', 0.8], ['DGE', 0.8]]],
  ['T', [['T', 0], ['TT', 0.5]]], ['D', [['D', 0], ['DD', 0.5]]], ['N', [['N', 0], ['NN', 0.5], ['KN', 1]]],
  ['P', [['P', 0], ['PP', 0.5]]], ['F', [['F', 0], ['PH', 0.5], ['FF', 0.5]]], ['B', [['B', 0], ['BB', 0.5]]],
  ['M', [['M', 0], ['MM', 0.5]]], ['Y', [['Y', 0], ['I', 0.8], ['', 1]]], ['R', [['R', 0], ['RR', 0.5]]],
  ['L', [['L', 0], ['LL', 0.5]]], ['V', [['V', 0], ['W', 0.5]]],
  // Tamil writes CH and S with one letter, romanised S at the start of a word (சென்னை SENNAI, CHENNAI).
  ['S', [['S', 0], ['SS', 0.5], ['C', 0.7], ['CE', 0.7], ['SE', 0.7], ['Z', 1], ['CH', 1]]],
  ['Z', [['Z', 0], ['S', 0.5], ['SE', 0.7], ['ZZ', 0.5]]], ['H', [['H', 0], ['', 1]]],
  ['Q', [['Q', 0], ['K', 0.5]]], ['W', [['W', 0], ['V', 0.5]]], ['X', [['X', 0], ['KS', 0.5]]],
];
/** The last piece's spellings at the end of a word, where English spells a sound its own way (LAKI LUCKY, not LAKE). */
// biome-ignore format: a table
const LAST: Map<string, [string, number][]> = new Map([
  ['I', [['I', 0], ['Y', 0.5], ['EE', 0.5], ['IE', 1], ['EY', 1], ['E', 2]]],
  // A vowel the consonants before it carry at the end of a word (FUDSA, SMARTA) is often not said in English.
  ['A', [['A', 0], ['', 0.5], ['U', 0.7], ['ER', 1], ['AH', 1]]],
]);
/** A silent E at the end, as English writes a long vowel (RAIJ, RISE). */
const SILENT_E = 0.5;

/** How much a word of this length may be changed: a short word respelled far is another word. */
const budget = (length: number) => Math.min(3, 0.5 + 0.3 * length);
/** At most this many readings of one word: the cheapest, and one more within this much of it. */
const READINGS = 2;
const CLOSE = 0.3;
/** How many times more often than as romanised the register must hold a reading of a word it holds both ways. */
const OTHERWISE = 3;
/** What a tenfold of the register's holders of a reading is worth, in changes. */
const HELD = 0.5;
/** Respellings tried per word, whatever the vocabulary: bounds the walk on a long word. */
const STEPS = 20_000;

function split(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; ) {
    const piece = PIECES.find(([p]) => word.startsWith(p, i))?.[0] ?? word[i];
    out.push(piece);
    i += piece.length;
  }
  return out;
}

const spellings = new Map(PIECES);

/**
 * The Latin words of the register a romanised Indic word may be read as, the fewest changes and most held first,
 * none when the register holds the word as romanised nearly as often as any reading.
 */
export function readingsOf(romanised: string, lexicon: Lexicon, most = Number.POSITIVE_INFINITY): string[] {
  if (!/^[A-Z]{3,}$/.test(romanised)) return [];
  const pieces = split(romanised);
  const max = Math.min(most, budget(romanised.length));
  const found = new Map<string, number>();
  let steps = 0;
  const walk = (at: number, prefix: string, cost: number) => {
    if (++steps > STEPS) return;
    if (at === pieces.length) {
      for (const [word, c] of [
        [prefix, cost],
        [`${prefix}E`, cost + SILENT_E],
      ] as const) {
        if (c > max + 1e-9 || word === romanised || c >= (found.get(word) ?? Number.POSITIVE_INFINITY)) continue;
        if (lexicon.holders(word) > 0) found.set(word, c);
      }
      return;
    }
    const piece = pieces[at];
    const options = (at === pieces.length - 1 && at > 0 && LAST.get(piece)) || spellings.get(piece) || [[piece, 0]];
    for (const [spelling, change] of options) {
      const c = cost + change;
      if (c > max + 1e-9) continue;
      const next = prefix + spelling;
      if (next !== prefix && !lexicon.hasPrefix(next)) continue;
      walk(at + 1, next, c);
    }
  };
  walk(0, '', 0);
  if (!found.size) return [];
  const own = lexicon.holders(romanised);
  // The register's own respellings (SUNRIS, FUDS) are a change or two closer than the word they respell: a word many
  // marks hold is what a writer most likely meant, so each tenfold of holders is worth half a change.
  const ranked = [...found]
    .map(([word, cost]) => ({ word, holders: lexicon.holders(word), cost }))
    // A word the register holds as romanised (MATA, KESRI) is a word Indian marks write so: read otherwise only when
    // the register writes it otherwise far more often (SHRI, SHREE).
    .filter((r) => r.holders > OTHERWISE * own)
    .map((r) => ({ ...r, rank: r.cost - HELD * Math.log10(1 + r.holders) }))
    .sort((a, b) => a.rank - b.rank || b.holders - a.holders || (a.word < b.word ? -1 : 1));
  if (!ranked.length) return [];
  return ranked
    .filter((r) => r.rank <= ranked[0].rank + CLOSE)
    .slice(0, READINGS)
    .map((r) => r.word);
}

/** Each English spelling of a piece, longest first, with the piece it spells: the walk back from English. */
const BACK: [string, string, number][] = PIECES.flatMap(([piece, options]) =>
  options.filter(([spelling]) => spelling !== '').map(([spelling, cost]): [string, string, number] => [spelling, piece, cost]),
).sort((a, b) => b[0].length - a[0].length);
/** Respellings tried walking back: a Latin proposal walks back every time, so it is bounded tighter. */
const BACK_STEPS = 4000;

/**
 * The words of the register an English word (SUNRISE) may be romanised from, had it been written in an Indic script
 * (सनराइज, romanised SANRAIJ): the respelling walked back, fewest changes first. Most are the register's Latin
 * respellings (SUNRIS); the caller keeps the Indic marks that hold them (src/threats/candidates.ts), and the comparison,
 * reading those marks forward, judges them.
 */
export function romanisedOf(word: string, lexicon: Lexicon, max = 6): string[] {
  if (!/^[A-Z]{4,}$/.test(word)) return [];
  const most = budget(word.length);
  const found = new Map<string, number>();
  let steps = 0;
  const walk = (at: number, prefix: string, cost: number) => {
    if (++steps > BACK_STEPS || cost > most + 1e-9) return;
    if (at === word.length) {
      for (const [w, c] of [
        [prefix, cost],
        [`${prefix}A`, cost + 0.5],
      ] as const) {
        if (c <= most + 1e-9 && w !== word && c < (found.get(w) ?? Number.POSITIVE_INFINITY) && lexicon.holders(w) > 0) found.set(w, c);
      }
      return;
    }
    // English writes a long vowel with a silent E at the end (RISE): an Indic spelling has none.
    if (at === word.length - 1 && word[at] === 'E') walk(at + 1, prefix, cost + SILENT_E);
    for (const [spelling, piece, change] of BACK) {
      if (!word.startsWith(spelling, at)) continue;
      const next = prefix + piece;
      if (lexicon.hasPrefix(next)) walk(at + spelling.length, next, cost + change);
    }
  };
  walk(0, '', 0);
  return [...found]
    .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
    .map(([w]) => w)
    .slice(0, max);
}

const INDIC = /[\u0900-\u0d7f]/;

/** Whether a text holds letters of an Indic script: only such words are read as English. */
export const hasIndic = (text: string) => INDIC.test(text);

/** A text's words as written, one per normalised word when the two agree in number (else null). */
export function writtenWords(text: string, normalisedCount: number): string[] | null {
  const words = text.split(/[^\p{L}\p{M}\p{N}]+/u).filter(Boolean);
  return words.length === normalisedCount ? words : null;
}
