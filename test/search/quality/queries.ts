import type { Query } from './kinds.ts';
import { COMPOUND_JOIN, COMPOUND_SPLIT } from './queries/compounds.ts';
import { DIGIT_WORD } from './queries/digits.ts';
import { HINGLISH } from './queries/hinglish.ts';
import { MISSPELLING } from './queries/misspelling.ts';
import { EXACT, PARTIAL, WORD_ORDER } from './queries/order.ts';
import { SOUND_ALIKE } from './queries/sound.ts';

// The labelled set: written by hand from how people misspell and respell the marks of register.ts,
// not from the generator's variant rules (src/ingest/generator/variants.ts), so it does not measure
// the generator against itself. Each query lists the marks a trade mark examiner would expect to
// see in the first ten results; marks that are merely related may appear without counting.
export const QUERIES: Query[] = [
  ...EXACT,
  ...PARTIAL,
  ...MISSPELLING,
  ...SOUND_ALIKE,
  ...HINGLISH,
  ...COMPOUND_SPLIT,
  ...COMPOUND_JOIN,
  ...DIGIT_WORD,
  ...WORD_ORDER,
];
