import { exactKey, normaliseMark, wordsOf } from './normalise.ts';

export type MatchType = 'SMART' | 'EXACT';

/** A query in every form the index compares: computed once, used against every index. */
export interface PreparedQuery {
  mode: MatchType;
  raw: string;
  /** normaliseMark(raw): upper case, words separated by single spaces. */
  normalised: string;
  words: string[];
  /** The words run together: what a joined or split compound is compared with. */
  compact: string;
  /** EXACT's key: case and runs of whitespace ignored, nothing else. */
  exact: string;
}

export function prepareQuery(raw: string, mode: MatchType): PreparedQuery {
  const normalised = normaliseMark(raw);
  const words = wordsOf(normalised);
  return { mode, raw, normalised, words, compact: words.join(''), exact: exactKey(raw) };
}
