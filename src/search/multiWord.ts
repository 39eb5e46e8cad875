import type { MarkIndex } from './markIndex.ts';
import type { PreparedQuery } from './query.ts';
import { related, type Related } from './related.ts';
import { splits } from './compounds.ts';
import { admitRuns } from './singleWord.ts';
import {
  S_ALL_WORDS, S_COMPOUND, S_EXACT, S_PHONETIC, S_PREFIX, S_SPELLING, S_SUBSTRING, S_SUBSTRING_CROSS, S_SUFFIX, S_WORD,
} from './strategies.ts';
import { maxEdits } from './normalise.ts';

const NONE = 9;

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
  const found: { m: number; dist: number }[][] = [[], [], [], [], [], []]; // exact, prefix, word, any order, spelling, phonetic
  const rel = words.map((w) => related(v, w, true));
  if (rel.every((r) => r.length)) classify(ix, rel, ids, found);

  for (const x of found[0]) ix.takeOne(x.m, 0);
  ix.close(S_EXACT);
  for (const x of found[1]) ix.takeOne(x.m, 0);
  typingLastWord(ix, words, ids);
  ix.close(S_PREFIX);
  for (const x of found[2]) ix.takeOne(x.m, 0);
  ix.close(S_WORD);
  const joined = v.id(q.compact);
  if (joined >= 0) ix.takeWord(ix.post, joined, 0);
  for (const parts of splits(v, q.compact, words)) admitRuns(ix, parts);
  ix.close(S_COMPOUND);
  for (const x of found[3]) ix.takeOne(x.m, 0);
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
  const runs = q.compact.length >= 4 ? ix.soundRuns(q.compact) : [];
  const max = maxEdits(q.compact.length);
  for (const x of found[4]) ix.takeOne(x.m, x.dist);
  for (const r of whole) if (r.level === 1) ix.takeWord(ix.post, r.id, r.dist);
  for (const r of runs) if (r.spelled <= max) ix.takeOne(r.m, 2 * r.spelled);
  ix.close(S_SPELLING);
  for (const x of found[5]) ix.takeOne(x.m, x.dist);
  for (const r of whole) if (r.level === 2) ix.takeWord(ix.post, r.id, r.dist);
  for (const r of runs) if (r.spelled > max) ix.takeOne(r.m, 2 * r.sounded);
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

function classify(ix: MarkIndex, rel: Related[][], ids: number[], found: { m: number; dist: number }[][]): void {
  const d = ix.d;
  const k = rel.length;
  const cand = ix.bitmap(0);
  rel.forEach((rs, i) => {
    const b = i === 0 ? cand : ix.bitmap(1);
    for (const r of rs) b.addAll(d.postMarks, d.postOffsets[r.id], d.postOffsets[r.id + 1]);
    if (i > 0) cand.and(b);
  });
  // Word id → what it is to each query word, packed as (query word << 8 | level << 4 | distance), in
  // chains through the index's scratch arrays (a Map lookup per word of every candidate costs more
  // than the rest of the classification).
  const { head, packed, next } = ix.roleScratch(rel.reduce((n, rs) => n + rs.length, 0));
  let used = 0;
  rel.forEach((rs, i) => {
    for (const r of rs) {
      packed[used] = (i << 8) | (r.level << 4) | Math.min(r.dist, 15);
      next[used] = head[r.id];
      head[r.id] = used++;
    }
  });
  const level = new Uint8Array(k);
  const dist = new Uint8Array(k);
  cand.forEach((m) => {
    level.fill(NONE);
    dist.fill(0);
    for (let p = d.wordOffsets[m]; p < d.wordOffsets[m + 1]; p++) {
      for (let e = head[d.markWords[p]]; e >= 0; e = next[e]) {
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
    if (worst === NONE) return;
    if (worst === 0) {
      const at = ix.findSequence(m, ids);
      found[at === 0 ? (ix.wordCount(m) === k ? 0 : 1) : at > 0 ? 2 : 3].push({ m, dist: 0 });
    } else {
      found[worst === 1 ? 4 : 5].push({ m, dist: sum });
    }
  });
  for (const rs of rel) for (const r of rs) head[r.id] = -1;
}

/**
 * SUNRISE FO → SUNRISE FOODS: every word but the last is whole, the last begins the mark's next word
 * (and, with `notWhole`, is not all of it: a whole word there makes a compound).
 */
export function typingLastWord(ix: MarkIndex, words: string[], ids: number[], notWhole = false): void {
  const d = ix.d;
  const k = words.length;
  const head = ids.slice(0, k - 1);
  if (head.includes(-1)) return;
  const [lo, hi] = ix.vocab.prefixRange(words[k - 1]);
  if (lo === hi) return;
  const first = [d.firstOffsets[head[0]], d.firstOffsets[head[0] + 1]];
  // The range's postings are one block: a bitmap of it spares looking at most candidates' words.
  let holding = null;
  if (d.postOffsets[hi] - d.postOffsets[lo] < 8 * (first[1] - first[0])) {
    holding = ix.bitmap(2);
    holding.addAll(d.postMarks, d.postOffsets[lo], d.postOffsets[hi]);
  }
  for (let p = first[0]; p < first[1]; p++) {
    const m = d.firstMarks[p];
    if ((holding && !holding.has(m)) || ix.seen.has(m) || ix.wordCount(m) < k || !ix.sequenceAt(m, head, 0, false)) continue;
    const wk = d.markWords[d.wordOffsets[m] + k - 1];
    if (wk >= lo && wk < hi && !(notWhole && ix.vocab.words[wk] === words[k - 1])) ix.takeOne(m, 0);
  }
}

/** RISE FOODS → SUNRISE FOODS: the first query word ends a word of the mark, the rest are its last words. */
function suffix(ix: MarkIndex, words: string[], ids: number[]): void {
  const d = ix.d;
  const v = ix.vocab;
  const k = words.length;
  const tail = ids.slice(1);
  if (tail.includes(-1)) return;
  const lastId = ids[k - 1];
  const ends = v.withSuffix(words[0]);
  let endCost = 0;
  for (const w of ends) endCost += d.postOffsets[w + 1] - d.postOffsets[w];
  let holding = null;
  if (endCost < 8 * (d.lastOffsets[lastId + 1] - d.lastOffsets[lastId])) {
    holding = ix.bitmap(3);
    for (const w of ends) holding.addAll(d.postMarks, d.postOffsets[w], d.postOffsets[w + 1]);
  }
  for (let p = d.lastOffsets[lastId]; p < d.lastOffsets[lastId + 1]; p++) {
    const m = d.lastMarks[p];
    const count = ix.wordCount(m);
    if ((holding && !holding.has(m)) || ix.seen.has(m) || count < k || !ix.sequenceAt(m, tail, count - k + 1, true)) continue;
    if (v.words[d.markWords[d.wordOffsets[m] + count - k]].endsWith(words[0])) ix.takeOne(m, 0);
  }
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
  const a = ix.bitmap(4);
  for (const w of ends) a.addAll(d.postMarks, d.postOffsets[w], d.postOffsets[w + 1]);
  const b = ix.bitmap(5);
  b.addAll(d.postMarks, d.postOffsets[lo], d.postOffsets[hi]);
  a.and(b);
  const check = (m: number) => {
    if (ix.seen.has(m)) return;
    const start = d.wordOffsets[m];
    const count = ix.wordCount(m);
    for (let at = 0; at + k <= count; at++) {
      if (!v.words[d.markWords[start + at]].endsWith(words[0]) || !ix.sequenceAt(m, middle, at + 1, false)) continue;
      const lastWord = d.markWords[start + at + k - 1];
      if (lastWord >= lo && lastWord < hi) {
        ix.takeOne(m, 0);
        return;
      }
    }
  };
  if (middle.length) {
    const rarest = middle.reduce((x, y) => (d.postOffsets[x + 1] - d.postOffsets[x] <= d.postOffsets[y + 1] - d.postOffsets[y] ? x : y));
    for (let p = d.postOffsets[rarest]; p < d.postOffsets[rarest + 1]; p++) if (a.has(d.postMarks[p])) check(d.postMarks[p]);
  } else {
    a.forEach(check);
  }
}
