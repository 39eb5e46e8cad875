// When bench/searchRecall.ts counts a miss as one no engine could avoid: ten answers, none the original, each
// at least as close to the query as the original by some reading of "close". Three readings share it.
//
// The third, at the level of words: the generated register is made of families of near-identical marks. For
// VAYU SHRI (a respelling of VAYU SHREE) it holds VAYU SHRI three times, JAI VAYU SHRI PLY, VAYUSHRI, NEW
// VAYUSHRI, SHRI VAYU and dozens of VAYU SRI. Each of them holds every word the searcher typed, or the typed
// letters run together, which the original (a respelling) does not: a search that ranks them first serves the
// query as typed, and the original behind ten of them is the same lottery as behind ten marks spelled closer.
import { boundedDistance } from '../src/search/editDistance.ts';
import { normaliseMark, wordsOf } from '../src/search/normalise.ts';

type Answer = { appNo: number; norm: string | null };
type Case = { appNo: number; query: string; norm: string };

const letters = (t: string) => t.replaceAll(' ', '');

/**
 * Ten answers, none the original (nor a mark spelled as it), each spelled at least as close to the query
 * (whole-text edit distance) as the original, or as close by `alsoAsClose` (an answer's text, the query's).
 */
export function tenAsClose(found: Answer[], c: Case, alsoAsClose: (text: string, q: string) => boolean): boolean {
  if (found.length < 10 || found.some((f) => f.appNo === c.appNo || f.norm === c.norm)) return false;
  const q = normaliseMark(c.query);
  const d = boundedDistance(q, c.norm, 1000);
  return found.every((f) => f.norm !== null && (alsoAsClose(f.norm, q) || boundedDistance(q, f.norm, d) <= d));
}

/** The original's letters spaced otherwise: a joined query does not say where its spaces were (1 111 for 11 1 1). */
export const spacedOtherwise = (c: Case) => {
  const own = letters(c.norm);
  return (text: string) => letters(text) === own;
};

/** Every word of the query is a word of the text (any order, other words beside), or its letters run together are. */
function servesAsTyped(text: string, q: string): boolean {
  const words = new Set(wordsOf(text));
  if (wordsOf(q).every((w) => words.has(w))) return true;
  return letters(text).includes(letters(q));
}

/** tenAsClose reading as close also what serves the query as typed, where the original does not. */
export function crowdedByWords(found: Answer[], c: Case): boolean {
  const spaced = spacedOtherwise(c);
  const originalServes = servesAsTyped(c.norm, normaliseMark(c.query));
  return tenAsClose(found, c, (text, q) => spaced(text) || (!originalServes && servesAsTyped(text, q)));
}
