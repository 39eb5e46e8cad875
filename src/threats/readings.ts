import { hasIndic, type Lexicon, readingsOf, writtenWords } from '../search/loanwords.ts';
import type { RegisterView } from '../search/view.ts';
import type { MarkForm, WeightOf } from './compare.ts';
import { wordInfo } from './similarity.ts';

// A proposal written in an Indic script, read as the English words it spells (सनराइज फ़ूड्स: SUNRISE FOODS,
// src/search/loanwords.ts), so that it meets the Latin marks it sounds like word by word, and says so in its
// own letters (docs/clearance.md, *Marks across scripts*).

/** How a proposal's words read in Latin letters: null for each word with no reading, the whole null when none has one. */
export interface Reading {
  /** The words as written, one per normalised word (null when they cannot be paired). */
  written: string[] | null;
  readings: (string[] | null)[];
}

/** The register's words, as the respelling asks for them: in the base index or the index of recent changes. */
export const lexiconOf = (engine: RegisterView): Lexicon => ({
  hasPrefix: (p) => engine.views.some((v) => v.hasPrefix(p)),
  holders: (w) => engine.holders(w),
});

/** The readings of a proposal's words (`words`, normalised), made once for every trade it is weighed in. */
export function readingOf(text: string, words: string[], engine: RegisterView): Reading | null {
  if (!hasIndic(text)) return null;
  const written = writtenWords(text, words.length);
  const lexicon = lexiconOf(engine);
  // Only a word written in an Indic script is read as English: a Latin word of the same proposal is as written.
  const readings = words
    .map((w, i) => (written && !hasIndic(written[i]) ? null : readingsOf(w, lexicon)))
    .map((r) => (r?.length ? r : null));
  return readings.some(Boolean) || written ? { written, readings } : null;
}

/**
 * The form with its reading: each read word also compared as its readings, weighed as the register weighs the
 * word read (SUNRISE, held by a hundred marks, not the rare SANRAIJ), and the whole mark read run together.
 */
export function withReading(form: MarkForm, reading: Reading | null, weightOf: WeightOf): MarkForm {
  if (!reading) return form;
  form.written = reading.written ?? undefined;
  if (!reading.readings.some(Boolean)) return form;
  form.readings = reading.readings.map((r) => r?.map(wordInfo) ?? null);
  form.readings.forEach((r, i) => {
    if (r) form.weights[i] = Math.min(form.weights[i], ...r.map((x) => weightOf(x.text)));
  });
  const read = form.words.map((w, i) => reading.readings[i]?.[0] ?? w);
  form.readAs = read.join(' ');
  form.readCompact = read.join('');
  return form;
}
