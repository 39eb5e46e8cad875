import { type Rng, Weighted, zipf } from './rng.ts';

// The words Indian applicants actually reach for, most popular first: devotional and auspicious
// words, prestige words, place words, then plain English. Rank order drives Zipf weights, so the top
// of this list dominates the register the way SHREE, SAI and GOLD do.
const POPULAR = `
SHREE SAI GOLD STAR ROYAL SUPER INDIA NEW OM GANESH LAXMI KRISHNA BALAJI SRI JAI SHIV MAA RAJ AMRIT
SUN GREEN TECH FOODS DIAMOND KING SHUBH MAHALAXMI HANUMAN DURGA AMBIKA JAGDAMBA VISHNU SHYAM RADHE
GANGA YAMUNA HIMALAYA SURYA CHANDRA TARA MOTI HEERA RATNA KAMAL GULAB PARI RANI RAJA MAHARAJA
SULTAN NAWAB BADSHAH TIGER LION EAGLE ELEPHANT HORSE PEACOCK DEER COBRA BULL FALCON SHER CHEETAH
PRIME FRESH PURE BEST TOP ACE ALPHA OMEGA GLOBAL UNIVERSAL NATIONAL IMPERIAL CROWN PLATINUM SILVER
PEARL EMERALD RUBY SAPPHIRE CRYSTAL BRIGHT SHINE GLORY VICTORY VIJAY VIKAS PRAGATI UDAY SUNRISE
SUNSHINE MOON SKY OCEAN RIVER MOUNTAIN EVEREST EVERGREEN NATURE HERBAL ORGANIC DESI VEDIC AYUR
SANJEEVANI TULSI NEEM KESAR ELAICHI HALDI CHANDAN MOGRA JASMINE ROSE LOTUS LILY ORCHID SAFFRON
ANNAPURNA KAMDHENU GAU NANDI MAHADEV BHOLE SHAKTI BHAVANI KALI SARASWATI PARVATI SITA RAM LAKSHMAN
HARI GOVIND GOPAL MOHAN MURLI KANHA KANHAIYA BANKE BIHARI JAGANNATH TIRUPATI VENKATESH MURUGAN
AYYAPPA SAIBABA SHIRDI KHODIYAR MOMAI UMIYA SWAMINARAYAN JALARAM GURU NANAK KHALSA WAHEGURU AJMER
MECCA MADINA NOOR ZAM ALI HYDER AKBAR TAJ TAJMAHAL QUTUB RED FORT BHARAT HINDUSTAN DESH VATAN
MITRA SAATHI SAKHI DOST APNA HAMARA SWADESHI SWASTIK TRISHUL CHAKRA DHARMA KARMA MOKSHA SHANTI
ANAND SUKH SAMRIDHI SIDDHI RIDDHI LABH NIDHI DHAN KUBER VAIBHAV AISHWARYA SAMPADA SUVARNA SONA
CHANDI KANAK HEMANT BASANT SHARAD LEAF TREE SEED ROOT VALLEY FARM KISAN HARIYALI KHET DHARTI
MATI MITTI AGNI VAYU JAL PAWAN TOOFAN BIJLI TARANG LEHAR SAGAR SAMUDRA NEEL AKASH GAGAN ANTARIKSH
METRO CITY URBAN SMART DIGITAL CYBER NET LINK WAVE PULSE SPARK FLASH ROCKET JET TURBO POWER ENERGY
FORCE STRONG STEEL IRON ROCK STONE GRANITE MARBLE SHIELD ARMOUR SECURE SAFE TRUST FAITH HOPE
CARE CURE HEAL LIFE VITAL ZEST ACTIVE FIT HEALTHY TASTY YUMMY MAGIC MIRACLE WONDER DREAM VISION
MISSION AIM TARGET GOAL PEAK SUMMIT APEX ZENITH NOBLE ELITE CLASSIC VINTAGE HERITAGE TRADITION
TRIBAL MAHARANI RAJWADI SHAHI NAWABI MUGHAL PESHWA MARATHA RAJPUT CHOLA PANDYA VIJAYNAGAR KOHINOOR
PANCHAVATI GOKUL VRINDAVAN MATHURA KASHI AYODHYA DWARKA PUSHKAR HARIDWAR RISHIKESH KEDAR BADRI
AMAR AKHAND ATAL AJAY ABHAY NIRMAL VIMAL KOMAL SARAL SUNDAR MANGAL SHUBHAM SHREEJI SHRIJI
`
  .trim()
  .split(/\s+/);

// Words that describe the goods rather than identify the trader. They attach to a distinctive word
// ("BALAJI MASALA") and are what a "shared distinctive word plus a different generic" variant swaps.
const GENERIC_BY_CLASS: Record<number, string[]> = {
  1: ['CHEMICALS', 'INDUSTRIES', 'AGRO', 'FERTILIZERS'],
  2: ['PAINTS', 'COLOURS', 'COATINGS'],
  3: ['HERBAL', 'COSMETICS', 'GLOW', 'CARE', 'BEAUTY', 'SOAP', 'FRESH', 'AGARBATTI'],
  4: ['OIL', 'LUBRICANTS', 'FUELS'],
  5: ['PHARMA', 'HEALTHCARE', 'AYURVEDA', 'LIFESCIENCES', 'REMEDIES', 'CURE', 'MED', 'BIOTECH'],
  6: ['STEEL', 'METALS', 'PIPES', 'HARDWARE'],
  7: ['MACHINES', 'ENGINEERING', 'PUMPS', 'INDUSTRIES'],
  8: ['TOOLS', 'CUTLERY', 'BLADES'],
  9: ['TECH', 'ELECTRONICS', 'SOLAR', 'SYSTEMS', 'DIGITAL', 'INFOTECH', 'POWER', 'MOBILE'],
  10: ['SURGICAL', 'MEDICAL', 'HEALTHCARE'],
  11: ['APPLIANCES', 'LIGHTS', 'ELECTRICALS', 'COOLERS'],
  12: ['AUTO', 'MOTORS', 'TYRES', 'WHEELS'],
  13: ['FIREWORKS', 'CRACKERS'],
  14: ['JEWELLERS', 'JEWELS', 'WATCHES', 'ORNAMENTS'],
  15: ['MUSICALS', 'INSTRUMENTS'],
  16: ['PAPER', 'PRINTS', 'STATIONERY', 'PENS'],
  17: ['RUBBER', 'PLAST', 'POLYMERS'],
  18: ['BAGS', 'LEATHER', 'LUGGAGE'],
  19: ['CEMENT', 'TILES', 'CERAMICS', 'PLY'],
  20: ['FURNITURE', 'PLAST', 'INTERIORS'],
  21: ['KITCHEN', 'WARE', 'HOUSEWARES'],
  22: ['ROPES', 'NETS'],
  23: ['YARNS', 'THREADS'],
  24: ['FABRICS', 'TEXTILES', 'FURNISHINGS'],
  25: ['FASHION', 'GARMENTS', 'CREATION', 'WEAR', 'COLLECTION', 'TEX', 'JEANS', 'KIDS'],
  26: ['LACES', 'BUTTONS'],
  27: ['CARPETS', 'MATS'],
  28: ['TOYS', 'SPORTS', 'GAMES'],
  29: ['OIL', 'GHEE', 'DAIRY', 'FOODS', 'PICKLES', 'AGRO', 'MILK'],
  30: ['MASALA', 'TEA', 'SPICES', 'ATTA', 'BISCUITS', 'RICE', 'SWEETS', 'NAMKEEN', 'FOODS'],
  31: ['AGRO', 'SEEDS', 'FEEDS', 'FARMS'],
  32: ['BEVERAGES', 'AQUA', 'DRINKS', 'SODA'],
  33: ['WINES', 'SPIRITS', 'DISTILLERIES'],
  34: ['TOBACCO', 'BIDI', 'SUPARI'],
  35: ['TRADERS', 'ENTERPRISES', 'SOLUTIONS', 'MART', 'RETAIL', 'BAZAAR', 'EXPORTS', 'SERVICES'],
  36: ['FINANCE', 'CAPITAL', 'INVESTMENTS'],
  37: ['BUILDERS', 'CONSTRUCTIONS', 'INFRA'],
  38: ['TELECOM', 'NETWORK', 'MEDIA'],
  39: ['LOGISTICS', 'TRAVELS', 'TOURS', 'CARGO'],
  40: ['PROCESSING', 'PRINTERS'],
  41: ['ACADEMY', 'CLASSES', 'EDUCATION', 'FILMS'],
  42: ['SOFTWARE', 'LABS', 'TECHNOLOGIES', 'INFOSYS'],
  43: ['RESTAURANT', 'CAFE', 'DHABA', 'KITCHEN', 'HOTELS'],
  44: ['HOSPITAL', 'CLINIC', 'DIAGNOSTICS', 'SALON'],
  45: ['SECURITY', 'SERVICES', 'LEGAL'],
};
const GENERIC_ANY = ['INDUSTRIES', 'PRODUCTS', 'INTERNATIONAL', 'GROUP', 'INDIA', 'BRAND', 'PLUS', 'NO. 1'];

export const PREFIXES = ['SHREE', 'SRI', 'NEW', 'OM', 'JAI', 'ROYAL', 'SUPER', 'THE', 'MAA', 'GOLDEN', 'DR.'];
export const DIGIT_WORDS = ['ZERO', 'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE'];
const LUCKY_NUMBERS = [
  '7',
  '786',
  '999',
  '555',
  '420',
  '1',
  '24',
  '101',
  '1001',
  '9',
  '4',
  '2',
  '3',
  '5',
  '8',
  '99',
  '111',
  '21',
  '36',
  '501',
];
const NUMBER_PARTNERS = ['STAR', 'GOLD', 'BRAND', 'HORSE', 'KING', 'CARAT', 'SEAS', 'STARS', 'LEAF', 'ACE', 'DAYS', 'FRESH'];

const popular = new Weighted(POPULAR, zipf(POPULAR.length, 1.05, 3));
const popularSet = new Set(POPULAR);
const genericSet = new Set([...Object.values(GENERIC_BY_CLASS).flat(), ...GENERIC_ANY]);

export function genericWords(): string[] {
  return [...genericSet];
}

export function isGeneric(word: string): boolean {
  return genericSet.has(word);
}
export function isVocabulary(word: string): boolean {
  return popularSet.has(word) || genericSet.has(word);
}

export function popularWord(rng: Rng): string {
  return popular.draw(rng);
}

export function genericWord(rng: Rng, cls: number): string {
  const list = GENERIC_BY_CLASS[cls];
  return list && rng.chance(0.85) ? rng.pick(list) : rng.pick(GENERIC_ANY);
}

// Syllables of Hindi-English coinages (NIVORA, KAVYON, ZORVIKA): romanised onsets and vowels,
// with the brand endings Indian start-ups favour.
const ONSETS = [
  'K',
  'K',
  'KH',
  'G',
  'CH',
  'J',
  'T',
  'D',
  'N',
  'N',
  'P',
  'B',
  'BH',
  'M',
  'M',
  'Y',
  'R',
  'R',
  'L',
  'V',
  'V',
  'SH',
  'S',
  'S',
  'H',
  'TR',
  'PR',
  'KR',
  'SR',
  'DH',
  'Z',
];
const VOWELS = ['A', 'A', 'A', 'A', 'I', 'I', 'U', 'O', 'O', 'E', 'EE', 'AA', 'AI', 'OO'];
const CODAS = ['', '', '', '', '', 'N', 'R', 'M', 'SH', 'K', 'L', 'X', 'V'];
const ENDINGS = ['IKA', 'ORA', 'EX', 'IX', 'ON', 'IFY', 'ISH', 'AYA', 'ITA', 'ANI', 'OVA', 'ERA', 'YO', 'ZA', 'IO', 'AM', 'US'];

export function coinedWord(rng: Rng): string {
  let w = rng.chance(0.12) ? rng.pick(['A', 'I', 'E', 'O']) : '';
  const syllables = rng.chance(0.6) ? 2 : rng.chance(0.6) ? 1 : 3;
  for (let s = 0; s < syllables; s++) {
    w += rng.pick(ONSETS) + rng.pick(VOWELS);
    if (s === syllables - 1 && rng.chance(0.3)) w += rng.pick(CODAS);
  }
  if (rng.chance(0.45)) w = w.replace(/[AEIOU]+$/, '') + rng.pick(ENDINGS);
  return w.length < 4 ? w + rng.pick(['RA', 'NA', 'VA', 'KA', 'YA']) : w;
}

const LETTERS = 'ABCDEGHJKMNPRSTV';
function initials(rng: Rng): string {
  const n = rng.chance(0.7) ? 2 : 3;
  let s = '';
  for (let k = 0; k < n; k++) s += LETTERS[rng.int(LETTERS.length)];
  return rng.chance(0.3) ? `${s.split('').join('.')}.` : s;
}

/** A new (non-derivative) mark name for class `cls`; upper case like the register. */
export function rootName(rng: Rng, cls: number): string {
  const r = rng.float();
  if (r < 0.1) return popularWord(rng);
  if (r < 0.3) return distinctPair(rng);
  if (r < 0.41) return `${popularWord(rng)} ${genericWord(rng, cls)}`;
  if (r < 0.49) return `${distinctPair(rng)} ${genericWord(rng, cls)}`;
  if (r < 0.51) return `${rng.pick(PREFIXES)} ${distinctPair(rng)} ${genericWord(rng, cls)}`;
  if (r < 0.66) return coinedWord(rng);
  if (r < 0.75) return `${coinedWord(rng)} ${genericWord(rng, cls)}`;
  if (r < 0.83) return (popularWord(rng) + (rng.chance(0.5) ? genericWord(rng, cls) : popularWord(rng))).replace(/[^A-Z0-9]/g, '');
  if (r < 0.88) return numberMark(rng, cls);
  if (r < 0.92) return rng.chance(0.5) ? initials(rng) : `${initials(rng)} ${rng.chance(0.5) ? popularWord(rng) : genericWord(rng, cls)}`;
  if (r < 0.96) return `${popularWord(rng)}'S${rng.chance(0.5) ? ` ${genericWord(rng, cls)}` : ''}`;
  return `${rng.pick(['TASTE OF', 'PRIDE OF', 'SPIRIT OF', 'HOUSE OF', 'LAND OF'])} ${popularWord(rng)}`;
}

function distinctPair(rng: Rng): string {
  const a = popularWord(rng);
  let b = popularWord(rng);
  if (b === a) b = coinedWord(rng);
  return `${a} ${b}`;
}

function numberMark(rng: Rng, cls: number): string {
  const n = rng.pick(LUCKY_NUMBERS);
  const r = rng.float();
  if (r < 0.25) return n;
  if (r < 0.75) return `${n} ${rng.pick(NUMBER_PARTNERS)}`;
  return `${popularWord(rng)} ${n}${rng.chance(0.3) ? ` ${genericWord(rng, cls)}` : ''}`;
}
