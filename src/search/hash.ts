// FNV-1a over a string's UTF-16 code units, 32 bits: the key of the spelling-variant (deletion)
// table. Collisions only add candidates; every candidate's distance is checked.
export function fnv1a(s: string, skipA = -1, skipB = -1): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    if (i === skipA || i === skipB) continue;
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Sorts `keys` ascending and applies the same permutation to `values` (LSD radix sort, 4 passes of
 * 8 bits): tens of millions of pairs in well under a second, where a comparison sort takes many.
 */
export function radixSortPairs(keys: Uint32Array, values: Uint32Array): { keys: Uint32Array; values: Uint32Array } {
  const n = keys.length;
  let k0: Uint32Array = keys;
  let v0: Uint32Array = values;
  let k1: Uint32Array = new Uint32Array(n);
  let v1: Uint32Array = new Uint32Array(n);
  const count = new Uint32Array(256);
  for (let shift = 0; shift < 32; shift += 8) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(k0[i] >>> shift) & 255]++;
    let sum = 0;
    for (let b = 0; b < 256; b++) {
      const c = count[b];
      count[b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const k = k0[i];
      const pos = count[(k >>> shift) & 255]++;
      k1[pos] = k;
      v1[pos] = v0[i];
    }
    [k0, k1] = [k1, k0];
    [v0, v1] = [v1, v0];
  }
  return { keys: k0, values: v0 };
}

/** The first index in [lo, hi) at which `before` turns false (it must be true, then false): binary search over any sorted list. */
export function partitionPoint(lo: number, hi: number, before: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
