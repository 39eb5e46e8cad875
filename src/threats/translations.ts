import { romanise } from '../search/normalise.ts';

// Marks that mean the same in Hindi and English (SURAJ and SUN, SHER and LION) can be confused by
// idea even when nothing is spelled or said alike: the doctrine of foreign equivalents, applied by
// Indian examiners to the Hindi and English words brands are made of. Each line is one meaning: its
// English word first, then its Hindi words as they are romanised on the register (spelling variants
// fold through the search's romanisation, so HAATHI and HATHI are one entry).
//
// Kept to words that mean a thing on a label (animals, heavenly bodies, metals and gems, flowers,
// elements, titles). Words that are mainly personal names (RAVI, VIJAY, PREM, AKASH, SAGAR, JYOTI)
// are left out: a mark named after a person is not read as the thing the name means.
const MEANINGS: string[][] = [
  ['SUN', 'SURAJ', 'SURYA', 'DINKAR'],
  ['MOON', 'CHAND', 'CHANDA', 'CHANDRAMA'],
  ['STAR', 'TARA', 'SITARA'],
  ['SUNRISE', 'SURYODAY', 'SURYODAYA'],
  ['MORNING', 'SUBAH', 'SAVERA', 'PRABHAT'],
  ['SKY', 'GAGAN', 'ASMAN', 'AASMAN'],
  ['EARTH', 'DHARTI', 'PRITHVI', 'BHUMI'],
  ['FIRE', 'AGNI', 'AAG'],
  ['WATER', 'JAL', 'PANI'],
  ['OCEAN', 'SAMUDRA', 'SAMUNDAR'],
  ['RIVER', 'NADI'],
  ['MOUNTAIN', 'PARVAT', 'PAHAD'],
  ['LIGHT', 'ROSHNI', 'UJALA'],
  ['LION', 'SHER', 'SHERA', 'SIMHA'],
  ['TIGER', 'BAGH', 'BAAGH'],
  ['ELEPHANT', 'HATHI', 'GAJ', 'GAJA', 'GAJRAJ'],
  ['HORSE', 'GHODA', 'GHORA', 'ASHVA', 'ASHWA'],
  ['COW', 'GAI', 'GAU'],
  ['DEER', 'HIRAN'],
  ['SNAKE', 'NAAG'],
  ['PEACOCK', 'MOR', 'MAYUR'],
  ['SWAN', 'HANS', 'HANSA', 'HAMSA'],
  ['HAWK', 'BAAZ', 'BAZ'],
  ['PARROT', 'TOTA'],
  ['BIRD', 'PANCHHI', 'PAKSHI', 'CHIDIYA'],
  ['LOTUS', 'KAMAL', 'PADMA'],
  ['FLOWER', 'PHOOL', 'PUSHP', 'PUSHPA'],
  ['GOLD', 'SONA', 'SWARNA', 'SWARN', 'SUVARNA', 'KANCHAN'],
  ['GOLDEN', 'SUNEHRA', 'SUNEHARA'],
  ['SILVER', 'CHANDI', 'RAJAT'],
  ['DIAMOND', 'HEERA', 'HIRA'],
  ['PEARL', 'MOTI', 'MUKTA'],
  ['EMERALD', 'PANNA'],
  ['RUBY', 'MANIK', 'MANIKYA'],
  ['SAFFRON', 'KESAR'],
  ['SANDALWOOD', 'CHANDAN'],
  ['HONEY', 'MADHU', 'SHAHAD'],
  ['MILK', 'DOODH', 'DUDH'],
  ['SALT', 'NAMAK'],
  ['SWEET', 'MEETHA', 'MITHA', 'MADHUR'],
  ['KING', 'RAJA', 'SAMRAT'],
  ['QUEEN', 'RANI', 'MAHARANI'],
  ['ROYAL', 'SHAHI'],
  ['BRAVE', 'VEER', 'BAHADUR'],
  ['FRIEND', 'MITRA', 'DOST', 'SAATHI'],
  ['CROWN', 'MUKUT', 'TAJ'],
  ['WHEEL', 'CHAKRA'],
  ['ARROW', 'TEER', 'BAAN'],
  ['BELL', 'GHANTI'],
  ['KEY', 'CHABI'],
  ['TEMPLE', 'MANDIR'],
  ['MOTHER', 'MAA', 'MATA'],
  ['LIFE', 'JEEVAN'],
  ['LOVE', 'PYAR', 'PYAAR', 'ISHQ'],
  ['HEART', 'DIL'],
  ['NEW', 'NAYA', 'NUTAN'],
  ['BEAUTIFUL', 'SUNDAR'],
  ['INDIA', 'BHARAT', 'HINDUSTAN'],
];

/** Romanised word → its meaning's English word (an English word maps to itself). */
const MEANING = new Map<string, string>();
/** English word → every word of that meaning, English first, as written above. */
const FORMS = new Map<string, string[]>();
for (const line of MEANINGS) {
  FORMS.set(line[0], line);
  for (const w of line) MEANING.set(romanise(w), line[0]);
}

/** The meaning of a normalised word (its English word), or undefined when it has none listed. */
export function meaningOf(word: string): string | undefined {
  // Asked for every word of every candidate: romanising is the cost, so each word's answer is kept.
  let m = meanings.get(word);
  if (m === undefined) {
    if (meanings.size >= MEANINGS_KEPT) meanings.clear();
    meanings.set(word, (m = MEANING.get(romanise(word)) ?? null));
  }
  return m ?? undefined;
}

const MEANINGS_KEPT = 200_000;
const meanings = new Map<string, string | null>();

/** The other words of the same meaning, in the other language(s): what a translated copy would say. */
export function equivalents(word: string): string[] {
  const m = meaningOf(word);
  if (!m) return [];
  const r = romanise(word);
  return FORMS.get(m)!.filter((w) => romanise(w) !== r);
}
