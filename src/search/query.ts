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

/**
 * Only this much of a query is read: the API takes none longer (GET /v1/trademarks/ word_mark), and a mark's
 * own text searched for its threats or sound-alikes is cut here, since a search's work grows faster than
 * the length of its words (spellings, splits and sound-alike runs of every cut of them).
 */
export const QUERY_MAX = 200;

/** The first `max` characters of s, cut at a space when there is one, so that the last word is a whole word. */
export function bounded(s: string, max = QUERY_MAX): string {
  if (s.length <= max) return s;
  const space = s.lastIndexOf(' ', max);
  return s.slice(0, space > 0 ? space : max);
}

export function prepareQuery(text: string, mode: MatchType): PreparedQuery {
  const raw = bounded(text);
  // Normalising may lengthen text (a ligature of eighteen letters), so the words are bounded again.
  const normalised = bounded(normaliseMark(raw));
  const words = wordsOf(normalised);
  return { mode, raw, normalised, words, compact: words.join(''), exact: exactKey(raw) };
}
