import type { FilterSplit } from './filterSplit.ts';
import { groups } from './results.ts';
import type { SearchScratch } from './scratch.ts';
import { STRATEGY_COUNT } from './strategies.ts';
import { type Facet, INFO_LIMITS, type IndexHit, type IndexResult, MAX_LEN, type MarkData, SORT_KEYS } from './types.ts';

// The answers of a split search (src/search/filterSplit.ts) read out filter by filter: each filter's
// marks are those of its classes among the marks admitted, in the same order, so its page is the first
// `want` of them and its counts theirs; what a search under that filter alone would answer.

/** No groups: what a split search answers when asked not to count them. */
export function noGroups(): Record<Facet, Map<string, number>> {
  return { status: new Map(), tm_type: new Map(), filing_mode: new Map(), state: new Map(), class_number: new Map() };
}

/**
 * Each filter's count, groups (empty unless `counts`: reading every admitted mark's facets again) and first
 * `want` hits (relevance order, first page).
 */
export function answersEach(s: SearchScratch, d: MarkData, split: FilterSplit, want: number, counts: boolean): IndexResult[] {
  const n = split.parts.length;
  const { partOf } = split;
  const count = new Array<number>(n).fill(0);
  const { members } = s;
  const info = d.info;
  if (s.count < COUNT_FROM_TABLE) {
    for (let i = 0; i < s.count; i++) {
      const k = partOf[info[members[i]] & 63];
      if (k >= 0) count[k]++;
    }
  } else {
    // The class is the low 6 bits of the class-status table's index.
    const cs = s.facetClassStatus;
    for (let i = 0; i < cs.length; i++) if (cs[i] && partOf[i & 63] >= 0) count[partOf[i & 63]] += cs[i];
  }
  const hits = pagesEach(s, d, partOf, n, want);
  return split.parts.map((_, k) => ({ count: count[k], groups: counts ? groupsOf(s, d, partOf, k) : noGroups(), hits: hits[k] }));
}

/** Fewer marks admitted than this are counted one by one, more from the class-status table (16,384 entries). */
const COUNT_FROM_TABLE = 8192;

// Histograms of sort keys, one per filter, and each mark's filter in a bucket, kept from search to search
// (searches run one at a time, synchronously).
const histograms: Uint32Array[] = [];
let partsOf = new Int8Array(1024);

/** The groups of filter k's marks, counted from the admitted marks' facets. */
function groupsOf(s: SearchScratch, d: MarkData, partOf: Int8Array, k: number): Record<Facet, Map<string, number>> {
  const cs = new Uint32Array(1 << 14);
  const tm = new Uint32Array(1 << 10);
  const state = new Uint32Array(INFO_LIMITS.state);
  const { members } = s;
  const info = d.info;
  for (let i = 0; i < s.count; i++) {
    const x = info[members[i]];
    if (partOf[x & 63] !== k) continue;
    cs[x & 0x3fff]++;
    tm[(x >>> 14) & 0x3ff]++;
    state[x >>> 24]++;
  }
  return groups(d.dict, cs, tm, state);
}

/**
 * The first `want` hits of each filter, as src/search/results.ts page() picks them for one: bucket by bucket,
 * by key then mark id, histogramming keys so that only marks that reach a page are sorted.
 */
function pagesEach(s: SearchScratch, d: MarkData, partOf: Int8Array, n: number, want: number): IndexHit[][] {
  const out = Array.from({ length: n }, (): IndexHit[] => []);
  const { members, keys } = s;
  const { info, appNo } = d;
  const total = new Uint32Array(n);
  const cutoff = new Uint32Array(n);
  while (histograms.length < n) histograms.push(new Uint32Array(SORT_KEYS));
  let open = n;
  for (let b = 0, start = 0; b < STRATEGY_COUNT && open > 0; b++) {
    const from = start;
    const end = s.bucketEnd[b];
    start = end;
    if (end === from) continue;
    if (partsOf.length < end - from) partsOf = new Int8Array(Math.max(end - from, 2 * partsOf.length));
    const part = partsOf;
    total.fill(0);
    for (let i = from; i < end; i++) {
      const k = partOf[info[members[i]] & 63];
      part[i - from] = k;
      if (k >= 0 && out[k].length < want) total[k]++;
    }
    // Keys are histogrammed only for a filter with more marks in the bucket than its page has room for; the
    // histograms are all zero between buckets (emptied entry by entry: a bucket often has fewer marks than keys).
    let histogrammed = false;
    for (let k = 0; k < n; k++) {
      cutoff[k] = SORT_KEYS - 1;
      if (total[k] > want - out[k].length) histogrammed = true;
    }
    if (histogrammed) {
      for (let i = from; i < end; i++) {
        const k = part[i - from];
        if (k >= 0 && total[k] > want - out[k].length) histograms[k][keys[i]]++;
      }
      for (let k = 0; k < n; k++) {
        const need = want - out[k].length;
        if (total[k] <= need) continue;
        const hist = histograms[k];
        for (let key = 0, acc = 0; key < SORT_KEYS; key++) {
          acc += hist[key];
          if (acc >= need) {
            cutoff[k] = key;
            break;
          }
        }
      }
      for (let i = from; i < end; i++) {
        const k = part[i - from];
        if (k >= 0) histograms[k][keys[i]] = 0;
      }
    }
    const picked = Array.from({ length: n }, (): number[] => []);
    for (let i = from; i < end; i++) {
      const k = part[i - from];
      if (k >= 0 && total[k] && keys[i] <= cutoff[k]) picked[k].push(i);
    }
    for (let k = 0; k < n; k++) {
      if (!total[k]) continue;
      picked[k].sort((x, y) => keys[x] - keys[y] || members[x] - members[y]);
      for (let j = 0; j < picked[k].length && out[k].length < want; j++) {
        const i = picked[k][j];
        const m = members[i];
        out[k].push({ id: m, appNo: appNo[m], strategy: b, dist: keys[i] >>> 10, len: keys[i] & MAX_LEN });
      }
      if (out[k].length >= want) open--;
    }
  }
  return out;
}
