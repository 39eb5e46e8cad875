import type { SummaryRow } from '../trademarks/repository.ts';
import { IndexBuilder, type MarkRow, type Skipped } from './build.ts';
import { LiveIndex } from './liveIndex.ts';
import type { MarkIndex } from './markIndex.ts';
import type { PreparedQuery } from './query.ts';
import type { Change } from './source.ts';
import type { BriefRow } from './summaries.ts';
import { type After, FACETS, type Facet, type Filter, type IndexHit, type IndexResult, type MarkData, type Sort } from './types.ts';
import type { IndexView, RegisterView } from './view.ts';

// The searchable register of one process: the index as built (or loaded from its snapshot) plus a
// small index of the marks changed since, rebuilt on every change. A changed mark is hidden in the
// base index and lives in the small one, so every mark is in exactly one of them; results of both are
// merged in the same order. When the small one grows past REBUILD_AT marks, a full rebuild is due.
//
// apply() and replace() are the change feed's writers, the only ones; they run between searches
// (everything here is synchronous), so a search, and the summaries read in its turn of the event
// loop, see the register either before a batch of changes or after it.

export const REBUILD_AT = 200_000;

export class SearchEngine implements RegisterView {
  private base: LiveIndex;
  private delta: LiveIndex | null = null;
  private changed = new Map<number, MarkRow | null>();

  /** `seq`: the change-feed position the register reflects; the same in every process at the same data, so it keys the result cache. */
  constructor(
    base: MarkIndex,
    public seq: number,
  ) {
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

  /** `after` pages by relevance; a `sort` (another order) carries its own cursor. */
  search(q: PreparedQuery, filter: Filter, want: number, after: After | null, sort: Sort | null = null): IndexResult {
    const a = this.base.search(q, filter, want, after, sort);
    if (!this.delta) return a;
    return merged(a, this.delta.search(q, filter, want, after, sort), want, sort ? sortedOrder(sort) : compareHits);
  }

  /**
   * The first page (relevance) of the query under each filter, as search() would answer each, in one
   * search where the filters allow (src/search/liveIndex.ts searchEach); groups only with `counts`, and
   * without them a count may stop at the page.
   */
  searchEach(q: PreparedQuery, filters: Filter[], want: number, counts = true): IndexResult[] {
    const a = this.base.searchEach(q, filters, want, counts);
    if (!this.delta) return a;
    const b = this.delta.searchEach(q, filters, want, counts);
    return a.map((x, k) => merged(x, b[k], want, compareHits));
  }

  /**
   * The summaries of hits this engine just returned (call it before the engine can change: in the same
   * turn of the event loop as the search).
   */
  summaries(hits: IndexHit[]): SummaryRow[] {
    return hits.map((h) => (h.delta ? this.delta! : this.base).index.summaries.row(h.id));
  }

  /** What the threats analysis reads of hits this engine just returned (in the same turn, as summaries()). */
  briefs(hits: IndexHit[]): BriefRow[] {
    return hits.map((h) => (h.delta ? this.delta! : this.base).index.summaries.brief(h.id));
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

  /** Every value of a facet some mark has. */
  values(facet: keyof MarkData['dict']): string[] {
    return [...new Set(this.indexes.flatMap((ix) => ix.d.dict[facet].filter((s) => s !== '')))];
  }

  /** The base index, then the index of recent changes if there is one. */
  get indexes(): MarkIndex[] {
    return this.delta ? [this.base.index, this.delta.index] : [this.base.index];
  }

  get views(): IndexView[] {
    return this.delta ? [this.base.view, this.delta.view] : [this.base.view];
  }
}

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

/** The order of hits under a sort (src/search/order.ts): by value, no value last, then application number, in the sort's direction. */
export function sortedOrder(sort: Sort): (x: IndexHit, y: IndexHit) => number {
  const dir = sort.desc ? -1 : 1;
  return (x, y) => {
    const a = x.value ?? null;
    const b = y.value ?? null;
    if (a !== b) {
      if (a === null) return 1;
      if (b === null) return -1;
      return a < b ? -dir : dir;
    }
    return dir * (x.appNo - y.appNo);
  };
}

/** The answers of the base index (a) and of the index of recent changes (b), as one. */
function merged(a: IndexResult, b: IndexResult, want: number, compare: (x: IndexHit, y: IndexHit) => number): IndexResult {
  for (const h of b.hits) h.delta = true;
  const groups = {} as Record<Facet, Map<string, number>>;
  for (const f of FACETS) {
    const m = new Map(a.groups[f]);
    for (const [k, n] of b.groups[f]) m.set(k, (m.get(k) ?? 0) + n);
    groups[f] = m;
  }
  return { count: a.count + b.count, groups, hits: mergeHits(a.hits, b.hits, want, compare) };
}

function mergeHits(a: IndexHit[], b: IndexHit[], want: number, compare: (x: IndexHit, y: IndexHit) => number): IndexHit[] {
  const out: IndexHit[] = [];
  let i = 0;
  let j = 0;
  while (out.length < want && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && compare(a[i], b[j]) <= 0)) out.push(a[i++]);
    else out.push(b[j++]);
  }
  return out;
}
