import { TRADE_WORDS } from '../threats/descriptive.ts';
import type { Bitset } from './bitset.ts';
import { splits } from './compounds.ts';
import { boundedDistance } from './editDistance.ts';
import type { MarkIndex } from './markIndex.ts';
import { type CoreWord, readCore, usefulSplits } from './partialCore.ts';
import type { Related } from './related.ts';
import type { SearchScratch } from './scratch.ts';
import { leadingArticles, STOP_WORDS } from './stopWords.ts';
import { PARTIAL_STEPS } from './strategies.ts';
import type { TextList } from './textList.ts';

// Marks sharing only some of a multi-word query's words (docs/search.md, "Partial matches"). A lawyer
// clearing SUNRISE FOODS must see SUNRISE OIL and STAR SUNRISE SWEETS: a query word with no counterpart
// lowers a mark's place, it does not remove the mark. Each query word weighs by how rare it is in the
// register (THE, OF, AND weigh little), and a mark is placed by the share of the query's weight it
// holds: a word as spelled, a variant or a sound-alike of it, or the word joined with its neighbour or
// split in two (SUNRISE FOODS ⇄ SUNRISEFOODS, at any position, in marks of any length).
//
// Candidates are the marks holding a distinctive query word (or a join or split of one): a word that
// describes goods or a business in some trade (FOODS, PICKLES, DIAGNOSTICS: src/threats/descriptive.ts)
// or that a few thousandths of the register hold finds nothing on its own, though it still counts in
// the share of a mark found by another word. A short word (2-3 letters) has no spelling variants of its
// own: beside one, the trade words anchor too, so HTM WATCHES finds HMT WATCHES through WATCHES.

const STOP_WEIGHT = 0.3;
/** A word held by more than this share of the register (or ANCHOR_MIN marks) finds no candidates alone. */
const ANCHOR_SHARE = 0.003;
const ANCHOR_MIN = 256;
/** At most this many postings are read for candidates, cheapest units first. */
const BUDGET_SHARE = 0.01;
const BUDGET_MIN = 4096;
/** Splits of one query word tried, the ones with the longest parts first. */
const MAX_SPLITS = 6;
/**
 * How much of a word's weight a mark keeps that holds it other than as spelled: a spelling variant
 * 0.85 less 0.05 an edit, a sound-alike 0.75 less 0.1 an edit (so OOSHA keeps more of USHA than ES),
 * a join or split 0.9, a short word one letter off 0.6.
 */
function keepOf(level: number, dist: number): number {
  const edits = dist >> 1;
  return level === 0 ? 1 : Math.max(0.2, level === 1 ? 0.85 - 0.05 * edits : 0.75 - 0.1 * edits);
}
const KEEP_JOINED = 0.9;
const KEEP_NEAR = 0.6;
const LEVEL_JOINED = 3;
const LEVEL_NEAR = 4;
/** A role's level for a part of a split query word (not a level a word is kept at). */
const LEVEL_PART = 5;
const NONE = 15;

/**
 * Where the partial candidates go: every query word found, some only joined or split (compounds); every
 * word but connecting ones found as spelled (THE ELEGOO: ELEGOO, an all_words match); the rest.
 */
export const COMPOUND_BUCKET = 0;
export const ALL_WORDS_BUCKET = 1;
export const PARTIAL_BUCKET = 2;

interface Unit {
  /** How many marks hold the word itself (its rarest relative, when the query word is not in the register). */
  df: number;
  /** Postings that would be read for candidates (the word's relatives too). */
  cost: number;
  /** Word ids whose postings are the candidates. */
  read: number[];
  /**
   * The weight a mark holding read[j] holds for that alone, or null where holding it proves nothing
   * alone (a part of a split word): what a candidate past MarkIndex.partialClassify is placed by.
   */
  alone: number[] | null;
  /** Whether it may find candidates (a stop word never does). */
  anchor: boolean;
  /** Whether read[0] is the query word as spelled: what a unit too costly to read whole still reads. */
  own: boolean;
}

/** The weight of each query word: ln of how many marks there are per mark holding it; stop words little. */
function weights(ix: MarkIndex, words: string[], ids: number[], rel: readonly Related[][], trade: ReadonlySet<string>): number[] {
  const n = ix.n + 1;
  return words.map((w, i) => (minor(w, trade) ? STOP_WEIGHT : Math.max(0.5, Math.log(n / (holders(ix, ids[i], rel[i]) + 1)))));
}

/** A connecting word, or one that describes the trade: it weighs little and finds no candidates alone. */
const minor = (w: string, trade: ReadonlySet<string>) => STOP_WORDS.has(w) || trade.has(w);

/** How many marks hold the query word, or its rarest relative when the register does not hold it. */
function holders(ix: MarkIndex, id: number, rel: readonly Related[]): number {
  if (id >= 0) return ix.postings(id);
  let df = 0;
  for (const r of rel) df = df === 0 ? ix.postings(r.id) : Math.min(df, ix.postings(r.id));
  return df;
}

/**
 * Sorts the marks holding some but not all of the query's words (as classify in multiWord.ts sees
 * them) into the scratch's partial buckets: every word accounted for only with joins or splits, or the
 * share of weight missed, 0-PARTIAL_STEPS, as the distance.
 */
export function partialMatches(
  ix: MarkIndex,
  s: SearchScratch,
  words: string[],
  ids: number[],
  rel: readonly Related[][],
  classified: Bitset | null,
): void {
  const out = s.partials;
  out.reset();
  s.partialWords.length = 0;
  const k = words.length;
  if (k < 2 || k > 64) return;
  const v = ix.vocab;
  const d = ix.d;
  const trade = TRADE_WORDS;
  const w = weights(ix, words, ids, rel, trade);
  const total = w.reduce((a, b) => a + b, 0);
  const anchorMax = Math.max(ANCHOR_MIN, ix.n * ANCHOR_SHARE);
  const units: Unit[] = [];

  // Roles: word id → what it is to the query, packed (extra << 16 | query word << 8 | level << 4 | dist),
  // chained through the scratch's role arrays as classify does.
  const roles: [number, number][] = [];
  const short = words.map((x) => x.length >= 2 && x.length <= 3 && !minor(x, trade));
  const tradeAnchors = short.some(Boolean);
  rel.forEach((rs, i) => {
    for (const r of rs) roles.push([r.id, (i << 8) | (r.level << 4) | Math.min(r.dist, 15)]);
    // A word of three letters or fewer finds candidates as spelled only: its sound-alikes are a
    // thousand other short words (GOO: GAOO, GHOO, GO…), though a mark holding one still counts.
    const finds = words[i].length <= 3 ? rs.filter((r) => r.level === 0) : rs;
    units.push({
      df: holders(ix, ids[i], rs),
      cost: finds.reduce((c, r) => c + ix.postings(r.id), 0),
      read: finds.map((r) => r.id),
      alone: finds.map((r) => w[i] * keepOf(r.level, r.dist)),
      anchor: !STOP_WORDS.has(words[i]) && (tradeAnchors || !trade.has(words[i])),
      own: finds[0]?.level === 0,
    });
  });
  const joinsOf: number[][] = words.map(() => []);
  const splitsOf: number[][][] = words.map(() => []);
  // Two or three neighbouring words joined: SUNRISE FOODS in SUNRISEFOODS INDIA.
  for (let i = 0; i + 1 < k; i++) {
    for (let span = 2; span <= 3 && i + span <= k; span++) {
      const id = v.id(words.slice(i, i + span).join(''));
      if (id < 0) continue;
      roles.push([id, (span << 16) | (i << 8) | (LEVEL_JOINED << 4)]);
      for (let j = i; j < i + span; j++) joinsOf[j].push(id);
      const joined = w.slice(i, i + span).reduce((a, b) => a + b, 0) * KEEP_JOINED;
      units.push({ df: ix.postings(id), cost: ix.postings(id), read: [id], alone: [joined], anchor: true, own: true });
    }
  }
  // A word split in two or three: SUNRISEFOODS in SUNRISE FOODS INDIA. Split j of word i holds parts 0..2.
  const splitOf: number[] = [];
  const splitParts: number[] = [];
  words.forEach((word, i) => {
    // NO1 splits as NO 1 however short: a number beside letters is written both ways.
    if (word.length < 4 && !/\d/.test(word)) return;
    const cuts = splits(v, word, [word])
      .sort((a, b) => Math.min(...b.map((x) => v.words.lengthOf(x))) - Math.min(...a.map((x) => v.words.lengthOf(x))))
      .slice(0, MAX_SPLITS);
    for (const parts of cuts) {
      const j = splitOf.length;
      if (j >= 32) break;
      splitOf.push(i);
      splitParts.push(parts.length);
      splitsOf[i].push(parts);
      parts.forEach((part, at) => roles.push([part, (j << 16) | (i << 8) | (LEVEL_PART << 4) | at]));
      const rarest = parts.reduce((a, b) => (ix.postings(a) <= ix.postings(b) ? a : b));
      units.push({ df: ix.postings(rarest), cost: ix.postings(rarest), read: [rarest], alone: null, anchor: true, own: true });
    }
  });

  // Candidates: the postings of the anchoring units, cheapest first, within the budget.
  const budget = Math.max(BUDGET_MIN, ix.n * BUDGET_SHARE);
  const usable = units.filter((u) => u.cost > 0).sort((a, b) => a.cost - b.cost || a.df - b.df);
  const chosen = usable.filter((u) => u.anchor && u.df <= anchorMax);
  // No word anchors: the cheapest words that are not connecting ones still find candidates, within the budget.
  if (!chosen.length) chosen.push(...usable.filter((u) => u.anchor));
  if (!chosen.length && usable.length) chosen.push(usable[0]);
  let spent = 0;
  const visited = s.bitmap(3);
  const cands = s.candidates;
  const { postMarks, postLen, postInfo, postOffsets } = d;
  cands.reset(
    ix.partialClassify +
      Math.min(
        budget,
        chosen.reduce((c, u) => c + u.cost, 0),
      ),
  );
  // First the marks holding every word but the connecting ones, then every distinctive one (src/search/partialCore.ts).
  const forms: CoreWord[] = words.map((word, i) => ({
    word,
    rel: rel[i],
    joins: joinsOf[i],
    splits: splitsOf[i],
    useful: usefulSplits(ix, splitsOf[i]),
  }));
  const core = (skip: (w: string) => boolean) => forms.filter((f) => !skip(f.word) && (f.rel.length || f.joins.length || f.splits.length));
  let last = '';
  for (const c of [core((x) => STOP_WORDS.has(x)), core((x) => minor(x, trade))]) {
    const key = c.map((f) => f.word).join(' ');
    if (key === last || (c.length === k && c.every((f) => !f.joins.length && !f.useful.length))) continue;
    last = key;
    readCore(ix, s, c, classified, visited, ix.partialClassify);
  }
  const later = s.partialWords;
  const pour = (id: number) => {
    for (let p = postOffsets[id]; p < postOffsets[id + 1]; p++) {
      const m = postMarks[p];
      if (visited.has(m) || classified?.has(m) || !s.passes(m, postInfo[p])) continue;
      visited.add(m);
      cands.push(m, postLen[p], postInfo[p]);
    }
  };
  // First each query word as spelled, rarest first, while it fits the room to classify: read unit by
  // unit, a word's sound-alikes or another word's split parts filled that room before it, and THE
  // MAAGHEE placed the 13 marks of MAAGHEE by that word alone, behind GHEE's 14,793 holders (MAA GHEE).
  const early = new Set<Unit>();
  for (const u of [...chosen].sort((a, b) => a.df - b.df)) {
    const n = ix.postings(u.read[0]);
    if (!u.own || cands.n + n > ix.partialClassify || spent + n > budget) continue;
    pour(u.read[0]);
    spent += n;
    early.add(u);
  }
  for (const u of chosen) {
    const done = early.has(u) ? ix.postings(u.read[0]) : 0;
    // A unit too costly to read whole still reads the word as spelled when that fits: THE TRAE found no
    // TRAE, its sound-alikes (DR, TARA, DAIRY: 135,000 postings) being over budget.
    const whole = spent + u.cost - done <= budget;
    if (!whole && (early.has(u) || !(u.own && spent + ix.postings(u.read[0]) <= budget))) continue;
    const reads = whole ? u.read.length : 1;
    spent += whole ? u.cost - done : ix.postings(u.read[0]);
    // The word itself and its closest variants come first in a unit: they are classified while there is
    // room; the others are admitted after the classified ones, straight from their postings (a mark
    // already found stays as found).
    for (let j = early.has(u) ? 1 : 0; j < reads; j++) {
      const id = u.read[j];
      if (cands.n + ix.postings(id) > ix.partialClassify && u.alone !== null) {
        later.push(id, Math.min(PARTIAL_STEPS, Math.round((1 - u.alone[j] / total) * PARTIAL_STEPS)));
        continue;
      }
      pour(id);
    }
  }
  if (cands.n === 0) return;
  cands.gather(d);
  classifyPartial(ix, s, { words, w, total, roles, splitOf, splitParts, short, ids });
}

interface Plan {
  words: string[];
  w: number[];
  total: number;
  roles: [number, number][];
  splitOf: number[];
  splitParts: number[];
  /** Which query words are short (2-3 letters, not minor): one letter off counts for them. */
  short: boolean[];
  ids: number[];
}

function classifyPartial(ix: MarkIndex, s: SearchScratch, p: Plan): void {
  const { words, w, total, roles, splitOf, splitParts, short } = p;
  const connecting = words.map((x) => STOP_WORDS.has(x));
  const ownIds = p.ids.filter((_, i) => !connecting[i]);
  // The query but its leading articles: THE HOUSE OF ROYAL is HOUSE OF ROYAL before HOUSE ROYAL.
  const afterArticles = p.ids.slice(leadingArticles(words));
  const k = words.length;
  const out = s.partials;
  const vw = ix.vocab.words;
  const { head, has, packed, next } = s.roleScratch(roles.length);
  roles.forEach(([id, x], e) => {
    packed[e] = x;
    next[e] = head[id];
    head[id] = e;
    has.add(id);
  });
  const hasWords = has.words;
  const level = new Uint8Array(k);
  const keep = new Float64Array(k);
  // Words the mark holds joined or split, whatever else they also match: SER joined in SERVICES is held
  // though SHREE, elsewhere in the mark, is also a sound-alike of SER.
  const joined = new Uint8Array(k);
  const seenParts = new Uint8Array(splitOf.length);
  // Short query words have no spelling variants of their own; in a mark another word found, one letter
  // off counts (BIH BAZAAR: BIG BAZAAR).
  const { n, marks, lengths, infos, bounds, words: cw } = s.candidates;
  for (let c = 0; c < n; c++) {
    for (let i = 0; i < k; i++) {
      level[i] = NONE;
      keep[i] = 0;
      joined[i] = 0;
    }
    for (let j = 0; j < seenParts.length; j++) seenParts[j] = 0;
    const from = bounds[2 * c];
    const to = bounds[2 * c + 1];
    for (let q = from; q < to; q++) {
      const id = cw[q];
      if ((hasWords[id >>> 5] & (1 << (id & 31))) === 0) continue;
      for (let e = head[id]; e >= 0; e = next[e]) {
        const x = packed[e];
        const lv = (x >>> 4) & 15;
        const i = (x >>> 8) & 255;
        if (lv <= 2) {
          if (lv < level[i]) level[i] = lv;
          const kept = keepOf(lv, x & 15);
          if (kept > keep[i]) keep[i] = kept;
        } else if (lv === LEVEL_JOINED) {
          for (let j = i; j < i + (x >>> 16); j++) {
            joined[j] = 1;
            if (level[j] > LEVEL_JOINED) level[j] = LEVEL_JOINED;
            if (keep[j] < KEEP_JOINED) keep[j] = KEEP_JOINED;
          }
        } else {
          seenParts[x >>> 16] |= 1 << (x & 15);
        }
      }
    }
    for (let j = 0; j < splitOf.length; j++) {
      if (seenParts[j] !== (1 << splitParts[j]) - 1) continue;
      const i = splitOf[j];
      joined[i] = 1;
      if (level[i] > LEVEL_JOINED) level[i] = LEVEL_JOINED;
      if (keep[i] < KEEP_JOINED) keep[i] = KEEP_JOINED;
    }
    let plain = true;
    let all = true;
    let compound = true;
    let allButConnecting = true;
    let shared = 0;
    for (let i = 0; i < k; i++) {
      if (level[i] === NONE && short[i] && nearWord(words[i], vw, cw, from, to)) {
        level[i] = LEVEL_NEAR;
        keep[i] = KEEP_NEAR;
      }
      const l = level[i];
      if (l === NONE) all = false;
      if (l > 2) plain = false;
      if (l !== 0 && !joined[i]) compound = false;
      if (l !== 0 && !(l === NONE && connecting[i])) allButConnecting = false;
      shared += w[i] * keep[i];
    }
    // Every word as spelled, a variant or a sound-alike: multiWord's own classification has it.
    if (plain || shared === 0) continue;
    if (all && compound) {
      out.push(COMPOUND_BUCKET, marks[c], 0, lengths[c], infos[c]);
      continue;
    }
    if (allButConnecting) {
      // The query's words after its articles, in its order and nothing else (THE GANGA TECH: GANGA TECH), then
      // its other words so (connecting ones left out), before another order.
      const dist = sameRun(cw, from, to, afterArticles) ? 0 : sameRun(cw, from, to, ownIds) ? 1 : 2;
      out.push(ALL_WORDS_BUCKET, marks[c], dist, lengths[c], infos[c]);
      continue;
    }
    const missed = 1 - shared / total;
    out.push(PARTIAL_BUCKET, marks[c], Math.min(PARTIAL_STEPS, Math.round(missed * PARTIAL_STEPS)), lengths[c], infos[c]);
  }
  for (const [id] of roles) {
    head[id] = -1;
    has.remove(id);
  }
}

/** Whether a word of the mark (cw[from, to)) is one edit from the short query word `x`. */
function nearWord(x: string, vw: TextList, cw: Uint32Array, from: number, to: number): boolean {
  for (let q = from; q < to; q++) {
    const n = vw.lengthOf(cw[q]);
    if (Math.abs(n - x.length) <= 1 && n >= 2 && boundedDistance(x, vw.at(cw[q]), 1) <= 1) return true;
  }
  return false;
}

/** Admits the partial matches: the classified ones, then the marks of the words read past MarkIndex.partialClassify. */
export function admitPartial(ix: MarkIndex, s: SearchScratch): void {
  s.partials.admit(PARTIAL_BUCKET, s);
  const later = s.partialWords;
  for (let i = 0; i < later.length; i += 2) s.takeWord(ix.post, later[i], later[i + 1]);
}

/** Whether the words cw[from, to) are exactly `ids`, in order. */
function sameRun(cw: Uint32Array, from: number, to: number, ids: number[]): boolean {
  if (to - from !== ids.length) return false;
  for (let j = 0; j < ids.length; j++) if (cw[from + j] !== ids[j]) return false;
  return true;
}
