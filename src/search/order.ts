import { Growable } from './gather.ts';
import type { SearchScratch } from './scratch.ts';
import { NO_DATE } from './summaries.ts';
import { type IndexHit, MAX_LEN, type MarkData, type Sort, type SortAfter } from './types.ts';

// Results in an order other than relevance (sort=application_date, expire_at, word_mark, each with -
// for descending): every match is admitted as for relevance, so counts and groups stay exact, and the
// page is picked from all of them by one 32-bit key per mark, histogrammed so that only the marks that
// reach the page are sorted. Ties go by application number in the same direction; marks without an
// expiry date come last either way.

/**
 * Each mark's place in the order of normalised word marks, ties by mark id (application number).
 * Word ids follow their words' order and the space between words sorts before every character of a
 * word, so two marks' texts compare as their sequences of word ids do, a sequence that begins the other
 * first. The marks a word begins are already grouped, in word order (`first` postings): only each
 * group is sorted, by the words after the first.
 */
export function markRanks(d: Pick<MarkData, 'wordOffsets' | 'markWords' | 'firstOffsets' | 'firstMarks'>): Uint32Array {
  const { wordOffsets, markWords, firstOffsets, firstMarks } = d;
  const n = firstMarks.length;
  const byText = firstMarks.slice();
  const after = (a: number, b: number) => {
    const ea = wordOffsets[a + 1];
    const eb = wordOffsets[b + 1];
    for (let pa = wordOffsets[a] + 1, pb = wordOffsets[b] + 1; ; pa++, pb++) {
      if (pa === ea) return pb === eb ? a - b : -1;
      if (pb === eb) return 1;
      const diff = markWords[pa] - markWords[pb];
      if (diff !== 0) return diff;
    }
  };
  for (let w = 0; w + 1 < firstOffsets.length; w++) {
    if (firstOffsets[w + 1] - firstOffsets[w] > 1) byText.subarray(firstOffsets[w], firstOffsets[w + 1]).sort(after);
  }
  const rank = new Uint32Array(n);
  for (let r = 0; r < n; r++) rank[byText[r]] = r;
  return rank;
}

/** What an index gives a sort: the dates, the word-mark ranks and a mark's text. */
export interface SortSource {
  d: MarkData;
  text(id: number): string;
  /** Marks by word-mark rank (the inverse of d.rank), made on first use. */
  byRank(): Uint32Array;
}

// Keys: dates offset to stay positive, flipped for descending; ranks as they are, or flipped.
const OFFSET = 0x40000000;
const FLIP = 0x7fffffff;
/** No expiry date: after every date, either way. */
const LAST = 0xfffffffe;
/** Not on the page: before the cursor. */
const OUT = 0xffffffff;

/** A mark's 32-bit key under the sort, smaller first; ties go by idKey. */
function keyOf(src: SortSource, sort: Sort): (m: number) => number {
  const { summary, rank } = src.d;
  const flip = (k: number) => (sort.desc ? FLIP - k : k);
  switch (sort.field) {
    case 'application_date':
      return (m) => flip(summary.applicationDays[m] + OFFSET);
    case 'expire_at':
      return (m) => {
        const e = summary.expireDays[m];
        return e === NO_DATE ? LAST : flip(e + OFFSET);
      };
    default:
      return (m) => flip(rank[m]);
  }
}

/** The sorted field's value of mark m, as hits and cursors carry it. */
export function sortValue(src: SortSource, sort: Sort, m: number): number | string | null {
  const { summary } = src.d;
  if (sort.field === 'application_date') return summary.applicationDays[m];
  if (sort.field === 'expire_at') return summary.expireDays[m] === NO_DATE ? null : summary.expireDays[m];
  return src.text(m);
}

/**
 * Where the cursor `a` falls in this index: a mark is after it when its (key, idKey) is greater than
 * the boundary's. Within one key ids ascend with application numbers.
 */
function boundary(src: SortSource, sort: Sort, a: SortAfter): { key: number; idKey: number } {
  const appNo = src.d.appNo;
  // The first id, or rank, whose mark is past the cursor (`strict`) or at it or past it.
  const first = (n: number, before: (i: number, strict: boolean) => boolean, strict: boolean) => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(mid, strict)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  if (sort.field !== 'word_mark') {
    const byApp = (i: number, strict: boolean) => (strict ? appNo[i] <= a.appNo : appNo[i] < a.appNo);
    const k = a.value === null ? LAST : sort.desc ? FLIP - (Number(a.value) + OFFSET) : Number(a.value) + OFFSET;
    // Ascending, the marks of the same key after the cursor have larger numbers; descending, smaller.
    return sort.desc
      ? { key: k, idKey: FLIP - first(appNo.length, byApp, false) }
      : { key: k, idKey: first(appNo.length, byApp, true) - 1 };
  }
  const byRank = src.byRank();
  const text = String(a.value);
  const byText = (r: number, strict: boolean) => {
    const t = src.text(byRank[r]);
    return t < text || (t === text && (strict ? appNo[byRank[r]] <= a.appNo : appNo[byRank[r]] < a.appNo));
  };
  // Ranks are unique: ids never break a tie.
  if (!sort.desc) return { key: first(byRank.length, byText, true) - 1, idKey: Infinity };
  return { key: FLIP - first(byRank.length, byText, false), idKey: Infinity };
}

const picked = new Growable();
const pickedKeys = new Growable();
const hist = new Uint32Array(1 << 16);

/**
 * The first `want` marks a search admitted (after the sort's cursor) in the sort's order. Searches run
 * one at a time (src/search/engine.ts), so the buffers here are shared.
 */
export function sortedPage(s: SearchScratch, src: SortSource, sort: Sort, want: number): IndexHit[] {
  const { members, count } = s;
  const key = keyOf(src, sort);
  const b = sort.after ? boundary(src, sort, sort.after) : null;
  const idKey = (m: number) => (sort.desc ? FLIP - m : m);
  const keys = pickedKeys.room(count);
  let lo = OUT;
  let hi = 0;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const m = members[i];
    const k = key(m);
    if (b && !(k > b.key || (k === b.key && idKey(m) > b.idKey))) {
      keys[i] = OUT;
      continue;
    }
    keys[i] = k;
    total++;
    if (k < lo) lo = k;
    if (k > hi) hi = k;
  }
  if (total === 0) return [];
  // A histogram of the keys finds the key under which the page lies; only the marks up to it are sorted.
  let cutoff = hi;
  if (total > want) {
    let scale = 1;
    while ((hi - lo) / scale >= hist.length) scale *= 2;
    hist.fill(0);
    for (let i = 0; i < count; i++) if (keys[i] !== OUT) hist[Math.floor((keys[i] - lo) / scale)]++;
    let acc = 0;
    for (let h = 0; h < hist.length; h++) {
      acc += hist[h];
      if (acc >= want) {
        cutoff = Math.min(hi, lo + (h + 1) * scale - 1);
        break;
      }
    }
  }
  const out = picked.room(total);
  let n = 0;
  for (let i = 0; i < count; i++) if (keys[i] <= cutoff) out[n++] = i;
  const chosen = Array.from(out.subarray(0, n));
  chosen.sort((x, y) => keys[x] - keys[y] || idKey(members[x]) - idKey(members[y]));
  const appNo = src.d.appNo;
  // Each hit keeps how it matched: its strategy is the bucket it was admitted into, with its key there.
  return chosen.slice(0, want).map((i) => {
    const m = members[i];
    let strategy = 0;
    while (s.bucketEnd[strategy] <= i) strategy++;
    const k = s.keys[i];
    return { id: m, appNo: appNo[m], strategy, dist: k >>> 10, len: k & MAX_LEN, value: sortValue(src, sort, m) };
  });
}
