// SMART's strategies, strongest first. A mark is found by its strongest strategy only; results are
// ordered by strategy, then spelling distance, then length of the mark (near, spelling and phonetic:
// shared letter triples, then length; see slotOf), then application number.
// `near` comes before the other fuzzy and partial-word strategies because marks are compared as
// wholes: a one-word mark a letter off the query (LEICA for LEIA, OPERA for OEPRA) is closer to it
// than a word the query only ends or sits inside (ALTEX for LTEX), or a compound of other words.
export const STRATEGIES = [
  'exact', // the whole mark is the query
  'prefix', // the mark starts with the query
  'word', // the query is a whole word (or run of whole words) of the mark
  'longer_word', // a one-word query starts the mark's longer first word: AIRTEL for AIR (see singleWord.ts)
  'near', // a one-word mark within the spelling edits of a one-word query, not holding it: LEICA for LEIA
  'compound', // the query joined or split differently: SUNRISEFOODS ⇄ SUNRISE FOODS
  'all_words', // every query word is a whole word of the mark, in another order, or but THE, OF, AND…
  'suffix', // the mark ends with the query
  'substring', // the query is inside a word of the mark
  'substring_cross', // the query spans a word boundary of the mark (SE FO in SUNRISE FOODS)
  'spelling', // every query word matches a word of the mark within 1-2 edits (by length)
  'phonetic', // every query word sounds like a word of the mark (Double Metaphone after Indian romanisation)
  'partial', // the mark holds some of the query's words, placed by the share of their weight: SUNRISE OIL for SUNRISE FOODS
] as const;
export type Strategy = (typeof STRATEGIES)[number];

export const S_EXACT = 0;
export const S_PREFIX = 1;
export const S_WORD = 2;
export const S_LONGER_WORD = 3;
export const S_NEAR = 4;
export const S_COMPOUND = 5;
export const S_ALL_WORDS = 6;
export const S_SUFFIX = 7;
export const S_SUBSTRING = 8;
export const S_SUBSTRING_CROSS = 9;
export const S_SPELLING = 10;
export const S_PHONETIC = 11;
export const S_PARTIAL = 12;
export const STRATEGY_COUNT = STRATEGIES.length;
/** A partial match's distance runs 0 (the query's whole weight shared) to PARTIAL_STEPS (none of it): src/search/partial.ts. */
export const PARTIAL_STEPS = 15;

// Score bands (0-100): each strategy has its own band, so a score never ranks a weaker strategy above
// a stronger one. Within a band, distance costs more than length, as in the ordering.
const BANDS: [number, number][] = [
  [100, 100],
  [87, 99],
  [80, 86],
  [76, 79],
  [72, 75],
  [66, 71],
  [60, 65],
  [52, 59],
  [44, 51],
  [38, 43],
  [24, 37],
  [10, 23],
  [1, 9],
];

/**
 * A result's score: the top of its strategy's band, less steps for spelling distance (near, spelling and
 * phonetic only, at most 3) and, within a step, for how much longer the mark is than the query (near,
 * spelling and phonetic: for the share of letter triples it misses, the order they are in).
 * Scores never increase down the result order.
 */
export function score(strategy: number, dist: number, markLength: number, queryLength: number): number {
  const [low, high] = BANDS[strategy];
  const width = high - low;
  if (width === 0) return high;
  // A partial match's distance is the share of the query's weight it misses, in PARTIAL_STEPS steps.
  if (strategy === S_PARTIAL) return high - Math.round((Math.min(dist, PARTIAL_STEPS) * width) / PARTIAL_STEPS);
  const fuzzy = strategy >= S_SPELLING || strategy === S_NEAR;
  // A fuzzy match's distance counts half steps (see Related.dist): the score takes whole edits.
  if (fuzzy) dist >>= 1;
  const step = fuzzy ? Math.floor((width + 1) / 4) : width + 1;
  const extra = Math.max(0, markLength - queryLength);
  // Within an edit, fuzzy matches are ordered by the letter triples they miss, so the score follows that.
  const within = fuzzy
    ? Math.floor((slotMiss(markLength) * step) / (MISS_STEPS + 1))
    : Math.floor((extra * step) / (extra + queryLength + 1));
  return high - Math.min(width, (fuzzy ? Math.min(dist, 3) : 0) * step + Math.min(step - 1, within));
}

// A fuzzy match's place within its spelling distance. Matches one edit from the query tie by the thousand
// (LEIA: LEICA, LEVA, LEIS, LIA…; SAI COLA: SAI CHOLA, SAI BOLA, SAI CHLA), and shortest first made every
// substitution and every dropped letter beat the mark the query dropped a letter of, though that mark holds
// every piece of the query: LEICA keeps all of LEIA's letter triples but one, LEVA loses three. So the tie
// goes first by the share of letter triples the query and the mark have in common (pg_trgm's measure on the
// two texts, in 16 steps), then by length. Both travel in the hit's length slot: SLOT_LENGTH_BITS of length
// under the share missed.
const SLOT_LENGTH_BITS = 6;
export const SLOT_LENGTH_MASK = (1 << SLOT_LENGTH_BITS) - 1;
const MISS_STEPS = 15;

/** The length slot of a fuzzy match missing `miss` steps of triples, `len` characters long. */
export const slotOf = (miss: number, len: number) => (miss << SLOT_LENGTH_BITS) | Math.min(len, SLOT_LENGTH_MASK);

/** The share of letter triples a fuzzy match misses, in steps of 1/MISS_STEPS, from its length slot. */
const slotMiss = (slot: number) => slot >> SLOT_LENGTH_BITS;

/** The steps missed by two texts of `a` and `b` letter triples sharing `shared` (1 - pg_trgm's similarity). */
export function missSteps(shared: number, a: number, b: number): number {
  // A run's triples are counted on the run as one mark spells it, and other marks holding a run of the
  // same sound share them (src/search/soundRuns.ts): never more than either text has.
  const both = Math.min(shared, a, b);
  return Math.round((1 - both / Math.max(1, a + b - both)) * MISS_STEPS);
}

// Letter triples are compared as numbers (three UTF-16 units), not strings: related() counts them for
// every relative of a query word, thousands for a common one, and a Set of strings per word cost 4 µs.
const triple = (a: number, b: number, c: number) => (a * 0x10000 + b) * 0x10000 + c;
const SPACE = 32;

/**
 * The letter triples of a text as pg_trgm forms them (each word with two spaces before, one after),
 * each once, written into `out` from 0; returns how many.
 */
function triplesInto(text: string, out: number[]): number {
  let n = 0;
  let a = SPACE;
  let b = SPACE;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : SPACE;
    // At a space a word ends: its last triple takes the space, and the next word starts after two.
    if (c === SPACE && b === SPACE) continue;
    const t = triple(a, b, c);
    let j = 0;
    while (j < n && out[j] !== t) j++;
    if (j === n) out[n++] = t;
    if (c === SPACE) {
      a = SPACE;
      b = SPACE;
    } else {
      a = b;
      b = c;
    }
  }
  return n;
}

/** A text's letter triples, to compare others with: see shared(). */
export interface Triples {
  codes: number[];
  size: number;
}

export function triples(text: string): Triples {
  const codes: number[] = [];
  return { codes, size: triplesInto(text, codes) };
}

const theirs: number[] = [];

/** How many letter triples `text` has, and how many of them `mine` has too, packed as size << 16 | shared. */
export function shared(mine: Triples, text: string): number {
  const n = triplesInto(text, theirs);
  let both = 0;
  for (let j = 0; j < n; j++) {
    const t = theirs[j];
    for (let i = 0; i < mine.size; i++) {
      if (mine.codes[i] === t) {
        both++;
        break;
      }
    }
  }
  return (Math.min(n, 0xffff) << 16) | Math.min(both, 0xffff);
}

/** The steps of triples missed by a text against `mine`, from what shared() says of it. */
export const missOf = (mine: Triples, x: number) => missSteps(x & 0xffff, mine.size, x >>> 16);
