import { type Candidates, runAt } from './gather.ts';
import type { MarkIndex } from './markIndex.ts';
import { PAIR_STARTS, pairsInto } from './pairs.ts';
import type { SearchScratch } from './scratch.ts';
import { queryRunCodes, RunHits, soundRuns } from './soundRuns.ts';
import { missSteps, type Triples } from './strategies.ts';
import type { Postings } from './types.ts';
import type { Pour } from './wordSets.ts';

// Steps more than one strategy takes (src/search/singleWord.ts, multiWord.ts, exact.ts): words that
// follow one another, a last word still being typed, sound-alike runs of words. Each reads the index
// and admits into the search's scratch.

/**
 * A bitmap of candidates is built when it costs less than this many postings per mark it spares
 * looking up: setting a bit is a few nanoseconds, reading a mark's words a cache miss or two.
 */
export const HOLDING = 16;

const NO_RUNS = new RunHits();

/**
 * Admits, at distance 0, the marks of `word`'s pairs whose next word is in [lo, hi) and that carry
 * every flag of `flags` (src/search/pairs.ts).
 */
export function takePairs(ix: MarkIndex, s: SearchScratch, word: number, lo: number, hi: number, flags: number): void {
  const [from, to] = pairsInto(ix.d, word, lo, hi);
  const pm = ix.d.pairMarks;
  for (let p = from; p < to; p++) {
    const x = pm[p];
    if ((x & flags) === flags) s.takeOne(x >>> 2, 0);
  }
}

/** Marks not seen yet, and passing the filters, holding a run of words that, run together, sounds like `compact`. */
export function soundRunsOf(ix: MarkIndex, s: SearchScratch, compact: string, query: Triples): RunHits {
  const codes = queryRunCodes(compact);
  if (!codes.length) return NO_RUNS;
  const seen = s.seen;
  const info = ix.d.info;
  return soundRuns(
    ix.vocab,
    ix.d,
    ix.d.markWords,
    compact,
    codes,
    s.bitmap(7),
    s.bitmap(8),
    (m) => seen.has(m) || !s.passes(m, info[m]),
    s.runs,
    query,
  );
}

/**
 * A run (or a word) sounding like a query of several words run together is a sound-alike only within
 * this many edits after romanisation (`farthest` of takeRuns). Past it the codes agree by collision: a long run loses its vowels and silent
 * letters to Double Metaphone, so BUY ME A COF FEE coded like BUME CAFE and B.M. AQUA, and SRIGHEE
 * (GH silent after I) like SHREE, SRI and SURYA: hundreds of thousands of marks, none alike.
 */
export const FAR_SOUND = 3;

/**
 * Admits the sound-alike runs spelled within `max` edits (as spelling variants, by spelling
 * distance) or, with `far`, those beyond it (as sound-alikes, by distance after romanisation).
 */
export function takeRuns(
  ix: MarkIndex,
  s: SearchScratch,
  runs: RunHits,
  max: number,
  far: boolean,
  query: Triples,
  farthest = Number.POSITIVE_INFINITY,
): void {
  const marks = runs.marks;
  const markLen = ix.d.markLen;
  for (let i = 0; i < runs.n; i++) {
    const m = marks[i];
    const spelled = runs.spelled(i);
    if (spelled > max !== far || (far && runs.sounded(i) > farthest)) continue;
    // The mark's triples are its words' (a text of n letters and spaces has n + 1); those its run shares.
    s.takeFuzzy(m, 2 * (far ? runs.sounded(i) : spelled), missSteps(runs.shared(i), query.size, markLen[m] + 1));
  }
}

/** Admits, as compounds, the marks in which the words `parts` follow one another. */
export function admitRuns(ix: MarkIndex, s: SearchScratch, parts: number[]): void {
  const d = ix.d;
  if (parts.length === 2) {
    takePairs(ix, s, parts[0], parts[1], parts[1] + 1, 0);
    return;
  }
  const order = parts.slice().sort((a, b) => ix.postings(a) - ix.postings(b));
  const rarest = order[0];
  // Many candidates: keep only those holding every other part (bitmaps) before looking at their words.
  let others = null;
  if (ix.postings(rarest) > 4096) {
    others = ix.sets.holdingWord(order[1], s, 0);
    if (order.length > 2) {
      const all = s.bitmap(1);
      all.copy(others);
      for (let i = 2; i < order.length; i++) all.and(ix.sets.holdingWord(order[i], s, 0));
      others = all;
    }
  }
  for (let p = d.postOffsets[rarest]; p < d.postOffsets[rarest + 1]; p++) {
    const m = d.postMarks[p];
    if (others && !others.has(m)) continue;
    if (!s.seen.has(m) && ix.findSequence(m, parts) >= 0) s.takeOne(m, 0);
  }
}

/**
 * The marks of `word`'s postings in family `f` not seen yet that pass the filters, their words
 * gathered. When pouring `holding`, the marks holding the words they must also hold,
 * is cheaper than reading all their words, only those in it: with a class filter, or after stronger
 * strategies took most of them, there are few left to read and the bitmap is not worth its cost.
 */
export function collect(ix: MarkIndex, s: SearchScratch, f: Postings, word: number, holding: Pour, pool: number): Candidates {
  const { marks, len, info } = f;
  const cands = s.candidates;
  cands.reset(f.offsets[word + 1] - f.offsets[word]);
  const seen = s.seen;
  // Kept from an earlier query, the bitmap costs nothing: it thins the candidates as they are read.
  const kept = ix.sets.keptAlready(holding.key);
  for (let p = f.offsets[word]; p < f.offsets[word + 1]; p++) {
    const m = marks[p];
    if (!seen.has(m) && (!kept || kept.has(m)) && s.passes(m, info[p])) cands.push(m, len ? len[p] : 0, info[p]);
  }
  if (!kept && holding.cost < HOLDING * cands.n) {
    const set = ix.sets.kept(holding, s, pool);
    cands.retain((m) => set.has(m));
  }
  cands.gather(ix.d);
  return cands;
}

/**
 * SUNRISE FO → SUNRISE FOODS: every word but the last is whole, the last begins the mark's next word
 * (and, with `notWhole`, is not all of it: a whole word there makes a compound).
 */
export function typingLastWord(ix: MarkIndex, s: SearchScratch, words: string[], ids: number[], notWhole = false): void {
  const k = words.length;
  const head = ids.slice(0, k - 1);
  if (head.includes(-1)) return;
  const last = words[k - 1];
  const [first, hi] = ix.vocab.prefixRange(last);
  // The word itself sorts first among the words it begins; with `notWhole` it does not count, and the
  // marks holding it (TASTE OF: 38,000 for TASTEOF) are not even candidates.
  const lo = notWhole && first < hi && ix.vocab.words.at(first) === last ? first + 1 : first;
  if (lo === hi) return;
  // Two words: the head's pairs whose next word is in the range and that begin the mark.
  if (k === 2) {
    takePairs(ix, s, head[0], lo, hi, PAIR_STARTS);
    return;
  }
  // The range's postings are one block: a bitmap of it may spare looking at most candidates' words. Into
  // scratch bitmap 7, which no step uses before the sound-alike runs: multiWord's partial matching, made
  // after this step, still reads what classify looked at in bitmap 2.
  const cands = collect(ix, s, ix.first, head[0], ix.sets.range(lo, hi), 7);
  const { n, marks, lengths, infos, bounds, words: cw } = cands;
  for (let c = 0; c < n; c++) {
    const at = bounds[2 * c];
    if (bounds[2 * c + 1] - at < k || !runAt(cw, at, head)) continue;
    const wk = cw[at + k - 1];
    if (wk >= lo && wk < hi) s.takeKnown(marks[c], 0, lengths[c], infos[c]);
  }
}
