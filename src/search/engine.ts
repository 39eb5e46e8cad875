import { IndexBuilder, type MarkRow, type Skipped } from './build.ts';
import type { MarkIndex } from './markIndex.ts';
import { LiveIndex } from './liveIndex.ts';
import type { PreparedQuery } from './query.ts';
import type { Change } from './source.ts';
import type { SummaryRow } from '../trademarks/repository.ts';
import type { IndexView, RegisterView } from './view.ts';
import { FACETS, type After, type Facet, type Filter, type IndexHit, type IndexResult } from './types.ts';

// The searchable register of one process: the index as built (or loaded from its snapshot) plus a
// small index of the marks changed since, rebuilt on every change. A changed mark is hidden in the
// base index and lives in the small one, so every mark is in exactly one of them; results of both are
// merged in the same order. When the small one grows past REBUILD_AT marks, a full rebuild is due.
//
// apply() and replace() are the change feed's writers, the only ones; they run between searches
// (everything here is synchronous), so a search, and the summaries read in its turn of the event
// loop, see the register either before a batch of changes or after it.

export const REBUILD_AT = 200_000;

/**
 * How holdersBy ranks the holders of a word against a mark: standing × the weighted share of words
 * the two hold alike, (Σ over the holder's words the mark also holds of both weights) / (the mark's
 * total weight + the holder's).
 */
export interface HolderRanking {
  /** The mark's words and their weights, and the sum of those weights. */
  words: Map<string, number>;
  total: number;
  /** The weight of a holder's word that `holders` marks hold in every class (read per word of every holder, it must be cheap). */
  weight(word: string, holders: number): number;
  /** The mark's filing day (days since 1970): holders filed after it are `later`. */
  day: number;
  standing(cls: number, status: string, later: boolean): number;
}

export class SearchEngine implements RegisterView {
  private base: LiveIndex;
  private delta: LiveIndex | null = null;
  private changed = new Map<number, MarkRow | null>();

  /** `seq`: the change-feed position the register reflects; the same in every process at the same data, so it keys the result cache. */
  constructor(base: MarkIndex, public seq: number) {
    this.base = new LiveIndex(base);
  }

  get size(): number {
    return this.base.live + (this.delta?.index.n ?? 0);
  }

  get pending(): number {
    return this.changed.size;
  }

  /**
   * Applies changes from the feed (in feed order); the newest state of each mark wins. Returns the changed
   * marks the index left out (src/search/build.ts: MARK_MAX), which are then in neither index. Nothing
   * changes when it throws.
   */
  apply(changes: Change[], seq: number): Skipped[] {
    if (!changes.length) {
      this.seq = Math.max(this.seq, seq);
      return [];
    }
    const changed = new Map(this.changed);
    for (const c of changes) changed.set(c.appNo, c.row);
    const b = new IndexBuilder(changed.size);
    for (const row of changed.values()) if (row) b.add(row);
    const delta = b.size ? new LiveIndex(b.finish()) : null;
    for (const c of changes) this.base.hide(c.appNo);
    this.changed = changed;
    this.delta = delta;
    this.seq = Math.max(this.seq, seq);
    // Marks left out by an earlier batch are left out again by every rebuild: only this batch's are news.
    const mine = new Set(changes.map((c) => c.appNo));
    return b.skipped.filter((x) => mine.has(x.appNo));
  }

  /** Replaces everything with a freshly built index (which already includes every change up to its seq). */
  replace(base: LiveIndex, seq: number, later: Change[]): Skipped[] {
    this.base = base;
    this.changed.clear();
    this.delta = null;
    this.seq = seq;
    return this.apply(later, seq);
  }

  /** Makes the base index's ready answers (src/search/liveIndex.ts); returns how many. */
  prepare(): Promise<number> {
    return this.base.prepare();
  }

  search(q: PreparedQuery, filter: Filter, want: number, after: After | null): IndexResult {
    const a = this.base.search(q, filter, want, after);
    if (!this.delta) return a;
    const b = this.delta.search(q, filter, want, after);
    for (const h of b.hits) h.delta = true;
    const groups = {} as Record<Facet, Map<string, number>>;
    for (const f of FACETS) {
      const m = new Map(a.groups[f]);
      for (const [k, n] of b.groups[f]) m.set(k, (m.get(k) ?? 0) + n);
      groups[f] = m;
    }
    return { count: a.count + b.count, groups, hits: mergeHits(a.hits, b.hits, want) };
  }

  /**
   * The summaries of hits this engine just returned (call it before the engine can change: in the same
   * turn of the event loop as the search).
   */
  summaries(hits: IndexHit[]): SummaryRow[] {
    return hits.map((h) => (h.delta ? this.delta! : this.base).index.summaries.row(h.id));
  }

  /** The mark's current normalised text, or null when the register has no words for it. */
  text(appNo: number): string | null {
    if (this.changed.has(appNo)) {
      const id = this.delta?.index.idOf(appNo) ?? -1;
      return id >= 0 ? this.delta!.index.text(id) : null;
    }
    const id = this.base.index.idOf(appNo);
    return id >= 0 && this.base.isLive(id) ? this.base.index.text(id) : null;
  }

  /**
   * How many marks hold the word (the register's base index and its recent changes), counting only
   * marks of the classes flagged in `classes` when given (a word common in one trade is descriptive there).
   */
  holders(word: string, classes: Uint8Array | null = null): number {
    let n = 0;
    for (const ix of this.indexes) {
      const id = ix.vocab.id(word);
      if (id < 0) continue;
      if (!classes) {
        n += ix.postings(id);
        continue;
      }
      const byClass = classHolders(ix, id);
      for (let c = 0; c < 64; c++) if (classes[c]) n += byClass[c];
    }
    return n;
  }

  /** Every status label some mark has. */
  statuses(): string[] {
    return [...new Set(this.indexes.flatMap((ix) => ix.d.dict.status.filter((s) => s !== '')))];
  }

  /** The base index, then the index of recent changes if there is one. */
  get indexes(): MarkIndex[] {
    return this.delta ? [this.base.index, this.delta.index] : [this.base.index];
  }

  get views(): IndexView[] {
    return this.delta ? [this.base.view, this.delta.view] : [this.base.view];
  }

  /**
   * The `max` marks holding `word` in the flagged classes that share most with a mark, by
   * `HolderRanking`, ties to the earlier application, leaving out those `skip` names; none when more than
   * `limit` marks of those classes hold it. Search orders a word's holders by how they hold it and by
   * length, which says nothing of how much else they say. Word weights and standings are looked up once
   * per word id and per class, status and filing order: a common word's holders are read by the
   * ten thousand.
   */
  holdersBy(word: string, classes: Uint8Array, max: number, limit: number, by: HolderRanking, skip: Set<number>): IndexHit[] {
    if (max <= 0 || this.holders(word, classes) > limit) return [];
    const best: { hit: IndexHit; r: number }[] = [];
    const views = this.views;
    for (let at = 0; at < views.length; at++) {
      const ix = views[at];
      const id = ix.wordId(word);
      if (id < 0) continue;
      const { postOffsets, postMarks, postInfo, wordOffsets, markWords, appNo, statuses, applicationDays } = ix;
      const cache = wordCache(ix);
      const gen = ++cache.gen;
      for (let p = postOffsets[id]; p < postOffsets[id + 1]; p++) {
        const m = postMarks[p];
        const info = postInfo[p];
        if (!classes[info & 63] || !ix.isLive(m)) continue;
        const later = applicationDays[m] > by.day;
        const key = (info & 0x3fff) | (later ? 0x4000 : 0);
        if (cache.standingStamp[key] !== gen) {
          cache.standingStamp[key] = gen;
          cache.standing[key] = by.standing(info & 63, statuses[(info >>> 6) & 0xff], later);
        }
        const st = cache.standing[key];
        let held = 0;
        let common = 0;
        for (let q = wordOffsets[m]; q < wordOffsets[m + 1]; q++) {
          const w = markWords[q];
          if (cache.stamp[w] !== gen) {
            const text = ix.word(w);
            const x = by.weight(text, views.length > 1 ? this.holders(text) : ix.postings(w));
            const mine = by.words.get(text);
            cache.stamp[w] = gen;
            cache.weight[w] = x;
            cache.shared[w] = mine === undefined ? -1 : x + mine;
          }
          held += cache.weight[w];
          if (cache.shared[w] >= 0) common += cache.shared[w];
        }
        const r = (st * common) / (by.total + held);
        if ((best.length === max && r <= best[max - 1].r) || skip.has(appNo[m])) continue;
        const hit: IndexHit = { id: m, appNo: appNo[m], strategy: 0, dist: 0, len: 0, ...(at === 0 ? {} : { delta: true }) };
        let to = best.length === max ? max - 1 : best.length;
        if (best.length < max) best.push({ hit, r });
        while (to > 0 && (best[to - 1].r < r || (best[to - 1].r === r && best[to - 1].hit.appNo > hit.appNo))) {
          best[to] = best[to - 1];
          to--;
        }
        best[to] = { hit, r };
      }
    }
    return best.map((b) => b.hit);
  }

  /**
   * Words of the register that are spelling variants or sound-alikes of `word` (not the word itself),
   * the most held first, at most `max`: a register holds many one-off misspellings of a word and few
   * established spellings (SHREEJI beside SHREEZI, SHREEHZI, SHRREEZI…), and the established ones are
   * where most conflicting marks are.
   */
  relatedWords(word: string, max: number): string[] {
    return this.mostHeld((ix) => ix.relatives(word), max);
  }

  /**
   * Words of the register exactly two edits from `word` as spelled (SWATSKI → SWASTIK, MOONEN → MOON),
   * the most held first, at most `max`: one edit further than search goes for a word of up to seven
   * letters. Found through the vocabulary's table of deletions, which holds two deletions of words from
   * six letters and one of shorter ones: a word of the register shorter than six letters is found when
   * one deletion from it meets two from `word` (BRNA from BRNRO: BRN).
   */
  farWords(word: string, max: number): string[] {
    return this.mostHeld((ix) => [...ix.variants(word, 2)].filter(([, d]) => d === 2).map(([id]) => id), max);
  }

  // Each index lists its own words, by id: their postings summed over the indexes are holders().
  private mostHeld(ids: (ix: IndexView) => number[], max: number): string[] {
    const held = new Map<string, number>();
    for (const ix of this.views) {
      for (const id of ids(ix)) {
        const w = ix.word(id);
        held.set(w, (held.get(w) ?? 0) + ix.postings(id));
      }
    }
    return [...held].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, max).map(([w]) => w);
  }

  /** How many marks there are in the flagged classes (in every class when null). */
  marksIn(classes: Uint8Array | null): number {
    let n = 0;
    for (const ix of this.views) {
      let counts = classCounts.get(ix);
      if (!counts) {
        counts = new Uint32Array(64);
        for (const info of ix.info) counts[info & 63]++;
        classCounts.set(ix, counts);
      }
      for (let c = 0; c < 64; c++) if (!classes || classes[c]) n += counts[c];
    }
    return n;
  }
}

// Per-word scratch of holdersBy, kept per index: a call's entries are those stamped with its generation.
interface WordCache {
  gen: number;
  stamp: Uint32Array;
  weight: Float32Array;
  shared: Float32Array;
  /** By class, status code and filing order (15 bits of a posting's facets and a flag). */
  standingStamp: Uint32Array;
  standing: Float32Array;
}
const wordCaches = new WeakMap<IndexView, WordCache>();

function wordCache(ix: IndexView): WordCache {
  let c = wordCaches.get(ix);
  if (!c) {
    const n = ix.wordCount;
    c = {
      gen: 0, stamp: new Uint32Array(n), weight: new Float32Array(n), shared: new Float32Array(n),
      standingStamp: new Uint32Array(0x8000), standing: new Float32Array(0x8000),
    };
    wordCaches.set(ix, c);
  }
  return c;
}

// Marks per class of an index (an index never changes its marks' classes; hidden marks still count).
const classCounts = new WeakMap<IndexView, Uint32Array>();

// Holders of a common word per class, kept per index: SHREE's 300,000 postings are read once, not per request.
const KEEP_FROM = 2048;
const wordClasses = new WeakMap<MarkIndex, Map<number, Uint32Array>>();

function classHolders(ix: MarkIndex, id: number): Uint32Array {
  const kept = wordClasses.get(ix)?.get(id);
  if (kept) return kept;
  const { postOffsets, postInfo } = ix.d;
  const out = new Uint32Array(64);
  for (let p = postOffsets[id]; p < postOffsets[id + 1]; p++) out[postInfo[p] & 63]++;
  if (postOffsets[id + 1] - postOffsets[id] >= KEEP_FROM) {
    let m = wordClasses.get(ix);
    if (!m) wordClasses.set(ix, (m = new Map()));
    m.set(id, out);
  }
  return out;
}

export function compareHits(x: IndexHit, y: IndexHit): number {
  return x.strategy - y.strategy || x.dist - y.dist || Math.min(x.len, 1023) - Math.min(y.len, 1023) || x.appNo - y.appNo;
}

function mergeHits(a: IndexHit[], b: IndexHit[], want: number): IndexHit[] {
  const out: IndexHit[] = [];
  let i = 0;
  let j = 0;
  while (out.length < want && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && compareHits(a[i], b[j]) <= 0)) out.push(a[i++]);
    else out.push(b[j++]);
  }
  return out;
}
