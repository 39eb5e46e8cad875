import type { Bitset } from './bitset.ts';
import { initials, splits } from './compounds.ts';
import { spelled } from './exact.ts';
import { runAt, runIn } from './gather.ts';
import type { MarkIndex } from './markIndex.ts';
import { maxEdits } from './normalise.ts';
import { PAIR_ENDS } from './pairs.ts';
import { ALL_WORDS_BUCKET, COMPOUND_BUCKET } from './partial.ts';
import { admitPartialBucket, admitPartialRest, findPartials } from './partialGroups.ts';
import type { PreparedQuery } from './query.ts';
import { editsOf, type Related, related } from './related.ts';
import type { SearchScratch } from './scratch.ts';
import { admitRuns, collect, FAR_SOUND, HOLDING, soundRunsOf, takePairs, takeRuns, typingLastWord } from './steps.ts';
import { leadingArticles } from './stopWords.ts';
import {
  missOf,
  missSteps,
  S_ALL_WORDS,
  S_COMPOUND,
  S_EXACT,
  S_NEAR,
  S_PHONETIC,
  S_PREFIX,
  S_SPELLING,
  S_SUBSTRING,
  S_SUBSTRING_CROSS,
  S_SUFFIX,
  S_WORD,
  shared,
  slotOf,
  triples,
} from './strategies.ts';

const NONE = 9;
const INITIALS_MIN = 256;
// What looking a word's pairs up costs (a binary search), in postings read the other way.
const PAIR_LOOKUP = 4;

/**
 * SMART for a query of several words. The marks holding, for every query word, that word or a
 * variant or sound-alike of it are found with one bitmap per query word, ANDed; each is then looked at
 * once, in mark order, to tell exact / prefix / word run / any order / spelling / phonetic apart. The
 * strategies that need partial words (a last word still being typed, a suffix, a span across a word
 * boundary) and compounds have their own candidates.
 */
export function multiWord(ix: MarkIndex, s: SearchScratch, q: PreparedQuery): void {
  const v = ix.vocab;
  const words = q.words;
  const k = words.length;
  const ids = words.map((w) => v.id(w));
  const rel = words.map((w) => related(v, w, true));
  const found = s.classified;
  // The marks classify looked at hold every query word: partial matching passes them by.
  let classified: Bitset | null = null;
  // The query's letter triples, for a fuzzy match's share of them (missSteps).
  const mine = triples(words.join(' '));
  if (rel.every((r) => r.length)) classified = classify(ix, s, words, rel, ids, mine.size);
  else found.reset();

  found.admit(0, s);
  s.close(S_EXACT);
  found.admit(1, s);
  typingLastWord(ix, s, words, ids);
  s.close(S_PREFIX);
  found.admit(2, s);
  s.close(S_WORD);
  s.close(S_NEAR);
  // A search that wants pages only stops once they are full (SearchScratch.pagesFull), before partial
  // matching, half of a several-word search's cost, is made at all: nothing it finds comes before a
  // word run. It reads no admission state, only what classify looked at (kept in its own bitmap), so
  // made here it finds what it would have found first.
  if (s.pagesFull()) return;
  findPartials(ix, s, words, ids, rel, classified);
  const joined = v.id(q.compact);
  if (joined >= 0) s.takeWord(ix.post, joined, 0);
  for (const parts of splits(v, q.compact, words)) admitRuns(ix, s, parts);
  // A short word held by at most a thousandth of the register (or INITIALS_MIN marks) may be initials run together.
  const rare = (w: string) => {
    const id = v.id(w);
    return id < 0 || ix.postings(id) <= Math.max(INITIALS_MIN, ix.n / 1000);
  };
  for (const parts of initials(v, words, rare)) admitRuns(ix, s, parts);
  admitPartialBucket(s, COMPOUND_BUCKET);
  s.close(S_COMPOUND);
  found.admit(3, s);
  // Two words the other way round and joined: SITARAM for RAM SITA.
  const turned = k === 2 ? v.id(words[1] + words[0]) : -1;
  if (turned >= 0) s.takeWord(ix.post, turned, 0);
  // The query but its leading articles, spelled so (THE 2 DAYS: 2 DAYS). Partial matching places these
  // first among its all-words matches, but only among the candidates its budget lets it read: where the
  // register holds both words tens of thousands of times, the marks that are exactly 2 DAYS went unread.
  const lead = leadingArticles(words);
  if (lead > 0 && lead < k) spelled(ix, s, ids.slice(lead), (m) => s.takeOne(m, 0));
  admitPartialBucket(s, ALL_WORDS_BUCKET);
  s.close(S_ALL_WORDS);
  if (s.pagesFull()) return;
  // A first word of one letter is an initial (S FOODS), not the end of a word: every word ending in S
  // would be read for it, as a one-word query of one or two letters has no suffix either.
  if (words[0].length > 1) suffix(ix, s, words, ids);
  s.close(S_SUFFIX);
  s.close(S_SUBSTRING);
  if (words[0].length > 1) crossing(ix, s, words, ids);
  s.close(S_SUBSTRING_CROSS);
  if (s.pagesFull()) return;
  // The query run together, spelled or sounding like a word (BIGBAZAAR for BIG BAZZAR) or a run of
  // words spaced otherwise (SHRI RAM FINANCE for SRIRAM FINANCE). A word run together is a half step
  // further than the same edits word by word: the space is a difference too (SHREE SAPPHRE: SHREE
  // SAPPHIRE before SHREESAPPHIRE).
  const whole = related(v, q.compact, false);
  const runs = q.compact.length >= 4 ? soundRunsOf(ix, s, q.compact, mine) : null;
  const max = maxEdits(q.compact.length);
  // Numbers are compared with number words as words (786 and SEVEN EIGHT SIX are 0 apart), not by letters.
  const digits = /\d/.test(q.compact);
  const numeric = (id: number) => digits || /\d/.test(v.words.at(id));
  // A word of the query is no variant of the query run together: SAI is one edit from SAIS, but a mark
  // holding SAI and no S holds part of SAI S, and partial matching places it by what it shares.
  const takeWhole = (level: number) => {
    for (const r of whole)
      if (r.level === level && (editsOf(r.dist) <= FAR_SOUND || numeric(r.id)) && !ids.includes(r.id))
        s.takeWord(ix.post, r.id, r.dist + 1, 0, missOf(mine, shared(mine, v.words.at(r.id))));
  };
  found.admit(4, s);
  takeWhole(1);
  if (runs) takeRuns(ix, s, runs, max, false, mine);
  s.close(S_SPELLING);
  found.admit(5, s);
  takeWhole(2);
  if (runs) takeRuns(ix, s, runs, max, true, mine, FAR_SOUND);
  s.close(S_PHONETIC);
  admitPartialRest(ix, s);
}

/**
 * Sorts the marks holding a relative of every query word into exact, prefix, word run, any order,
 * spelling and phonetic. Reading a mark's words is a cache miss or two at an address known only from
 * the mark, so each step runs over all candidates before the next: a loop of independent loads
 * keeps many misses in flight, where one candidate at a time waits for each in turn.
 */
function classify(ix: MarkIndex, s: SearchScratch, words: string[], rel: Related[][], ids: number[], mine: number): Bitset {
  const d = ix.d;
  const k = rel.length;
  const found = s.classified;
  found.reset();
  // Candidates: the postings of the query word with the fewest (lengths and facets beside them), each
  // looked up in the bitmap of marks holding a relative of every other query word.
  const weight = rel.map((rs) => rs.reduce((n, r) => n + ix.postings(r.id), 0));
  const order = rel.map((_, i) => i).sort((a, b) => weight[a] - weight[b]);
  // Only read: with two query words it may be the index's kept bitmap of the other word's relatives.
  let others = ix.sets.holdingAny(words[order[1]], rel[order[1]], s, 1);
  if (k > 2) {
    const all = s.bitmap(0);
    all.copy(others);
    for (const i of order.slice(2)) all.and(ix.sets.holdingAny(words[i], rel[i], s, 1));
    others = all;
  }
  const visited = s.bitmap(2);
  const { postMarks, postLen, postInfo, postOffsets } = d;
  const cands = s.candidates;
  cands.reset(weight[order[0]]);
  for (const r of rel[order[0]]) {
    for (let p = postOffsets[r.id]; p < postOffsets[r.id + 1]; p++) {
      const m = postMarks[p];
      if (!others.has(m) || visited.has(m) || !s.passes(m, postInfo[p])) continue;
      visited.add(m);
      cands.push(m, postLen[p], postInfo[p]);
    }
  }
  cands.gather(d);
  const { n, marks: cm, lengths: cl, infos: ci, bounds: cs, words: cw } = cands;

  // Word id → what it is to each query word, packed as (letter triples shared << 16 | query word << 8 |
  // level << 4 | distance), in
  // chains through the search's scratch arrays (a Map lookup per word of every candidate costs more
  // than the rest of the classification); `has` says in a cache-sized bitmap which words have a chain.
  const { head, has, packed, next } = s.roleScratch(rel.reduce((m, rs) => m + rs.length, 0));
  let used = 0;
  rel.forEach((rs, i) => {
    for (const r of rs) {
      packed[used] = (Math.min(r.shared, 0xffff) << 16) | (i << 8) | (r.level << 4) | Math.min(r.dist, 15);
      next[used] = head[r.id];
      head[r.id] = used++;
      has.add(r.id);
    }
  });
  const hasWords = has.words;
  const level = new Uint8Array(k);
  const dist = new Uint8Array(k);
  const shared = new Uint16Array(k);
  const at = new Int32Array(k);
  for (let c = 0; c < n; c++) {
    for (let i = 0; i < k; i++) {
      level[i] = NONE;
      dist[i] = 0;
      shared[i] = 0;
    }
    const from = cs[2 * c];
    const to = cs[2 * c + 1];
    for (let q = from; q < to; q++) {
      const w = cw[q];
      if ((hasWords[w >>> 5] & (1 << (w & 31))) === 0) continue;
      for (let e = head[w]; e >= 0; e = next[e]) {
        const x = packed[e];
        const i = (x >>> 8) & 255;
        const lv = (x >>> 4) & 15;
        const ds = x & 15;
        const sh = x >>> 16;
        if (lv < level[i] || (lv === level[i] && (ds < dist[i] || (ds === dist[i] && sh > shared[i])))) {
          level[i] = lv;
          dist[i] = ds;
          shared[i] = sh;
          at[i] = q;
        }
      }
    }
    let worst = 0;
    let sum = 0;
    for (let i = 0; i < k; i++) {
      if (level[i] > worst) worst = level[i];
      sum += dist[i];
    }
    if (worst === NONE) {
      // Not every word after all (a bitmap of relatives can hold a mark by a relative of another word): partial matching reads it.
      visited.remove(cm[c]);
      continue;
    }
    let bucket: number;
    let len = cl[c];
    if (worst === 0) {
      const at = runIn(cw, from, to, ids);
      bucket = at === 0 ? (to - from === k ? 0 : 1) : at > 0 ? 2 : 3;
      sum = 0;
    } else {
      // A mark's letter triples are its words' (a text of n letters and spaces has n + 1 of them).
      let sh = 0;
      for (let i = 0; i < k; i++) sh += shared[i];
      len = slotOf(missSteps(sh, mine, len + 1), len);
      bucket = worst === 1 ? 4 : 5;
      // The query's words in another order are half a step further (EAGLE GREN: EAGLE GREEN before GRIN EAGLE).
      for (let i = 1; i < k; i++) {
        if (at[i] <= at[i - 1]) {
          sum++;
          break;
        }
      }
    }
    found.push(bucket, cm[c], sum, len, ci[c]);
  }
  for (const rs of rel) {
    for (const r of rs) {
      head[r.id] = -1;
      has.remove(r.id);
    }
  }
  return visited;
}

/** RISE FOODS → SUNRISE FOODS: the first query word ends a word of the mark, the rest are its last words. */
function suffix(ix: MarkIndex, s: SearchScratch, words: string[], ids: number[]): void {
  const v = ix.vocab;
  const k = words.length;
  const tail = ids.slice(1);
  if (tail.includes(-1)) return;
  const lastId = ids[k - 1];
  const ends = v.withSuffix(words[0]);
  // Two words: the pairs of each word with the ending that end the mark with the last query word,
  // unless there are so many such words that reading the marks ending with it costs less.
  if (k === 2 && ends.length * PAIR_LOOKUP <= ix.d.lastOffsets[lastId + 1] - ix.d.lastOffsets[lastId]) {
    for (let i = 0; i < ends.length; i++) takePairs(ix, s, ends[i], lastId, lastId + 1, PAIR_ENDS);
    return;
  }
  const cands = collect(ix, s, ix.last, lastId, ix.sets.anyOf(`ending ${words[0]}`, ends), 3);
  const { n, marks, lengths, infos, bounds, words: cw } = cands;
  const ending = s.wordSet(ends);
  for (let c = 0; c < n; c++) {
    const end = bounds[2 * c + 1];
    if (end - bounds[2 * c] < k || !runAt(cw, end - k + 1, tail)) continue;
    if (ending.set.has(cw[end - k])) s.takeKnown(marks[c], 0, lengths[c], infos[c]);
  }
  ending.done();
}

/** SE FO in SUNRISE FOODS: the first query word ends a word of the mark, middle words follow whole, the last begins one. */
function crossing(ix: MarkIndex, s: SearchScratch, words: string[], ids: number[]): void {
  const d = ix.d;
  const v = ix.vocab;
  const k = words.length;
  const middle = ids.slice(1, k - 1);
  if (middle.includes(-1)) return;
  const [lo, hi] = v.prefixRange(words[k - 1]);
  const ends = v.withSuffix(words[0]);
  if (lo === hi || !ends.length) return;
  // Two words: the pairs of each word with the ending whose next word has the beginning, unless
  // there are so many such words that the way below costs less.
  if (
    k === 2 &&
    ends.length * PAIR_LOOKUP <=
      Math.min(
        d.postOffsets[hi] - d.postOffsets[lo],
        ends.reduce((n, w) => n + ix.postings(w), 0),
      )
  ) {
    for (let i = 0; i < ends.length; i++) takePairs(ix, s, ends[i], lo, hi, 0);
    return;
  }
  // Candidates hold a word with the ending and one with the beginning. Either side's bitmap is poured
  // only when that costs less than reading the words of the candidates it would rule out (S as the
  // last word begins a fifth of all words: 1.3 million postings).
  const sides = { ends: ix.sets.anyOf(`ending ${words[0]}`, ends), starts: ix.sets.range(lo, hi) };
  const seen = s.seen;
  const cands = s.candidates;
  const { postMarks, postInfo, postOffsets } = d;
  if (middle.length) {
    // Candidates: the postings of the rarest middle word, in the bitmap of the cheaper side (and of
    // the other when worth it).
    const rarest = middle.reduce((x, y) => (ix.postings(x) <= ix.postings(y) ? x : y));
    const [cheap, dear] = sides.ends.cost <= sides.starts.cost ? [sides.ends, sides.starts] : [sides.starts, sides.ends];
    let a = ix.sets.kept(cheap, s, 4);
    if (dear.cost < HOLDING * ix.postings(rarest)) {
      const both = s.bitmap(6);
      both.copy(a);
      both.and(ix.sets.kept(dear, s, 5));
      a = both;
    }
    cands.reset(ix.postings(rarest));
    for (let p = postOffsets[rarest]; p < postOffsets[rarest + 1]; p++) {
      const m = postMarks[p];
      if (a.has(m) && !seen.has(m) && s.passes(m, postInfo[p])) cands.push(m, 0, 0);
    }
  } else {
    // Two words: the postings of the side with fewer are read (a prefix's are one block), each mark
    // once, looked up in the other side's bitmap when that is worth pouring.
    const endPostings = ends.reduce((n, w) => n + ix.postings(w), 0);
    const startPostings = postOffsets[hi] - postOffsets[lo];
    const viaStarts = startPostings <= endPostings;
    const other = viaStarts ? sides.ends : sides.starts;
    const read = Math.min(startPostings, endPostings);
    const holding = other.cost < HOLDING * read ? ix.sets.kept(other, s, 5) : null;
    const visited = s.bitmap(6);
    cands.reset(read);
    const take = (from: number, to: number) => {
      for (let p = from; p < to; p++) {
        const m = postMarks[p];
        if (seen.has(m) || visited.has(m) || (holding && !holding.has(m)) || !s.passes(m, postInfo[p])) continue;
        visited.add(m);
        cands.push(m, 0, 0);
      }
    };
    if (viaStarts) take(postOffsets[lo], postOffsets[hi]);
    else for (const w of ends) take(postOffsets[w], postOffsets[w + 1]);
  }
  cands.gather(d);
  const { n, marks, bounds, words: cw } = cands;
  const ending = s.wordSet(ends);
  for (let c = 0; c < n; c++) {
    const start = bounds[2 * c];
    const count = bounds[2 * c + 1] - start;
    for (let at = 0; at + k <= count; at++) {
      if (!ending.set.has(cw[start + at]) || !runAt(cw, start + at + 1, middle)) continue;
      const lastWord = cw[start + at + k - 1];
      if (lastWord >= lo && lastWord < hi) {
        s.takeOne(marks[c], 0);
        break;
      }
    }
  }
  ending.done();
}
