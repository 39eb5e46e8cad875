import { CONCEPT_BY_NAME, CONCEPTS as FIGURES } from './concepts.ts';
import { drawable, type LogoDesign } from './logoDesign.ts';

// A generated logo's Vienna codes, from what its design shows (docs/logos.md, "Vienna codes"):
// - the icon: a figure of the icon catalogue gives its concept's code (concepts.ts: a lion 03.01.01, om
//   24.11.18); a brand glyph gives, for each word of its name that names a concept below gives that concept's code ("Apple
//   Music": an apple, 05.07.13); an icon whose name names none is an abstract figure, 26.13.25
//   "other geometrical figures; indefinable designs" (most simple-icons glyphs are brand marks);
// - the layout: a badge is the icon in a circle (26.01.03, and 26.01.13-16 by what it holds), a frame
//   a square or rectangle (26.04.01 / 26.04.02), a split paper a background divided in two (25.05.02/03);
// - the words: letters in the heavy display font (27.05.17), light on a dark paper (27.05.24); a
//   monogram is one letter (27.05.21) or two combined (27.05.22), each letter also by its code (27.99.01 A);
//   numerals in the words, numerals in heavy characters (27.07.17); the words in Devanagari beside the Latin
//   ones, letters in different forms of writing (27.05.09); a seal's words round its circle, letters forming
//   a circle (27.01.06), and a seal is a circle like a badge.
// A logo of plain text (no icon) gets the letter codes alone. Every code is checked against the
// shipped classification when the generator loads it (reference.ts).

/** Concept words (lower case, singular) by the Vienna code of what they name. */
export const CONCEPTS: readonly (readonly [code: string, words: string])[] = [
  ['01.01.01', 'star starry sparkle'],
  ['01.03.01', 'sunrise sunset dawn'],
  ['01.03.02', 'sun sunny sunshine'],
  ['01.05.01', 'globe earth world'],
  ['01.05.25', 'planet saturn'],
  ['01.07.06', 'moon crescent'],
  ['01.11.01', 'galaxy constellation'],
  ['01.15.01', 'rainbow'],
  ['01.15.03', 'lightning thunder'],
  ['01.15.05', 'fire flame blaze'],
  ['01.15.11', 'cloud smoke'],
  ['01.15.15', 'drop droplet water'],
  ['01.15.17', 'snow snowflake'],
  ['02.01.22', 'deity god ganesha ganesh krishna shiva rama hanuman'],
  ['02.01.23', 'person user human'],
  ['02.01.97', 'face smile smiley'],
  ['02.03.22', 'goddess lakshmi durga saraswati'],
  ['02.03.23', 'woman lady'],
  ['02.05.23', 'child baby kid'],
  ['02.09.01', 'heart love'],
  ['02.09.04', 'eye'],
  ['02.09.14', 'hand'],
  ['03.01.01', 'lion lioness'],
  ['03.01.04', 'tiger leopard panther cheetah jaguar'],
  ['03.01.06', 'cat kitten'],
  ['03.01.08', 'dog puppy wolf fox'],
  ['03.01.14', 'bear koala'],
  ['03.01.15', 'panda'],
  ['03.02.01', 'elephant mammoth'],
  ['03.02.13', 'camel llama alpaca'],
  ['03.03.01', 'horse pony'],
  ['03.04.02', 'cow calf buffalo'],
  ['03.04.04', 'bull bison ox'],
  ['03.04.07', 'deer stag elk reindeer antelope'],
  ['03.04.11', 'goat sheep lamb'],
  ['03.04.18', 'pig boar'],
  ['03.05.01', 'rabbit hare bunny'],
  ['03.05.19', 'monkey ape gorilla'],
  ['03.07.01', 'eagle hawk falcon vulture'],
  ['03.07.03', 'rooster hen chicken'],
  ['03.07.04', 'peacock peafowl'],
  ['03.07.05', 'owl'],
  ['03.07.06', 'duck goose swan'],
  ['03.07.08', 'penguin'],
  ['03.07.11', 'dove pigeon'],
  ['03.07.15', 'parrot toucan'],
  ['03.07.24', 'bird'],
  ['03.09.01', 'fish'],
  ['03.09.03', 'whale orca'],
  ['03.09.04', 'dolphin'],
  ['03.09.15', 'octopus squid'],
  ['03.09.16', 'crab lobster shrimp scorpion'],
  ['03.11.01', 'snake serpent cobra python'],
  ['03.11.11', 'turtle tortoise'],
  ['03.11.12', 'frog toad'],
  ['03.13.01', 'butterfly'],
  ['03.13.02', 'bug insect'],
  ['03.13.04', 'bee wasp'],
  ['03.13.16', 'ant'],
  ['03.15', 'dinosaur dino'],
  ['04.01.03', 'angel fairy'],
  ['04.03.03', 'dragon'],
  ['04.03.09', 'unicorn'],
  ['04.03.20', 'phoenix'],
  ['05.01.03', 'tree'],
  ['05.01.12', 'palm coconut'],
  ['05.03.11', 'leaf'],
  ['05.05.01', 'rose'],
  ['05.05.16', 'lotus'],
  ['05.05.20', 'flower blossom'],
  ['05.07.02', 'wheat rice corn'],
  ['05.07.10', 'grape'],
  ['05.07.11', 'orange'],
  ['05.07.12', 'lemon lime'],
  ['05.07.13', 'apple'],
  ['05.07.14', 'mango peach'],
  ['05.07.16', 'cherry'],
  ['05.07.18', 'banana'],
  ['05.11.05', 'mushroom'],
  ['05.11.19', 'cactus'],
  ['06.01.02', 'mountain hill peak'],
  ['06.03.04', 'sea ocean'],
  ['07.01.01', 'castle fort palace'],
  ['07.01.06', 'tower'],
  ['07.01.08', 'house home building'],
  ['07.05.06', 'temple'],
  ['07.11.01', 'bridge'],
  ['08.01.17', 'cake cupcake'],
  ['08.07.04', 'pizza'],
  ['09.07.01', 'hat cap'],
  ['09.09.01', 'shoe sneaker'],
  ['10.03.10', 'bag briefcase suitcase'],
  ['11.03.04', 'cup mug coffee tea'],
  ['13.01.17', 'bulb lightbulb'],
  ['14.05.02', 'key'],
  ['14.05.23', 'lock padlock'],
  ['14.07.01', 'hammer'],
  ['14.07.06', 'tool'],
  ['14.07.09', 'wrench spanner screwdriver'],
  ['15.07.01', 'gear cog'],
  ['16.01.05', 'tv television radio'],
  ['16.01.06', 'computer laptop'],
  ['16.01.11', 'phone telephone'],
  ['16.01.14', 'headphone headset'],
  ['16.03.11', 'camera'],
  ['17.01.09', 'clock'],
  ['17.02.02', 'diamond gem jewel'],
  ['18.01.05', 'bicycle bike motorcycle scooter'],
  ['18.01.08', 'truck lorry bus tractor'],
  ['18.01.09', 'car taxi'],
  ['18.01.11', 'train tram locomotive'],
  ['18.03.14', 'ship boat'],
  ['18.04.02', 'anchor'],
  ['18.05.01', 'plane airplane aeroplane aircraft helicopter'],
  ['18.05.10', 'rocket satellite spaceship'],
  ['19.07.01', 'bottle flask'],
  ['19.01.03', 'box package parcel crate'],
  ['20.01.03', 'pen pencil quill'],
  ['20.07.02', 'book notebook magazine'],
  ['21.01.09', 'dice domino'],
  ['21.01.13', 'chess'],
  ['21.03.01', 'ball football soccer'],
  ['22.01.15', 'guitar violin sitar veena'],
  ['22.03.05', 'bell'],
  ['23.01.01', 'sword dagger spear'],
  ['24.01.01', 'shield'],
  ['24.05.01', 'medal coin'],
  ['24.07.01', 'flag'],
  ['24.09.05', 'crown'],
  ['24.13.25', 'cross'],
  ['24.15.01', 'arrow'],
  ['24.17.12', 'music note'],
  ['26.01.03', 'circle'],
  ['26.03.01', 'triangle'],
  ['26.04.01', 'square'],
  ['26.05.01', 'hexagon pentagon octagon polygon'],
  ['26.11.13', 'wave'],
];

const BY_WORD = new Map(CONCEPTS.flatMap(([code, words]) => words.split(' ').map((w) => [w, code] as const)));

/** The codes of the concepts the name's words name, once each, in the order of the words. */
export function conceptCodes(name: string): string[] {
  const out = new Set<string>();
  for (const word of name.toLowerCase().split(/[^a-z]+/)) {
    // Plurals as their singular: stars, leaves, berries.
    const forms = [word, word.replace(/ies$/, 'y'), word.replace(/ves$/, 'f'), word.replace(/s$/, ''), word.replace(/es$/, '')];
    const code = forms.map((f) => BY_WORD.get(f)).find((c) => c !== undefined);
    if (code) out.add(code);
  }
  return [...out];
}

// The codes a design's layout and words give, named.
const CODE = {
  indefinable: '26.13.25',
  circle: '26.01.03',
  circleWithHeavenly: '26.01.13',
  circleWithHuman: '26.01.14',
  circleWithAnimalOrPlant: '26.01.15',
  circleWithOther: '26.01.16',
  square: '26.04.01',
  rectangle: '26.04.02',
  dividedHorizontally: '25.05.02',
  dividedDiagonally: '25.05.03',
  heavyLetters: '27.05.17',
  heavyNumerals: '27.07.17',
  lightOnDark: '27.05.24',
  twoScripts: '27.05.09',
  lettersInCircle: '27.01.06',
  oneLetter: '27.05.21',
  monogram: '27.05.22',
} as const;
const letterCode = (c: string) => `27.99.${String(c.charCodeAt(0) - 64).padStart(2, '0')}`;

/** Every code logoVienna can give, for checking against the shipped classification. */
export const GIVEN_CODES: readonly string[] = [
  ...CONCEPTS.map(([code]) => code),
  ...FIGURES.map((c) => c.vienna),
  ...Object.values(CODE),
  ...[...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map(letterCode),
];

/** What a logo shows, as its design says; `iconName` null for a logo of plain text. */
export type Shown = Pick<LogoDesign, 'layout' | 'text' | 'monogram' | 'dark' | 'diagonal' | 'w' | 'h'> & {
  iconName: string | null;
  /** The icon's concept (catalogue), if it is a figure of one. */
  concept?: string | null;
  hindi?: string;
};

/** The Vienna codes of what the logo shows, icon first, then its setting, then its words. */
export function logoVienna(d: Shown): string[] {
  const out = new Set<string>();
  const concept = d.concept ? CONCEPT_BY_NAME.get(d.concept) : undefined;
  const figure = d.iconName === null ? [] : concept ? [concept.vienna] : conceptCodes(d.iconName);
  if (d.iconName !== null) for (const c of figure.length ? figure : [CODE.indefinable]) out.add(c);
  if (d.layout === 'badge' || d.layout === 'seal') {
    out.add(CODE.circle);
    // What the circle holds: a heavenly body, a human being, an animal or plant, or anything else.
    const held = figure[0]?.slice(0, 2);
    out.add(
      held === '01'
        ? CODE.circleWithHeavenly
        : held === '02'
          ? CODE.circleWithHuman
          : held === '03' || held === '05'
            ? CODE.circleWithAnimalOrPlant
            : CODE.circleWithOther,
    );
  }
  if (d.layout === 'frame' || d.layout === 'label') out.add(d.w === d.h ? CODE.square : CODE.rectangle);
  if (d.layout === 'split') out.add(d.diagonal ? CODE.dividedDiagonally : CODE.dividedHorizontally);
  // Only the characters the logo font draws reach the logo.
  const drawn = drawable(d.text);
  const letters = drawn.replace(/[^A-Z]/g, '');
  if (d.monogram) {
    out.add(letters.length === 1 ? CODE.oneLetter : CODE.monogram);
    for (const c of letters) out.add(letterCode(c));
  } else {
    if (letters) out.add(CODE.heavyLetters);
    if (/[0-9]/.test(drawn)) out.add(CODE.heavyNumerals);
  }
  if (/[A-Z0-9]/.test(drawn) && d.dark) out.add(CODE.lightOnDark);
  if (d.hindi) out.add(CODE.twoScripts);
  if (d.layout === 'seal' && drawn) out.add(CODE.lettersInCircle);
  return [...out];
}
