import type { Query } from './kinds.ts';
import { ARTICLE } from './queries/articles.ts';
import { CLEARANCE_MULTIWORD } from './queries/clearance.ts';
import { COMPOUND_JOIN, COMPOUND_SPLIT } from './queries/compounds.ts';
import { DIGIT_WORD } from './queries/digits.ts';
import { HINGLISH } from './queries/hinglish.ts';
import { JOINED_LONG, SPLIT_LONG } from './queries/longMarks.ts';
import { MISSPELLING } from './queries/misspelling.ts';
import { FIRST_WORD, LAST_WORD } from './queries/oneWord.ts';
import { EXACT, PARTIAL, WORD_ORDER } from './queries/order.ts';
import { OTHER_SCRIPT } from './queries/scripts.ts';
import { WORD_ABSENT } from './queries/shared.ts';
import { SHORT_TYPO } from './queries/shortWords.ts';
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
  ...ARTICLE,
  ...WORD_ABSENT,
  ...JOINED_LONG,
  ...SPLIT_LONG,
  ...SHORT_TYPO,
  ...FIRST_WORD,
  ...LAST_WORD,
  ...OTHER_SCRIPT,
  ...CLEARANCE_MULTIWORD,
];
