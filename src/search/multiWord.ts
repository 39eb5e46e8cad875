import type { MarkIndex, Postings } from './markIndex.ts';
import type { Pour } from './wordSets.ts';
import type { PreparedQuery } from './query.ts';
import { related, type Related } from './related.ts';
import { splits } from './compounds.ts';
import { admitRuns } from './singleWord.ts';
import {
  S_ALL_WORDS, S_COMPOUND, S_EXACT, S_PHONETIC, S_PREFIX, S_SPELLING, S_SUBSTRING, S_SUBSTRING_CROSS, S_SUFFIX, S_WORD,
} from './strategies.ts';
import { maxEdits } from './normalise.ts';
import { candidates, runAt, runIn, Scratch, type Candidates } from './gather.ts';
import { PAIR_ENDS, PAIR_STARTS } from './pairs.ts';

const NONE = 9;
// What looking a word's pairs up costs (a binary search), in postings read the other way.
const PAIR_LOOKUP = 4;
// A bitmap of candidates is built when it costs less than this many postings per mark it spares
// looking up: setting a bit is a few nanoseconds, reading a mark's words a cache miss or two.
const HOLDING = 16;

/**
 * SMART for a query of several words. The marks holding, for every query word, that word or a
 * variant or sound-alike of it are found with one bitmap per query word, ANDed; each is then looked at
 * once, in mark order, to tell exact / prefix / word run / any order / spelling / phonetic apart. The
 * strategies that need partial words (a last word still being typed, a suffix, a span across a word
 * boundary) and compounds have their own candidates.
 */
export function multiWord(ix: MarkIndex, q: PreparedQuery): void {
  const v = ix.vocab;
  const d = ix.d;
  const words = q.words;
  const k = words.length;
  const ids = words.map((w) => v.id(w));
  const rel = words.map((w) => related(v, w, true));
  if (rel.every((r) => r.length)) classify(ix, words, rel, ids);
  else found.reset();

  found.admit(ix, 0);
  ix.close(S_EXACT);
  found.admit(ix, 1);
  typingLastWord(ix, words, ids);
  ix.close(S_PREFIX);
  found.admit(ix, 2);
  ix.close(S_WORD);
  const joined = v.id(q.compact);
  if (joined >= 0) ix.takeWord(ix.post, joined, 0);
  for (const parts of splits(v, q.compact, words)) admitRuns(ix, parts);
  ix.close(S_COMPOUND);
  found.admit(ix, 3);
  // Two words the other way round and joined: SITARAM for RAM SITA.
  const turned = k === 2 ? v.id(words[1] + words[0]) : -1;
  if (turned >= 0) ix.takeWord(ix.post, turned, 0);
  ix.close(S_ALL_WORDS);
  suffix(ix, words, ids);
  ix.close(S_SUFFIX);
  ix.close(S_SUBSTRING);
  crossing(ix, words, ids);
  ix.close(S_SUBSTRING_CROSS);
  // The query run together, spelled or sounding like a word (BIGBAZAAR for BIG BAZZAR) or a run of
  // words spaced otherwise (SHRI RAM FINANCE for SRIRAM FINANCE).
  const whole = related(v, q.compact, false);
  const runs = q.compact.length >= 4 ? ix.soundRuns(q.compact) : null;
  const max = maxEdits(q.compact.length);
  found.admit(ix, 4);
  for (const r of whole) if (r.level === 1) ix.takeWord(ix.post, r.id, r.dist);
  if (runs) ix.takeRuns(runs, max, false);
  ix.close(S_SPELLING);
  found.admit(ix, 5);
  for (const r of whole) if (r.level === 2) ix.takeWord(ix.post, r.id, r.dist);
  if (runs) ix.takeRuns(runs, max, true);
  ix.close(S_PHONETIC);
  partial(ix, rel, ids);
}

/**
 * Marks that are one word of the query alone, or a variant of it: the distinctive part of a longer
 * name (SUNRISE for SUNRISE FOODS, BALAJI for SHRI BALAJEE). Rarer words first: they carry the name.
 */
function partial(ix: MarkIndex, rel: Related[][], ids: number[]): void {
  const d = ix.d;
  const words = ix.vocab.words;
  const df = (i: number) => rel[i].reduce((n, r) => n + d.postOffsets[r.id + 1] - d.postOffsets[r.id], 0);
  const order = rel.map((_, i) => i).filter((i) => ids[i] < 0 || words[ids[i]].length >= 3).sort((a, b) => df(a) - df(b));
  order.forEach((i, rank) => {
    for (const r of rel[i]) if (words[r.id].length >= 3) ix.takeWord(ix.only, r.id, r.dist + 8 * rank, words[r.id].length);
  });
}

/**
 * Marks the classification found, per bucket (exact, prefix, word, any order, spelling, phonetic):
 * id, distance, length and facets side by side.
 */
class Found {
  private readonly data = Array.from({ length: 6 }, () => new Scratch());
  readonly size = new Uint32Array(6);

  reset(): void {
    this.size.fill(0);
  }

  push(bucket: number, m: number, dist: number, len: number, info: number): void {
    const at = 3 * this.size[bucket]++;
    const a = this.data[bucket].room(at + 3);
    a[at] = m;
    a[at + 1] = (dist << 16) | Math.min(len, 0xffff);
    a[at + 2] = info;
  }

  admit(ix: MarkIndex, bucket: number): void {
    const a = this.data[bucket].a;
    for (let i = 0; i < 3 * this.size[bucket]; i += 3) ix.takeKnown(a[i], a[i + 1] >>> 16, a[i + 1] & 0xffff, a[i + 2]);
  }
}
const found = new Found();

/**
 * Sorts the marks holding a relative of every query word into exact, prefix, word run, any order,
 * spelling and phonetic. Reading a mark's words is a cache miss or two at an address known only from
 * the mark, so each step runs over all candidates before the next: a loop of independent loads
 * keeps many misses in flight, where one candidate at a time waits for each in turn.
 */
function classify(ix: MarkIndex, words: string[], rel: Related[][], ids: number[]): void {
  const d = ix.d;
  const k = rel.length;
  found.reset();
  // Candidates: the postings of the query word with the fewest (lengths and facets beside them), each
  // looked up in the bitmap of marks holding a relative of every other query word.
  const weight = rel.map((rs) => rs.reduce((n, r) => n + ix.postings(r.id), 0));
  const order = rel.map((_, i) => i).sort((a, b) => weight[a] - weight[b]);
  // Only read: with two query words it may be the index's kept bitmap of the other word's relatives.
  let others = ix.sets.holdingAny(words[order[1]], rel[order[1]], 1);
  if (k > 2) {
    const all = ix.bitmap(0);
    all.or(others);
    for (const i of order.slice(2)) all.and(ix.sets.holdingAny(words[i], rel[i], 1));
    others = all;
  }
  const visited = ix.bitmap(2);
  const { postMarks, postLen, postInfo, postOffsets } = d;
  const cands = candidates;
  cands.reset(weight[order[0]]);
  for (const r of rel[order[0]]) {
    for (let p = postOffsets[r.id]; p < postOffsets[r.id + 1]; p++) {
      const m = postMarks[p];
      if (!others.has(m) || visited.has(m) || !ix.passes(m, postInfo[p])) continue;
      visited.add(m);
      cands.push(m, postLen[p], postInfo[p]);
    }
  }
  cands.gather(d);
  const { n, marks: cm, lengths: cl, infos: ci, bounds: cs, words: cw } = cands;

  // Word id → what it is to each query word, packed as (query word << 8 | level << 4 | distance), in
  // chains through the index's scratch arrays (a Map lookup per word of every candidate costs more
  // than the rest of the classification); `has` says in a cache-sized bitmap which words have a chain.
  const { head, has, packed, next } = ix.roleScratch(rel.reduce((m, rs) => m + rs.length, 0));
  let used = 0;
  rel.forEach((rs, i) => {
    for (const r of rs) {
      packed[used] = (i << 8) | (r.level << 4) | Math.min(r.dist, 15);
      next[used] = head[r.id];
      head[r.id] = used++;
      has.add(r.id);
    }
  });
  const hasWords = has.words;
  const level = new Uint8Array(k);
  const dist = new Uint8Array(k);
  for (let c = 0; c < n; c++) {
    for (let i = 0; i < k; i++) {
      level[i] = NONE;
      dist[i] = 0;
    }
    const from = cs[2 * c];
    const to = cs[2 * c + 1];
    for (let q = from; q < to; q++) {
      const w = cw[q];
      if ((hasWords[w >>> 5] & (1 << (w & 31))) === 0) continue;
      for (let e = head[w]; e >= 0; e = next[e]) {
        const x = packed[e];
        const i = x >>> 8;
        const lv = (x >>> 4) & 15;
        const ds = x & 15;
        if (lv < level[i] || (lv === level[i] && ds < dist[i])) {
          level[i] = lv;
          dist[i] = ds;
        }
      }
    }
    let worst = 0;
    let sum = 0;
    for (let i = 0; i < k; i++) {
      if (level[i] > worst) worst = level[i];
      sum += dist[i];
    }
    if (worst === NONE) continue;
    let bucket: number;
    if (worst === 0) {
      const at = runIn(cw, from, to, ids);
      bucket = at === 0 ? (to - from === k ? 0 : 1) : at > 0 ? 2 : 3;
      sum = 0;
    } else {
      bucket = worst === 1 ? 4 : 5;
    }
    found.push(bucket, cm[c], sum, cl[c], ci[c]);
  }
  for (const rs of rel) {
    for (const r of rs) {
      head[r.id] = -1;
      has.remove(r.id);
    }
  }
}

/**
 * The marks of `word`'s postings in family `f` not seen yet that pass the filters, their words
 * gathered. When pouring `holding`, the marks holding the words they must also hold,
 * is cheaper than reading all their words, only those in it: with a class filter, or after stronger
 * strategies took most of them, there are few left to read and the bitmap is not worth its cost.
 */
function collect(ix: MarkIndex, f: Postings, word: number, holding: Pour, pool: number): Candidates {
  const { marks, len, info } = f;
  const cands = candidates;
  cands.reset(f.offsets[word + 1] - f.offsets[word]);
  const seen = ix.seen;
  // Kept from an earlier query, the bitmap costs nothing: it thins the candidates as they are read.
  const kept = ix.sets.keptAlready(holding.key);
  for (let p = f.offsets[word]; p < f.offsets[word + 1]; p++) {
    const m = marks[p];
    if (!seen.has(m) && (!kept || kept.has(m)) && ix.passes(m, info[p])) cands.push(m, len ? len[p] : 0, info[p]);
  }
  if (!kept && holding.cost < HOLDING * cands.n) {
    const set = ix.sets.kept(holding, pool);
    cands.retain((m) => set.has(m));
  }
  cands.gather(ix.d);
  return cands;
}

/**
 * SUNRISE FO → SUNRISE FOODS: every word but the last is whole, the last begins the mark's next word
 * (and, with `notWhole`, is not all of it: a whole word there makes a compound).
 */
export function typingLastWord(ix: MarkIndex, words: string[], ids: number[], notWhole = false): void {
  const k = words.length;
  const head = ids.slice(0, k - 1);
  if (head.includes(-1)) return;
  const last = words[k - 1];
  const [first, hi] = ix.vocab.prefixRange(last);
  // The word itself sorts first among the words it begins; with `notWhole` it does not count, and the
  // marks holding it (TASTE OF: 38,000 for TASTEOF) are not even candidates.
  const lo = notWhole && first < hi && ix.vocab.words[first] === last ? first + 1 : first;
  if (lo === hi) return;
  // Two words: the head's pairs whose next word is in the range and that begin the mark.
  if (k === 2) {
    ix.takePairs(head[0], lo, hi, PAIR_STARTS);
    return;
  }
  // The range's postings are one block: a bitmap of it may spare looking at most candidates' words.
  const cands = collect(ix, ix.first, head[0], ix.sets.range(lo, hi), 2);
  const { n, marks, lengths, infos, bounds, words: cw } = cands;
  for (let c = 0; c < n; c++) {
    const at = bounds[2 * c];
    if (bounds[2 * c + 1] - at < k || !runAt(cw, at, head)) continue;
    const wk = cw[at + k - 1];
    if (wk >= lo && wk < hi) ix.takeKnown(marks[c], 0, lengths[c], infos[c]);
  }
}

/** RISE FOODS → SUNRISE FOODS: the first query word ends a word of the mark, the rest are its last words. */
function suffix(ix: MarkIndex, words: string[], ids: number[]): void {
  const v = ix.vocab;
  const k = words.length;
  const tail = ids.slice(1);
  if (tail.includes(-1)) return;
  const lastId = ids[k - 1];
  const ends = v.withSuffix(words[0]);
  // Two words: the pairs of each word with the ending that end the mark with the last query word,
  // unless there are so many such words that reading the marks ending with it costs less.
  if (k === 2 && ends.length * PAIR_LOOKUP <= ix.d.lastOffsets[lastId + 1] - ix.d.lastOffsets[lastId]) {
    for (let i = 0; i < ends.length; i++) ix.takePairs(ends[i], lastId, lastId + 1, PAIR_ENDS);
    return;
  }
  const cands = collect(ix, ix.last, lastId, ix.sets.anyOf(`ending ${words[0]}`, ends), 3);
  const { n, marks, lengths, infos, bounds, words: cw } = cands;
  const ending = ix.wordSet(ends);
  for (let c = 0; c < n; c++) {
    const end = bounds[2 * c + 1];
    if (end - bounds[2 * c] < k || !runAt(cw, end - k + 1, tail)) continue;
    if (ending.set.has(cw[end - k])) ix.takeKnown(marks[c], 0, lengths[c], infos[c]);
  }
  ending.done();
}

/** SE FO in SUNRISE FOODS: the first query word ends a word of the mark, middle words follow whole, the last begins one. */
function crossing(ix: MarkIndex, words: string[], ids: number[]): void {
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
  if (k === 2 && ends.length * PAIR_LOOKUP <= Math.min(d.postOffsets[hi] - d.postOffsets[lo], ends.reduce((n, w) => n + ix.postings(w), 0))) {
    for (let i = 0; i < ends.length; i++) ix.takePairs(ends[i], lo, hi, 0);
    return;
  }
  // Candidates hold a word with the ending and one with the beginning. Either side's bitmap is poured
  // only when that costs less than reading the words of the candidates it would rule out (S as the
  // last word begins a fifth of all words: 1.3 million postings).
  const sides = { ends: ix.sets.anyOf(`ending ${words[0]}`, ends), starts: ix.sets.range(lo, hi) };
  const seen = ix.seen;
  const cands = candidates;
  const { postMarks, postInfo, postOffsets } = d;
  if (middle.length) {
    // Candidates: the postings of the rarest middle word, in the bitmap of the cheaper side (and of
    // the other when worth it).
    const rarest = middle.reduce((x, y) => (ix.postings(x) <= ix.postings(y) ? x : y));
    const [cheap, dear] = sides.ends.cost <= sides.starts.cost ? [sides.ends, sides.starts] : [sides.starts, sides.ends];
    let a = ix.sets.kept(cheap, 4);
    if (dear.cost < HOLDING * ix.postings(rarest)) {
      const both = ix.bitmap(6);
      both.or(a);
      both.and(ix.sets.kept(dear, 5));
      a = both;
    }
    cands.reset(ix.postings(rarest));
    for (let p = postOffsets[rarest]; p < postOffsets[rarest + 1]; p++) {
      const m = postMarks[p];
      if (a.has(m) && !seen.has(m) && ix.passes(m, postInfo[p])) cands.push(m, 0, 0);
    }
  } else {
    // Two words: the postings of the side with fewer are read (a prefix's are one block), each mark
    // once, looked up in the other side's bitmap when that is worth pouring.
    const endPostings = ends.reduce((n, w) => n + ix.postings(w), 0);
    const startPostings = postOffsets[hi] - postOffsets[lo];
    const viaStarts = startPostings <= endPostings;
    const other = viaStarts ? sides.ends : sides.starts;
    const read = Math.min(startPostings, endPostings);
    const holding = other.cost < HOLDING * read ? ix.sets.kept(other, 5) : null;
    const visited = ix.bitmap(6);
    cands.reset(read);
    const take = (from: number, to: number) => {
      for (let p = from; p < to; p++) {
        const m = postMarks[p];
        if (seen.has(m) || visited.has(m) || (holding && !holding.has(m)) || !ix.passes(m, postInfo[p])) continue;
        visited.add(m);
        cands.push(m, 0, 0);
      }
    };
    if (viaStarts) take(postOffsets[lo], postOffsets[hi]);
    else for (const w of ends) take(postOffsets[w], postOffsets[w + 1]);
  }
  cands.gather(d);
  const { n, marks, bounds, words: cw } = cands;
  const ending = ix.wordSet(ends);
  for (let c = 0; c < n; c++) {
    const start = bounds[2 * c];
    const count = bounds[2 * c + 1] - start;
    for (let at = 0; at + k <= count; at++) {
      if (!ending.set.has(cw[start + at]) || !runAt(cw, start + at + 1, middle)) continue;
      const lastWord = cw[start + at + k - 1];
      if (lastWord >= lo && lastWord < hi) {
        ix.takeOne(marks[c], 0);
        break;
      }
    }
  }
  ending.done();
}
