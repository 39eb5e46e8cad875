// A second reading of "the original cannot be told apart" for bench/searchRecall.ts, at the level of words.
// The generated register is made of families of near-identical marks: for VAYU SHRI (a respelling of
// VAYU SHREE) it holds VAYU SHRI three times, JAI VAYU SHRI PLY, VAYUSHRI, NEW VAYUSHRI, SHRI VAYU and
// dozens of VAYU SRI. Each of them holds every word the searcher typed, or the typed letters run together,
// which the original (a respelling) does not: a search that ranks them first serves the query as typed,
// and the original behind ten of them is the same lottery as behind ten marks spelled closer.
import { boundedDistance } from '../src/search/editDistance.ts';
import { normaliseMark, wordsOf } from '../src/search/normalise.ts';

type Answer = { appNo: number; norm: string | null };

const letters = (t: string) => t.replaceAll(' ', '');

/** Every word of the query is a word of the text (any order, other words beside), or its letters run together are. */
function servesAsTyped(text: string, q: string): boolean {
  const words = new Set(wordsOf(text));
  if (wordsOf(q).every((w) => words.has(w))) return true;
  return letters(text).includes(letters(q));
}

/**
 * Ten answers, none the original, each at least as close to the query as the original: spelled as close
 * (whole-text edit distance), the original's letters spaced otherwise, or, where the original does not
 * serve the query as typed, serving it so.
 */
export function crowdedByWords(found: Answer[], c: { appNo: number; query: string; norm: string }): boolean {
  if (found.length < 10 || found.some((f) => f.appNo === c.appNo || f.norm === c.norm)) return false;
  const q = normaliseMark(c.query);
  const d = boundedDistance(q, c.norm, 1000);
  const own = letters(c.norm);
  const originalServes = servesAsTyped(c.norm, q);
  return found.every(
    (f) =>
      f.norm !== null && (letters(f.norm) === own || boundedDistance(q, f.norm, d) <= d || (!originalServes && servesAsTyped(f.norm, q))),
  );
}
