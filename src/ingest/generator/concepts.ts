// What Indian device marks show, as concepts: each concept has one name, the words icon sets use for it
// (its synonyms, lower case, singular), the Vienna code of what it shows and a group. The icon catalogue
// (data/icons/catalogue.json, built by scripts/icon-catalogue.ts) lists, per concept, the icons of several
// npm icon and emoji sets whose names name it, so the same concept is drawn by different hands under one
// name: the demo register draws its device marks from it, and concept training (issue 22, item 2) reads
// it for positives across sets. Order is popularity on Indian labels, most used first (the generator's
// Zipf draw follows it). Every code is checked against the shipped classification (test/ingest/).

export type ConceptGroup = 'animal' | 'religious' | 'plant' | 'sky' | 'vehicle' | 'tool' | 'food' | 'object';

export interface Concept {
  name: string;
  /** Words an icon name may use for it, the name first. */
  words: readonly string[];
  vienna: string;
  group: ConceptGroup;
}

const C = (name: string, vienna: string, group: ConceptGroup, more = ''): Concept => ({
  name,
  words: [name, ...(more ? more.split(' ') : [])],
  vienna,
  group,
});

export const CONCEPTS: readonly Concept[] = [
  C('lion', '03.01.01', 'animal', 'lioness'),
  C('sun', '01.03.02', 'sky', 'sunny sunshine'),
  C('star', '01.01.01', 'sky', 'starry stars'),
  C('elephant', '03.02.01', 'animal'),
  C('peacock', '03.07.04', 'animal', 'peafowl'),
  C('tiger', '03.01.04', 'animal'),
  C('horse', '03.03.01', 'animal', 'pony stallion'),
  C('lotus', '05.05.16', 'religious'),
  C('om', '24.11.18', 'religious'),
  C('eagle', '03.07.01', 'animal', 'hawk falcon'),
  C('cow', '03.04.02', 'animal', 'calf buffalo'),
  C('temple', '07.05.06', 'religious', 'mandir'),
  C('trident', '24.11.07', 'religious', 'trishul'),
  C('swastika', '24.13.25', 'religious', 'swastik'),
  C('diya', '13.01.07', 'religious', 'diya-lamp oil-lamp'),
  C('sunrise', '01.03.01', 'sky', 'sunset dawn'),
  C('moon', '01.07.06', 'sky', 'crescent'),
  C('flower', '05.05.20', 'plant', 'blossom'),
  C('rose', '05.05.01', 'plant'),
  C('sunflower', '05.05.04', 'plant', 'daisy'),
  C('tulip', '05.05.03', 'plant'),
  C('hibiscus', '05.05.19', 'plant'),
  C('leaf', '05.03.11', 'plant', 'leaves'),
  C('tree', '05.01.03', 'plant'),
  C('palm-tree', '05.01.12', 'plant', 'tree-palm coconut'),
  C('wheat', '05.07.02', 'plant', 'grain corn rice'),
  C('bull', '03.04.04', 'animal', 'ox bison'),
  C('deer', '03.04.07', 'animal', 'stag antelope'),
  C('snake', '03.11.01', 'animal', 'cobra serpent'),
  C('fish', '03.09.01', 'animal'),
  C('parrot', '03.07.15', 'animal'),
  C('rooster', '03.07.03', 'animal', 'hen chicken cock'),
  C('owl', '03.07.05', 'animal'),
  C('dove', '03.07.11', 'animal', 'pigeon'),
  C('bird', '03.07.24', 'animal'),
  C('monkey', '03.05.19', 'animal', 'ape gorilla'),
  C('camel', '03.02.13', 'animal'),
  C('goat', '03.04.11', 'animal', 'sheep ram lamb'),
  C('dog', '03.01.08', 'animal', 'wolf fox'),
  C('cat', '03.01.06', 'animal', 'kitten'),
  C('butterfly', '03.13.01', 'animal'),
  C('bee', '03.13.04', 'animal', 'honeybee'),
  C('conch', '03.09.18', 'religious', 'spiral-shell'),
  C('bell', '22.03.05', 'religious'),
  C('crown', '24.09.05', 'object'),
  C('flag', '24.07.01', 'object'),
  C('shield', '24.01.01', 'object'),
  C('sword', '23.01.01', 'object', 'dagger'),
  C('wheel', '15.07.09', 'object', 'chakra'),
  C('globe', '01.05.01', 'sky', 'earth world'),
  C('mountain', '06.01.02', 'sky', 'hill'),
  C('fire', '01.15.05', 'sky', 'flame'),
  C('lightning', '01.15.03', 'sky', 'thunder bolt'),
  C('drop', '01.15.15', 'sky', 'droplet water'),
  C('diamond', '17.02.02', 'object', 'gem jewel'),
  C('key', '14.05.02', 'tool'),
  C('lock', '14.05.23', 'tool', 'padlock'),
  C('hammer', '14.07.01', 'tool'),
  C('wrench', '14.07.09', 'tool', 'spanner screwdriver'),
  C('gear', '15.07.01', 'tool', 'cog'),
  C('axe', '14.07.02', 'tool', 'hatchet'),
  C('saw', '14.07.15', 'tool'),
  C('scissors', '14.07.20', 'tool', 'scissor'),
  C('car', '18.01.09', 'vehicle', 'taxi'),
  C('truck', '18.01.08', 'vehicle', 'lorry bus'),
  C('tractor', '18.01.08', 'vehicle'),
  C('bicycle', '18.01.05', 'vehicle', 'bike cycle'),
  C('motorcycle', '18.01.05', 'vehicle', 'motorbike scooter'),
  C('train', '18.01.11', 'vehicle', 'locomotive tram'),
  C('ship', '18.03.14', 'vehicle', 'boat sailboat'),
  C('plane', '18.05.01', 'vehicle', 'airplane aeroplane aircraft'),
  C('rocket', '18.05.10', 'vehicle'),
  C('anchor', '18.04.02', 'vehicle'),
  C('mango', '05.07.14', 'food'),
  C('apple', '05.07.13', 'food'),
  C('banana', '05.07.18', 'food'),
  C('grapes', '05.07.10', 'food', 'grape'),
  C('chilli', '05.09.15', 'food', 'chili pepper'),
  C('tea', '11.03.04', 'food', 'cup mug coffee chai'),
  C('teapot', '11.03.14', 'food', 'kettle'),
  C('bread', '08.01.01', 'food', 'roti'),
  C('cake', '08.01.17', 'food', 'cupcake'),
  C('umbrella', '10.03.04', 'object', 'parasol'),
  C('house', '07.01.08', 'object', 'home hut'),
  C('castle', '07.01.01', 'object', 'fort palace'),
  C('book', '20.07.02', 'object'),
  C('pen', '20.01.03', 'object', 'pencil quill'),
  C('heart', '02.09.01', 'object'),
  C('hand', '02.09.14', 'object'),
];

export const CONCEPT_BY_NAME: ReadonlyMap<string, Concept> = new Map(CONCEPTS.map((c) => [c.name, c]));

const BY_WORD = new Map(CONCEPTS.flatMap((c) => c.words.map((w) => [w, c] as const)));

// Words an icon name may carry after what it shows without changing it (a lion's face, a star in a
// circle, "tree-2"); any other word after it names something else ("lotus-position", "car-battery").
const TRAILING = new Set(
  'face head emblem symbol outline outlined variant alt filled fill solid simple flat circle box round rounded with rising'.split(' '),
);
// Words that make the icon an action or state on the concept, or something else that holds it ("sun-off",
// "star-plus", "hot-dog", "brand-apple", "man-rowing-boat").
const REJECT = new Set(
  (
    'off slash plus minus add remove cancel check alert question search x dollar percentage settings exclamation code ' +
    'non hot brand google ubisoft beer trophy dice man woman person people mailbox'
  ).split(' '),
);
// Names that read as a concept but draw something else (a pistol, a starfish, a missile, a tarot card, a
// tree diagram, a train's carriage), found by reading the catalogue.
const NOT = new Set(
  (
    'desert-eagle death-star ninja-star sea-star law-star tarot-17-the-star tarot-18-the-moon tarot-19-the-sun ' +
    'tarot-21-the-world flying-fox balloon-dog hand-truck nut-and-bolt siege-ram paper-plane checkbox-tree family-tree ' +
    'usb-key couple-with-heart cycle sydney-opera-house bird-house dog-house mushroom-house gun-rose railway-car tram-car'
  ).split(' '),
);
// Concepts a more specific word beside a general one yields to ("lotus-flower" is a lotus).
const GENERAL = new Set(['flower', 'bird', 'tree', 'leaf', 'drop']);
// Interface icon sets name a badge on an object after the object ("calendar-star", "account-lock"), so there
// the concept must come first, but for these words that describe it ("weather-sunny", "fruit-grapes").
const UI_SETS = new Set(['mdi', 'tabler', 'lucide']);
const UI_PREFIX = new Set('weather fruit food flower pine oil sail fire dump tow tanker lead fountain school alarm'.split(' '));

/**
 * The concept an icon's name names, or null: the name's words (split on '-'), the concept word (or pair
 * of words) followed only by TRAILING words or numbers, a specific concept beside a general one
 * preferred; in an interface set (UI_SETS) only at the start of the name or after a UI_PREFIX word.
 * Skin-tone variants of emoji, names with a REJECT word and the names in NOT are none.
 */
export function conceptOfIconName(name: string, prefix = ''): Concept | null {
  const words = name.toLowerCase().split('-');
  if (NOT.has(name) || name.includes('skin-tone') || words.some((w) => REJECT.has(w))) return null;
  let end = words.length;
  while (end > 0 && (TRAILING.has(words[end - 1]) || /^[0-9]+$/.test(words[end - 1]))) end--;
  if (end === 0) return null;
  const pair = end > 1 ? BY_WORD.get(`${words[end - 2]}-${words[end - 1]}`) : undefined;
  const start = pair ? end - 2 : end - 1;
  const head = pair ?? BY_WORD.get(words[end - 1]);
  if (!head) return null;
  if (UI_SETS.has(prefix) && !words.slice(0, start).every((w) => UI_PREFIX.has(w))) return null;
  if (GENERAL.has(head.name)) {
    for (let k = start - 1; k >= 0; k--) {
      const c = BY_WORD.get(words[k]);
      if (c && !GENERAL.has(c.name)) return c;
    }
  }
  return head;
}
