import type { Bitset } from './bitset.ts';
import { radixSortPairs } from './hash.ts';
import { type After, INFO_LIMITS, type IndexHit, MAX_LEN, sortKey } from './types.ts';

// A ready answer: the whole result of a query whose answer depends on one string alone (a prefix of
// one or two characters, or a very common word searched alone), kept in result order with its facet
// counts per class, so that asking again reads a page and sums counts instead of admitting hundreds
// of thousands of marks. A mark that changes or goes away is taken out of the counts it is in and
// skipped in the lists.

export interface Part {
  /** Ordered as results are: by sort key (spelling distance, then length), then mark. */
  marks: Uint32Array;
  keys: Uint16Array;
  info: Uint32Array;
}

export interface ReadyAnswer {
  /** One part per strategy, by strategy number (a strategy that found nothing: an empty part or none). */
  parts: Part[];
  /** Live marks per class. */
  byClass: Uint32Array;
  /** Facet counts of live marks: class and status (low 14 bits of the packed facets); type and filing mode, and state, per class. */
  classStatus: Uint32Array;
  typeMode: Uint32Array;
  state: Uint32Array;
}

/** A ready answer of these parts, with the counts of its live marks. */
export function readyAnswer(parts: Part[], dead: Bitset): ReadyAnswer {
  const e: ReadyAnswer = {
    parts,
    byClass: new Uint32Array(64),
    classStatus: new Uint32Array(1 << 14),
    typeMode: new Uint32Array(64 * 1024),
    state: new Uint32Array(64 * INFO_LIMITS.state),
  };
  for (const part of parts) {
    for (let i = 0; i < part.marks.length; i++) if (!dead.has(part.marks[i])) tally(e, part.info[i], 1);
  }
  return e;
}

/** Counts a mark of packed facets x into an answer (`by` 1) or out of it (-1). */
export function tally(e: ReadyAnswer, x: number, by: 1 | -1): void {
  const cls = x & 63;
  e.byClass[cls] += by;
  e.classStatus[x & 0x3fff] += by;
  e.typeMode[cls * 1024 + ((x >>> 14) & 0x3ff)] += by;
  e.state[cls * 256 + (x >>> 24)] += by;
}

/** Marks with their sort keys put in result order, in linear time (radix by mark, then counted by key); `info` by mark. */
export function orderPart(marks: Uint32Array, keys: Uint32Array, info: Uint32Array): Part {
  const byMark = radixSortPairs(marks, keys);
  const n = marks.length;
  const start = new Uint32Array(sortKey(Number.MAX_SAFE_INTEGER, MAX_LEN) + 2);
  for (let i = 0; i < n; i++) start[byMark.values[i] + 1]++;
  for (let k = 0; k + 1 < start.length; k++) start[k + 1] += start[k];
  const part: Part = { marks: new Uint32Array(n), keys: new Uint16Array(n), info: new Uint32Array(n) };
  for (let i = 0; i < n; i++) {
    const m = byMark.keys[i];
    const at = start[byMark.values[i]]++;
    part.marks[at] = m;
    part.keys[at] = byMark.values[i];
    part.info[at] = info[m];
  }
  return part;
}

/** Count and facet tables of an answer, summed over the classes kept (all when `classes` is null). */
export function readyCounts(e: ReadyAnswer, classes: Uint8Array | null) {
  let count = 0;
  const classStatus = new Uint32Array(1 << 14);
  const typeMode = new Uint32Array(1 << 10);
  const state = new Uint32Array(INFO_LIMITS.state);
  for (let c = 0; c < 64; c++) {
    if (!e.byClass[c] || (classes !== null && classes[c] === 0)) continue;
    count += e.byClass[c];
    for (let s = 0; s < INFO_LIMITS.status; s++) classStatus[c | (s << 6)] = e.classStatus[c | (s << 6)];
    for (let i = 0; i < 1024; i++) typeMode[i] += e.typeMode[c * 1024 + i];
    for (let i = 0; i < INFO_LIMITS.state; i++) state[i] += e.state[c * 256 + i];
  }
  return { count, classStatus, typeMode, state };
}

/** The first `want` hits of an answer in result order, after `after`, skipping dead marks and classes not kept. */
export function readyHits(
  e: ReadyAnswer,
  appNo: Float64Array,
  dead: Bitset,
  classes: Uint8Array | null,
  want: number,
  after: After | null,
): IndexHit[] {
  const out: IndexHit[] = [];
  const afterKey = after ? sortKey(after.dist, after.len) : -1;
  for (let s = 0; s < e.parts.length && out.length < want; s++) {
    if (after && s < after.strategy) continue;
    const { marks, keys, info } = e.parts[s];
    for (let i = 0; i < marks.length && out.length < want; i++) {
      const m = marks[i];
      if (dead.has(m) || (classes !== null && classes[info[i] & 63] === 0)) continue;
      const key = keys[i];
      if (after && s === after.strategy && (key < afterKey || (key === afterKey && appNo[m] <= after.appNo))) continue;
      out.push({ id: m, appNo: appNo[m], strategy: s, dist: key >>> 10, len: key & MAX_LEN });
    }
  }
  return out;
}
