// Spelling distance between words: insertions, deletions, substitutions and swaps of two neighbours
// (NIKE/NKIE) each cost one (optimal string alignment). Bounded: work stops as soon as the distance
// is known to exceed `max`, which is what makes scanning a vocabulary affordable.

const rowA = new Int32Array(256);
const rowB = new Int32Array(256);
const rowC = new Int32Array(256);

/** The distance between a and b, or max + 1 when it is larger than max. */
export function boundedDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (la === 0 || lb === 0) return Math.max(la, lb) <= max ? Math.max(la, lb) : max + 1;
  if (lb >= 255) return slowDistance(a, b, max);
  let prev2 = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = prev[j - 1] + (ca === cb ? 0 : 1);
      const del = prev[j] + 1;
      if (del < d) d = del;
      const ins = cur[j - 1] + 1;
      if (ins < d) d = ins;
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        const t = prev2[j - 2] + 1;
        if (t < d) d = t;
      }
      cur[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[lb] <= max ? prev[lb] : max + 1;
}

function slowDistance(a: string, b: string, max: number): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length] <= max ? d[a.length][b.length] : max + 1;
}

/**
 * The same distance from one word to many: for a word of up to 32 ASCII characters, Hyyrö's
 * bit-parallel form of the alignment (one pass over the other word, a few machine operations per
 * character) instead of a table of both lengths. Scanning a thousand sound-alikes of SHREE costs
 * tens of microseconds instead of a millisecond.
 */
export function distanceFrom(a: string): (b: string, max: number) => number {
  const m = a.length;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range, NUL included, is what this tests for
  if (m === 0 || m > 32 || /[^\x00-\x7f]/.test(a)) return (b, max) => boundedDistance(a, b, max);
  const peq = new Int32Array(128);
  for (let i = 0; i < m; i++) peq[a.charCodeAt(i)] |= 1 << i;
  const last = 1 << (m - 1);
  return (b, max) => {
    const lb = b.length;
    if (Math.abs(m - lb) > max) return max + 1;
    let vp = -1;
    let vn = 0;
    let d0 = 0;
    let pmOld = 0;
    let dist = m;
    for (let j = 0; j < lb; j++) {
      const c = b.charCodeAt(j);
      const pm = c < 128 ? peq[c] : 0;
      const tr = ((~d0 & pm) << 1) & pmOld;
      d0 = (((pm & vp) + vp) ^ vp) | pm | vn | tr;
      let hp = vn | ~(d0 | vp);
      let hn = d0 & vp;
      if (hp & last) dist++;
      else if (hn & last) dist--;
      hp = (hp << 1) | 1;
      hn <<= 1;
      vp = hn | ~(d0 | hp);
      vn = hp & d0;
      pmOld = pm;
    }
    return dist <= max ? dist : max + 1;
  };
}
