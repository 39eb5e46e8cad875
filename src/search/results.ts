import type { SearchScratch } from './scratch.ts';
import { STRATEGY_COUNT } from './strategies.ts';
import { type After, type Facet, INFO_LIMITS, type IndexHit, MAX_LEN, type MarkData, SORT_KEYS, sortKey } from './types.ts';

// A search's answer read out of what it counted and admitted: the five groups, and the page.

/** The five groups from the three facet tables a search counts in (src/search/scratch.ts). */
export function groups(dict: MarkData['dict'], cs: Uint32Array, tm: Uint32Array, state: Uint32Array): Record<Facet, Map<string, number>> {
  const cls = new Uint32Array(64);
  const status = new Uint32Array(INFO_LIMITS.status);
  const type = new Uint32Array(INFO_LIMITS.tm_type);
  const mode = new Uint32Array(INFO_LIMITS.filing_mode);
  for (let i = 0; i < cs.length; i++) {
    if (cs[i] === 0) continue;
    cls[i & 63] += cs[i];
    status[i >>> 6] += cs[i];
  }
  for (let i = 0; i < tm.length; i++) {
    if (tm[i] === 0) continue;
    type[i & 15] += tm[i];
    mode[i >>> 4] += tm[i];
  }
  const named = (counts: Uint32Array, names: string[]) => {
    const m = new Map<string, number>();
    for (let i = 0; i < names.length; i++) if (counts[i] && names[i] !== '') m.set(names[i], counts[i]);
    return m;
  };
  const classes = new Map<string, number>();
  cls.forEach((c, i) => c && classes.set(String(i), c));
  return {
    status: named(status, dict.status),
    tm_type: named(type, dict.tm_type),
    filing_mode: named(mode, dict.filing_mode),
    state: named(state, dict.state),
    class_number: classes,
  };
}

/**
 * The first `want` results in order (after `after`, when paging by cursor) of the marks a search
 * admitted. Within a bucket the keys are histogrammed so that only the marks that reach the page are sorted.
 */
export function page(s: SearchScratch, appNo: Float64Array, want: number, after: After | null): IndexHit[] {
  const out: IndexHit[] = [];
  const { members, keys, hist } = s;
  let start = 0;
  for (let b = 0; b < STRATEGY_COUNT && out.length < want; b++) {
    const from = start;
    const end = s.bucketEnd[b];
    start = end;
    if (end === from || (after && b < after.strategy)) continue;
    const cursor = after && after.strategy === b;
    const afterKey = cursor ? sortKey(after.dist, after.len) : -1;
    const afterApp = cursor ? after.appNo : -1;
    const keep = (i: number) => !cursor || keys[i] > afterKey || (keys[i] === afterKey && appNo[members[i]] > afterApp);
    const need = want - out.length;
    hist.fill(0);
    let total = 0;
    if (cursor) {
      for (let i = from; i < end; i++) {
        if (!keep(i)) continue;
        hist[keys[i]]++;
        total++;
      }
    } else {
      for (let i = from; i < end; i++) hist[keys[i]]++;
      total = end - from;
    }
    let cutoff = SORT_KEYS - 1;
    if (total > need) {
      let acc = 0;
      for (let k = 0; k < SORT_KEYS; k++) {
        acc += hist[k];
        if (acc >= need) {
          cutoff = k;
          break;
        }
      }
    }
    const picked: number[] = [];
    for (let i = from; i < end; i++) if (keys[i] <= cutoff && (!cursor || keep(i))) picked.push(i);
    picked.sort((x, y) => keys[x] - keys[y] || members[x] - members[y]);
    for (let j = 0; j < picked.length && out.length < want; j++) {
      const i = picked[j];
      const m = members[i];
      out.push({ id: m, appNo: appNo[m], strategy: b, dist: keys[i] >>> 10, len: keys[i] & MAX_LEN });
    }
  }
  return out;
}
