import type { Bitset } from './bitset.ts';
import type { MarkIndex } from './markIndex.ts';
import { admitPartial, PARTIAL_BUCKET, partialMatches } from './partial.ts';
import type { Related } from './related.ts';
import type { SearchScratch } from './scratch.ts';

// Partial matching in a search made for several filters at once (src/search/filterSplit.ts). Its
// candidates are bounded (src/search/partial.ts: a budget of postings, MarkIndex.partialClassify classified) and
// counted among the marks passing the filter, so a wider filter would classify fewer of one filter's
// marks: it runs once per filter, each under its own filter, and each filter's matches are admitted
// only for marks of its classes. Every other step of a search decides mark by mark, so the split
// search admits each mark as the search under that mark's filter alone would. Without a split, these
// are partial matching's own steps.

/** Sorts the marks holding some of the query's words into the partial buckets (of each filter, when split). */
export function findPartials(
  ix: MarkIndex,
  s: SearchScratch,
  words: string[],
  ids: number[],
  rel: readonly Related[][],
  classified: Bitset | null,
): void {
  const split = s.split;
  if (!split) {
    partialMatches(ix, s, words, ids, rel, classified);
    return;
  }
  const own = { partials: s.partials, partialWords: s.partialWords };
  // What does not depend on the filter is made for the first one and kept for the others.
  s.coreMemo = new Map();
  try {
    for (const part of split.parts) {
      s.partials = part.partials;
      s.partialWords = part.partialWords;
      s.narrowed(part.filter, () => partialMatches(ix, s, words, ids, rel, classified));
    }
  } finally {
    s.partials = own.partials;
    s.partialWords = own.partialWords;
    s.coreMemo = null;
  }
}

/** Admits a partial bucket (of every filter, when split: each holds only marks of its filter). */
export function admitPartialBucket(s: SearchScratch, bucket: number): void {
  const split = s.split;
  if (!split) s.partials.admit(bucket, s);
  else for (const part of split.parts) part.partials.admit(bucket, s);
}

/**
 * Admits the classified partial matches, then the marks of the words read past the classified ones
 * (of each filter in turn when split, each word's marks only where they are of that filter's classes).
 */
export function admitPartialRest(ix: MarkIndex, s: SearchScratch): void {
  const split = s.split;
  if (!split) {
    admitPartial(ix, s);
    return;
  }
  const { offsets, marks, len, info } = ix.post;
  split.parts.forEach((part, k) => {
    part.partials.admit(PARTIAL_BUCKET, s);
    const later = part.partialWords;
    for (let i = 0; i < later.length; i += 2) {
      const id = later[i];
      const dist = later[i + 1];
      // Another filter's marks are neither admitted nor marked seen here: that filter's own words admit them.
      for (let p = offsets[id]; p < offsets[id + 1]; p++)
        if (split.partOf[info[p] & 63] === k) s.takeKnown(marks[p], dist, len![p], info[p]);
    }
  });
}
