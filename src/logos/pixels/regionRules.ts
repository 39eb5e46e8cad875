// Rules across an upload (regions.ts): a line ruled across a page, an underline, a frame's sides, a stroke crossing the
// logo. Thin and long, such a line joins every drawing it runs past into one component, and the page then reads as one
// drawing. Long straight runs of thin ink are found (a Hough transform over the ink cells, near-horizontal and
// near-vertical lines, each candidate walked and measured) and their cells taken out of the ink, so that they join
// nothing; the crops keep their pixels, as the picture has them.

/**
 * A rule runs across at least 60 % of the image (its width for a flatter line, its height for a steeper one): a logo's
 * own straight strokes seldom do (at half, a few logos beside a name lost a stroke).
 */
const MIN_SHARE = 0.6;
/** A rule is at most this many pixels thick; a line of words, or a bar of a logo, is thicker. */
const MAX_PX = 7;
/** Slopes up to this (about 35°) either side of the horizontal, and of the vertical. */
const MAX_SLOPE = 0.7;
/** A rule is thin along at least this share of the least length; elsewhere it may cross drawing. */
const THIN = 0.6;

/** What clearRules reads of an ink field (regionField.ts): its grid, each cell's difference from the background, the threshold. */
export interface InkDifferences {
  grid: { f: number; gw: number; gh: number };
  dev: Float32Array;
  thr: number;
}

/** Takes the rules out of the field's ink (their cells' differences set to 0), in place; how many cells it took. */
export function clearRules(field: InkDifferences): number {
  const { grid, dev, thr } = field;
  const { f, gw, gh } = grid;
  const maxThick = Math.max(1, Math.ceil(MAX_PX / f));
  let cleared = 0;
  for (const vertical of [false, true]) {
    // Near-vertical lines are near-horizontal ones of the transposed grid: u runs along the line, v across it.
    const U = vertical ? gh : gw;
    const V = vertical ? gw : gh;
    const at = (u: number, v: number) => (vertical ? u * gw + v : v * gw + u);
    const ink = (u: number, v: number) => v >= 0 && v < V && dev[at(u, v)] > thr;
    const minLen = Math.round(MIN_SHARE * U);
    // Slopes a cell apart at half the run's length: the walk takes the line's cell within one either side.
    const slopes = Math.max(2, Math.round((MAX_SLOPE * U) / 2));
    const offset = Math.ceil(MAX_SLOPE * U);
    const span = V + 2 * offset;
    // Only thin ink votes (the ink across the line at most maxThick cells): a logo's filled shapes, most of a clean
    // logo's ink, cast none, which keeps this a small part of finding regions.
    const thin = new Uint8Array(U * V);
    for (let u = 0; u < U; u++)
      for (let v = 0; v < V; ) {
        if (!ink(u, v)) {
          v++;
          continue;
        }
        let end = v;
        while (end < V && ink(u, end)) end++;
        if (end - v <= maxThick) for (let w = v; w < end; w++) thin[w * U + u] = 1;
        v = end;
      }
    // Votes: each thin ink cell for every line (slope, intercept) through it.
    const votes = new Uint16Array((2 * slopes + 1) * span);
    const step = MAX_SLOPE / slopes;
    for (let v = 0; v < V; v++)
      for (let u = 0; u < U; u++) {
        if (!thin[v * U + u]) continue;
        for (let k = -slopes; k <= slopes; k++) {
          const c = Math.round(v - k * step * u) + offset;
          if (c >= 0 && c < span) votes[(k + slopes) * span + c]++;
        }
      }
    // A line drawn across two rows of cells splits its votes between neighbouring intercepts: they are counted together.
    const near = new Uint16Array(votes.length);
    for (let i = 0; i < votes.length; i++) {
      const c = i % span;
      near[i] = votes[i] + (c > 0 ? votes[i - 1] : 0) + (c < span - 1 ? votes[i + 1] : 0);
    }
    const candidates: number[] = [];
    for (let i = 0; i < votes.length; i++) if (near[i] >= minLen) candidates.push(i);
    candidates.sort((a, b) => near[b] - near[a]);
    for (const i of candidates.slice(0, 64)) {
      const s = (Math.floor(i / span) - slopes) * step;
      const c = (i % span) - offset;
      cleared += walk(
        U,
        (u) => Math.round(s * u + c),
        ink,
        maxThick,
        minLen,
        (u, from, to) => {
          for (let v = from; v <= to; v++) dev[at(u, v)] = 0;
        },
      );
    }
  }
  return cleared;
}

/**
 * Walks a candidate line (v = line(u)) and clears its longest run of ink (gaps of 2 cells bridged) when the run is long
 * enough and thin along enough of it; the cells counted as the line's are those within a cell of it. How many cells it cleared.
 */
function walk(
  U: number,
  line: (u: number) => number,
  ink: (u: number, v: number) => boolean,
  maxThick: number,
  minLen: number,
  clear: (u: number, from: number, to: number) => void,
): number {
  /** The ink through (u, v) across the line: its first and last cells, up to maxThick + 1 either side. */
  const across = (u: number, v: number) => {
    let up = v;
    let down = v;
    while (up > v - maxThick - 1 && ink(u, up - 1)) up--;
    while (down < v + maxThick + 1 && ink(u, down + 1)) down++;
    return [up, down];
  };
  // The line's own cell at each u: the ink nearest the line within a cell, or none.
  const on: number[] = [];
  for (let u = 0; u < U; u++) {
    const v = line(u);
    on.push(ink(u, v) ? v : ink(u, v - 1) ? v - 1 : ink(u, v + 1) ? v + 1 : Number.NaN);
  }
  let best = [0, -1];
  let start = -1;
  let gap = 0;
  for (let u = 0; u <= U; u++) {
    const hit = u < U && !Number.isNaN(on[u]);
    if (hit) {
      if (start < 0) start = u;
      gap = 0;
    } else if (start >= 0 && (++gap > 2 || u === U)) {
      const end = u - gap;
      if (end - start > best[1] - best[0]) best = [start, end];
      start = -1;
      gap = 0;
    }
  }
  const [from, to] = best;
  if (to - from + 1 < minLen) return 0;
  // Thin: the ink through the line's cell, across it, is at most maxThick cells.
  let thin = 0;
  for (let u = from; u <= to; u++) {
    const v = on[u];
    if (Number.isNaN(v)) continue;
    const [a, b] = across(u, v);
    if (b - a + 1 <= maxThick) thin++;
  }
  // Thin along at least THIN of the least length (crossing drawings, a rule across a page may be thick elsewhere).
  if (thin < THIN * minLen) return 0;
  let n = 0;
  for (let u = from; u <= to; u++) {
    const v = on[u];
    if (Number.isNaN(v)) continue;
    // Where the line crosses drawing (thick ink across it), the drawing keeps its cells.
    const [a, b] = across(u, v);
    if (b - a + 1 > maxThick) continue;
    clear(u, a, b);
    n += b - a + 1;
  }
  return n;
}
