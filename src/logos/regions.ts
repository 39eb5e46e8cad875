import type { Decoded } from './image.ts';

// Finding the logo in an upload (a page, a label, a letterhead): before embedding, the decoded image is
// shrunk to a grid of at most GRID cells a side, the background estimated from its border, the cells that
// differ from it joined into connected components, lines of text (a row of components of one height, or
// the word boxes OCR read) set aside, the rest grouped where they lie close, and the groups scored by
// contrast, size and compactness. The best few become crops, other drawing in their margins painted out and
// their light evened, that are embedded beside the whole image (docs/logos.md, "Finding the logo in an upload").

/** The most crops searched beside the whole image: at most 1 + MAX_REGIONS embeddings a search. */
export const MAX_REGIONS = 3;
/** A crop's similarity counts this much less than the whole image's when a mark's scores are merged. */
export const REGION_PENALTY = 0.02;
// The grid's longer side: an upload, decoded at most 512 px a side (image.ts), is looked at in cells of 4 px or less.
const GRID = 160;
// A cell is ink when its mean difference from the background passes this (of 255), or the border's own spread.
const INK = 24;
// A group whose box covers this share of all the ink's box is the whole image again: the whole search has it.
const WHOLE = 0.6;
// Without words, drawings count as several things only when their box is this many times the area of their groups' boxes.
const SPARSE = 3;
// A line of words whose letters stand this many times the body text's is display lettering: perhaps a wordmark.
const DISPLAY = 1.1;
// A cell within this of a block's median grey is of its one tone.
const FLAT = 2;
// Inside a panel (a label), ink is a cell this far from the panel's own grey, or the border's spread.
const INK_PANEL = 14;
// A line's two parts are in two inks when their cells' mean differences from the background stand this far apart.
const INK_APART = 30;
// ... or their chroma to ink ratios this far: black ink has none, a dark blue 0.4-0.9, a bright colour over 1.
const COLOUR_APART = 0.25;
// Lines of shapes this many cells high or more, each filling most of its box, are dots and bars, not letters.
const SOLID_ROW = 6;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Region {
  /** In the decoded image's pixels. */
  box: Box;
  score: number;
  /** The decoded image cut to the box, other components' ink in it painted background, its light evened. */
  decoded: Decoded;
}

interface Comp {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  cells: number;
  ink: number;
  /** The sum of its cells' signed differences from the background: above 0 it is lighter. */
  lift: number;
  /** The sum of its cells' chroma (0 for a grey image). */
  chroma: number;
  text: boolean;
}

/** The median of a list of numbers (0 for none). */
function median(v: number[]): number {
  if (!v.length) return 0;
  const s = [...v].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

/** Components by the root of their union-find set (`parent` indexed as `comps`), in their order. */
function groupsOf(comps: Comp[], parent: Int32Array): Map<number, Comp[]> {
  const groups = new Map<number, Comp[]>();
  comps.forEach((c, i) => {
    const r = find(parent, i);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r)!.push(c);
  });
  return groups;
}

/**
 * Candidate logo regions of a decoded image, best first, at most MAX_REGIONS; none when the image is
 * clean (its ink one group covering most of it), blank, or too small to hold more than one thing.
 * `words`: boxes of words OCR read, in the decoded image's pixels; components inside them are text.
 * Never throws on an odd image: a region it cannot make is left out.
 */
export function findRegions(d: Decoded, words: Box[] = []): Region[] {
  try {
    return regionsOf(d, words, 0);
  } catch {
    return [];
  }
}

function regionsOf(d: Decoded, words: Box[], depth: number): Region[] {
  const grid = gridOf(d);
  if (!grid) return [];
  const { f, gw, gh } = grid;
  const cell = cellMeans(d.grey, d.width, grid);
  const sat = d.chroma ? cellMeans(d.chroma, d.width, grid) : new Float32Array(cell.length);
  const bg = background(cell, gw, gh);
  const dev = new Float32Array(cell.length);
  for (let i = 0; i < cell.length; i++) dev[i] = Math.abs(cell[i] - bg.at(i % gw, (i / gw) | 0));
  // Inside a panel its light is even and its colour known: fainter ink counts (a bright green logo is near an
  // off-white label's grey).
  const thr = Math.max(depth > 0 ? INK_PANEL : INK, 4 * bg.spread);
  // A border mostly of ink is a logo cut off or drawn to its edges, not a page holding one.
  if (bg.share < 0.6) return [];

  // Connected components of ink cells (8-connected).
  const label = new Int32Array(cell.length).fill(-1);
  const comps: Comp[] = [];
  const stack: number[] = [];
  for (let i = 0; i < cell.length; i++) {
    if (label[i] >= 0 || dev[i] <= thr) continue;
    const c: Comp = { x0: gw, y0: gh, x1: -1, y1: -1, cells: 0, ink: 0, lift: 0, chroma: 0, text: false };
    label[i] = comps.length;
    stack.push(i);
    while (stack.length) {
      const p = stack.pop()!;
      const px = p % gw;
      const py = (p / gw) | 0;
      c.cells++;
      c.ink += dev[p];
      c.lift += cell[p] - bg.at(px, py);
      c.chroma += sat[p];
      if (px < c.x0) c.x0 = px;
      if (px > c.x1) c.x1 = px;
      if (py < c.y0) c.y0 = py;
      if (py > c.y1) c.y1 = py;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = py + dy;
        if (ny < 0 || ny >= gh) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = px + dx;
          if (nx < 0 || nx >= gw) continue;
          const q = ny * gw + nx;
          if (label[q] < 0 && dev[q] > thr) {
            label[q] = comps.length;
            stack.push(q);
          }
        }
      }
    }
    comps.push(c);
  }
  // Specks (noise, a JPEG's ringing) are no drawing; the largest 300 are plenty to group.
  const minCells = Math.max(2, Math.round(gw * gh * 0.0004));
  // Inside a panel, what touches its edge is the panel's own (its corners, seen at an angle).
  const edge = (c: Comp) => depth > 0 && (c.x0 === 0 || c.y0 === 0 || c.x1 === gw - 1 || c.y1 === gh - 1);
  const kept = comps
    .filter((c) => c.cells >= minCells && !edge(c))
    .sort((a, b) => b.cells - a.cells)
    .slice(0, 300);
  if (!kept.length) return [];
  const all = { x0: gw, y0: gh, x1: -1, y1: -1 };
  let totalInk = 0;
  for (const c of kept) {
    all.x0 = Math.min(all.x0, c.x0);
    all.y0 = Math.min(all.y0, c.y0);
    all.x1 = Math.max(all.x1, c.x1);
    all.y1 = Math.max(all.y1, c.y1);
    totalInk += c.ink;
  }
  const allArea = (all.x1 - all.x0 + 1) * (all.y1 - all.y0 + 1);

  // A panel (a label on a table, a card on a page): one solid component lighter than what it lies on, holding
  // most of the image, clear of its edges. What is on it is looked for inside it, against its own colour; a clean
  // logo on it is its region. A solid badge, darker than its paper, is a logo, not a panel.
  const panel = kept[0];
  const pw = panel.x1 - panel.x0 + 1;
  const ph = panel.y1 - panel.y0 + 1;
  const inside = panel.x0 > 0 && panel.y0 > 0 && panel.x1 < gw - 1 && panel.y1 < gh - 1;
  if (depth === 0 && inside && panel.lift > 0 && pw * ph >= 0.3 * gw * gh && panel.cells >= 0.5 * pw * ph) {
    const inset = Math.round(0.06 * Math.min(pw, ph));
    const box = { left: (panel.x0 + inset) * f, top: (panel.y0 + inset) * f, width: (pw - 2 * inset) * f, height: (ph - 2 * inset) * f };
    if (box.width >= 32 && box.height >= 32) {
      const inner = sub(d, box);
      const shifted = words.map((w) => ({ ...w, left: w.left - box.left, top: w.top - box.top }));
      const found = regionsOf(inner, shifted, 1);
      if (found.length) return found.map((r) => ({ ...r, box: { ...r.box, left: r.box.left + box.left, top: r.box.top + box.top } }));
      const whole = evenLight(inner);
      return whole ? [{ box, score: 1, decoded: whole }] : [];
    }
  }
  if (kept.length < 2) return [];
  // One component spanning the image, and not a thin frame around it, is a clean logo (cut in two by its own
  // white, as a badge's letters are).
  const fill = panel.cells / (pw * ph);
  if (pw * ph >= WHOLE * allArea && fill >= 0.2) return [];

  const lines = markText(kept, all.y1 - all.y0 + 1);
  for (const w of words) {
    const wx0 = w.left / f;
    const wy0 = w.top / f;
    const wx1 = (w.left + w.width) / f;
    const wy1 = (w.top + w.height) / f;
    for (const c of kept) {
      const cx = (c.x0 + c.x1 + 1) / 2;
      const cy = (c.y0 + c.y1 + 1) / 2;
      if (cx >= wx0 && cx <= wx1 && cy >= wy0 && cy <= wy1) c.text = true;
    }
  }

  const body = lines.reduce<{ members: Comp[]; h: number } | null>(
    (b, l) => (!b || l.members.length > b.members.length || (l.members.length === b.members.length && l.h < b.h) ? l : b),
    null,
  );
  // Two or three shapes side by side, larger than the body text, are more likely a logo's parts (a chevron's two
  // halves, a ring's dots) than a word: they are grouped as drawing, and their logo's middle, which may have
  // joined the body's line, is kept with them when it lies inside their box.
  for (const line of lines) {
    if (body && line !== body && line.members.length <= 3 && line.h >= DISPLAY * body.h) for (const c of line.members) c.text = false;
  }

  // Groups: drawing components whose boxes, widened by a gap, touch. A frame around everything groups nothing.
  const drawing = kept.filter((c) => !c.text && !(c === panel && pw * ph >= 0.9 * allArea));
  const parent = Int32Array.from(drawing.keys());
  const gap = Math.max(1, Math.round(Math.max(gw, gh) * 0.03));
  for (let a = 0; a < drawing.length; a++) {
    for (let b = a + 1; b < drawing.length; b++) {
      const A = drawing[a];
      const B = drawing[b];
      // Parts of one logo lie closer than 0.4 of the thicker one's short side: a rule (thin) reaches nothing.
      const g = Math.max(gap, Math.round(0.4 * Math.max(Math.min(A.x1 - A.x0, A.y1 - A.y0), Math.min(B.x1 - B.x0, B.y1 - B.y0))));
      if (A.x0 - g <= B.x1 && B.x0 - g <= A.x1 && A.y0 - g <= B.y1 && B.y0 - g <= A.y1) parent[find(parent, a)] = find(parent, b);
    }
  }
  const groups = groupsOf(drawing, parent);
  const scoreOf = (members: Comp[]) => {
    const b = boxOf(members);
    let ink = 0;
    let cells = 0;
    for (const c of members) {
      ink += c.ink;
      cells += c.cells;
    }
    const bw = b.x1 - b.x0 + 1;
    const bh = b.y1 - b.y0 + 1;
    // Compact, contrasting, large drawings first: a rule or a border line is long and thin, and a solid
    // block (a photograph's place, a panel) has no drawing to compare.
    const compact = 0.4 + (0.6 * Math.min(bw, bh)) / Math.max(bw, bh);
    const solid = cells >= 0.92 * bw * bh;
    // A solid block of one flat tone (a button, a banner, a picture's place) is no drawing at all: not a candidate.
    if (solid && flat(cell, gw, b)) return { members, b, bw, bh, score: 0 };
    return { members, b, bw, bh, score: (ink / Math.max(1, totalInk)) * compact * (solid ? 0.4 : 1) };
  };
  const fits = (g: { bw: number; bh: number; score: number }) => g.score > 0 && g.bw >= 4 && g.bh >= 4 && g.bw * g.bh >= allArea * 0.01;
  const scored = [...groups.values()]
    .map(scoreOf)
    .filter(fits)
    .sort((x, y) => y.score - x.score);
  // A group's crop (its own components, `own`, kept; every other one's ink painted out), scored as the group.
  const regionOf = (g: ReturnType<typeof scoreOf>, own: Set<number>): Region | null => {
    const region = cut(d, f, gw, label, comps, own, g.b, bg);
    return region && { ...region, score: Math.round(g.score * 1000) / 1000 };
  };
  // One line of two inks is a wordmark in its brand's colour beside a name in black (AMD Nova Labs): its part.
  const oneLine = (): Region[] => {
    const run = inkApart(kept);
    const g = run && scoreOf(run);
    if (!run || !g || !fits(g) || g.bw * g.bh >= WHOLE * allArea) return [];
    const region = regionOf(g, new Set(run.map((c) => comps.indexOf(c))));
    return region ? [region] : [];
  };
  // A dominant group is the image itself (a clean logo, perhaps with its caption): the whole search covers it,
  // unless it is such a line. With no drawing at all, lettering may still be the logo (a wordmark on a label):
  // the lines below look.
  if (scored.length && scored[0].bw * scored[0].bh >= WHOLE * allArea) return oneLine();
  // So is drawing that fills its box, without words beside it: a logo of several parts, close together. A page
  // holding a logo is mostly empty between its drawings.
  const parts = scored.reduce((sum, g) => sum + g.bw * g.bh, 0);
  if (!kept.some((c) => c.text) && allArea < SPARSE * parts) return oneLine();
  // Parts of one logo may lie further apart than its strokes are thick (three bars, a pair of braces): a wider
  // grouping that joins several of the groups above is a candidate too, with what lies inside its box (a face's
  // eyes read as a word).
  const rootOf = new Map<Comp, number>(drawing.map((c, k) => [c, find(parent, k)]));
  for (const members of widerGroups(drawing, gap)) {
    if (new Set(members.map((c) => rootOf.get(c))).size < 2) continue;
    const box = boxOf(members);
    const within = kept.filter((c) => {
      const cx = (c.x0 + c.x1) / 2;
      const cy = (c.y0 + c.y1) / 2;
      return cx >= box.x0 && cx <= box.x1 && cy >= box.y0 && cy <= box.y1;
    });
    const g = scoreOf(within);
    if (fits(g)) scored.push(g);
  }
  scored.sort((x, y) => y.score - x.score);
  const best = scored[0]?.score ?? 0;
  const out: Region[] = [];
  // A line of two inks keeps a place whatever else is found: beside a name its coloured part is the likeliest logo,
  // and the drawings found may be the name's own tall letters or the wordmark's first letter alone (hue's h).
  const inks = oneLine();
  const room = MAX_REGIONS - inks.length;
  const take = (g: ReturnType<typeof scoreOf>) => {
    // What lies wholly inside the group's box is the logo's too (a seal's letters, DELL in its ring), not to be erased.
    const own = new Set(g.members.map((c) => comps.indexOf(c)));
    for (const c of kept) if (c.x0 >= g.b.x0 && c.x1 <= g.b.x1 && c.y0 >= g.b.y0 && c.y1 <= g.b.y1) own.add(comps.indexOf(c));
    const region = regionOf(g, own);
    if (region) out.push(region);
  };
  for (const g of scored) {
    if (out.length >= room || g.score < best * 0.15) break;
    if (g.bw * g.bh >= WHOLE * allArea) continue;
    take(g);
  }
  // Lettering is drawing too: a wordmark (AMD, SONY) reads as a line of words. The room the drawings leave goes to
  // the lines of words set larger than the body text (the line of most letters), tallest first.
  for (const line of lines.sort((x, y) => y.h - x.h)) {
    if (out.length >= room || !body || line.h < DISPLAY * body.h) break;
    if (line === body || line.members.every((c) => !c.text)) continue;
    const g = scoreOf(line.members);
    if (!fits(g) || g.bw * g.bh >= WHOLE * allArea) continue;
    take(g);
  }
  const same = (a: Box, b: Box) => a.left === b.left && a.top === b.top && a.width === b.width && a.height === b.height;
  return [...out, ...inks.filter((r) => !out.some((o) => same(o.box, r.box)))];
}

interface Grid {
  /** A cell's side in pixels. */
  f: number;
  gw: number;
  gh: number;
}

/** The grid an image is looked at in, at most GRID cells a side; null when it is too small to hold anything. */
function gridOf(d: { width: number; height: number }): Grid | null {
  const f = Math.max(1, Math.ceil(Math.max(d.width, d.height) / GRID));
  const gw = Math.floor(d.width / f);
  const gh = Math.floor(d.height / f);
  return gw < 8 || gh < 8 ? null : { f, gw, gh };
}

/** The mean of one byte a pixel (`width` pixels a row) over each cell of the grid. */
function cellMeans(px: Buffer, width: number, { f, gw, gh }: Grid): Float32Array {
  // Whole sums first (exact, as the float sums they replace were: below 2^24), a cell's f pixels of a row at a time.
  const sum = new Int32Array(gw * gh);
  for (let y = 0; y < gh * f; y++) {
    const crow = ((y / f) | 0) * gw;
    for (let cx = 0, p = y * width; cx < gw; cx++) {
      let s = 0;
      for (const end = p + f; p < end; p++) s += px[p];
      sum[crow + cx] += s;
    }
  }
  const cell = new Float32Array(gw * gh);
  const area = f * f;
  for (let i = 0; i < cell.length; i++) cell[i] = sum[i] / area;
  return cell;
}

interface Background {
  /** The background's grey at a cell. */
  at(x: number, y: number): number;
  /** How far the border's cells stray from it (median absolute deviation). */
  spread: number;
  /** The share of the border's cells that are background. */
  share: number;
}

/**
 * The background as a plane fitted to the border's cells (least squares, fitted again without the cells
 * far off it): a page lit unevenly darkens to one side, which a single border colour would take for ink.
 */
function background(cell: Float32Array, gw: number, gh: number): Background {
  const pts: [number, number, number][] = [];
  for (let x = 0; x < gw; x++) pts.push([x, 0, cell[x]], [x, gh - 1, cell[(gh - 1) * gw + x]]);
  for (let y = 1; y < gh - 1; y++) pts.push([0, y, cell[y * gw]], [gw - 1, y, cell[y * gw + gw - 1]]);
  // Seeded with the border's commonest grey (ink touching the border is often most of one side), then
  // fitted twice, each time to the border cells near the last fit.
  const bins = new Array(16).fill(0);
  for (const p of pts) bins[Math.min(15, p[2] >> 4)]++;
  const mode = bins.indexOf(Math.max(...bins)) * 16 + 8;
  let plane: (x: number, y: number) => number = () => mode;
  let res = pts.map(([x, y, v]) => Math.abs(v - plane(x, y)));
  let tol = 24;
  for (let round = 0; round < 2; round++) {
    const near = pts.filter((_, i) => res[i] <= tol);
    if (near.length < 8) break;
    plane = fitPlane(near);
    res = pts.map(([x, y, v]) => Math.abs(v - plane(x, y)));
    tol = Math.max(8, 3 * median(near.map(([x, y, v]) => Math.abs(v - plane(x, y)))));
  }
  const near = res.filter((r) => r <= tol);
  return { at: plane, spread: median(near), share: near.length / pts.length };
}

function fitPlane(pts: [number, number, number][]): (x: number, y: number) => number {
  // Normal equations of v = a + b x + c y, solved by Cramer's rule; a flat border gives the mean.
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sv = 0;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  let sxv = 0;
  let syv = 0;
  for (const [x, y, v] of pts) {
    n++;
    sx += x;
    sy += y;
    sv += v;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
    sxv += x * v;
    syv += y * v;
  }
  const det3 = (m: number[]) =>
    m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
  const M = [n, sx, sy, sx, sxx, sxy, sy, sxy, syy];
  const D = det3(M);
  if (!Number.isFinite(D) || Math.abs(D) < 1e-6) {
    const mean = sv / Math.max(1, n);
    return () => mean;
  }
  const a = det3([sv, sx, sy, sxv, sxx, sxy, syv, sxy, syy]) / D;
  const b = det3([n, sv, sy, sx, sxv, sxy, sy, syv, syy]) / D;
  const c = det3([n, sx, sv, sx, sxx, sxv, sy, sxy, syv]) / D;
  return (x, y) => a + b * x + c * y;
}

/** Part of a decoded image, as an image of its own. */
function sub(d: Decoded, b: Box): Decoded {
  const part = (src: Buffer) => {
    const out = Buffer.alloc(b.width * b.height);
    for (let y = 0; y < b.height; y++) src.copy(out, y * b.width, (b.top + y) * d.width + b.left, (b.top + y) * d.width + b.left + b.width);
    return out;
  };
  return { grey: part(d.grey), ...(d.chroma ? { chroma: part(d.chroma) } : {}), width: b.width, height: b.height, source: d.source };
}

/** An image with its uneven light evened out (the border's plane made flat), or null when it holds no ink. */
function evenLight(d: Decoded): Decoded | null {
  const grid = gridOf(d);
  if (!grid) return null;
  const { f, gw, gh } = grid;
  // Each pixel divided before it is added, as this has always done: cellMeans() sums first, which rounds a cell
  // differently by a hair, enough to move a pixel of the evened image by one grey, and these pixels are embedded.
  const cell = new Float32Array(gw * gh);
  for (let y = 0; y < gh * f; y++)
    for (let x = 0; x < gw * f; x++) cell[((y / f) | 0) * gw + ((x / f) | 0)] += d.grey[y * d.width + x] / (f * f);
  const bg = background(cell, gw, gh);
  const level = bg.at(gw / 2, gh / 2);
  let ink = false;
  const grey = Buffer.alloc(d.grey.length);
  for (let y = 0; y < d.height; y++) {
    for (let x = 0; x < d.width; x++) {
      const v = d.grey[y * d.width + x] - bg.at(x / f, y / f) + level;
      if (Math.abs(v - level) > Math.max(INK, 4 * bg.spread)) ink = true;
      grey[y * d.width + x] = Math.max(0, Math.min(255, Math.round(v)));
    }
  }
  grey[0] = Math.max(0, Math.min(255, Math.round(level)));
  return ink ? { ...d, grey } : null;
}

/** Whether the cells inside a box, its edge aside, keep to one grey (within FLAT of their median). */
function flat(cell: Float32Array, gw: number, b: { x0: number; y0: number; x1: number; y1: number }): boolean {
  const v: number[] = [];
  for (let y = b.y0 + 1; y < b.y1; y++) for (let x = b.x0 + 1; x < b.x1; x++) v.push(cell[y * gw + x]);
  if (v.length < 4) return false;
  const m = median(v);
  return median(v.map((x) => Math.abs(x - m))) <= FLAT && v.filter((x) => Math.abs(x - m) > 4 * FLAT).length <= 0.02 * v.length;
}

function boxOf(members: Comp[]): { x0: number; y0: number; x1: number; y1: number } {
  const b = { x0: Number.POSITIVE_INFINITY, y0: Number.POSITIVE_INFINITY, x1: -1, y1: -1 };
  for (const c of members) {
    b.x0 = Math.min(b.x0, c.x0);
    b.y0 = Math.min(b.y0, c.y0);
    b.x1 = Math.max(b.x1, c.x1);
    b.y1 = Math.max(b.y1, c.y1);
  }
  return b;
}

/**
 * Drawing grouped where parts lie within 0.6 of the smaller one's longer side (or `gap`), rules (long, thin lines)
 * left out: they would join everything they run past. Only groups of two or more parts.
 */
function widerGroups(drawing: Comp[], gap: number): Comp[][] {
  const sides = (c: Comp) => [c.x1 - c.x0 + 1, c.y1 - c.y0 + 1];
  const parts = drawing.filter((c) => {
    const [w, h] = sides(c);
    return Math.max(w, h) < 8 * Math.min(w, h);
  });
  const parent = Int32Array.from(parts.keys());
  for (let a = 0; a < parts.length; a++) {
    for (let b = a + 1; b < parts.length; b++) {
      const A = parts[a];
      const B = parts[b];
      const reach = Math.max(gap, Math.round(0.6 * Math.min(Math.max(...sides(A)), Math.max(...sides(B)))));
      const dx = Math.max(A.x0, B.x0) - Math.min(A.x1, B.x1) - 1;
      const dy = Math.max(A.y0, B.y0) - Math.min(A.y1, B.y1) - 1;
      if (Math.max(dx, dy) <= reach) parent[find(parent, a)] = find(parent, b);
    }
  }
  return [...groupsOf(parts, parent).values()].filter((g) => g.length >= 2);
}

/**
 * One line of components (each overlapping the line's middle row) in two inks, the left part's and the right
 * part's apart in lightness (mean differences from the background INK_APART or more apart) or in colour (their
 * chroma to ink ratios COLOUR_APART apart: a blue wordmark beside a black name, both dark): the part with fewer
 * components (the left one when equal), as a wordmark in its own colour beside a name is. Pieces within the line's
 * band that miss its middle row (an E of three bars) are on it; specks (under a tenth of the median component)
 * take no part, and go with the part whose box holds them; small things off the line (a tagline under a mark) are
 * left out, anything larger makes it no line. Null for anything else.
 */
function inkApart(comps: Comp[]): Comp[] | null {
  const size = median(comps.map((c) => c.cells));
  const least = 0.1 * size;
  const major = comps.filter((c) => c.cells >= least);
  const mid = median(major.map((c) => (c.y0 + c.y1) / 2));
  const crossing = major.filter((c) => c.y0 <= mid && c.y1 >= mid);
  if (crossing.length < 2) return null;
  const top = Math.min(...crossing.map((c) => c.y0));
  const bottom = Math.max(...crossing.map((c) => c.y1));
  // Pieces of a letter (an E drawn as three bars) lie within the line's band; anything sizeable off it is not one line.
  const onLine = (c: Comp) => (c.y0 + c.y1) / 2 >= top && (c.y0 + c.y1) / 2 <= bottom;
  if (major.some((c) => !onLine(c) && c.cells >= 0.25 * size)) return null;
  const row = major.filter(onLine).sort((a, b) => a.x0 + a.x1 - b.x0 - b.x1);
  const apart = (v: number[], k: number) => {
    const left = v.slice(0, k);
    const right = v.slice(k);
    return Math.max(Math.min(...right) - Math.max(...left), Math.min(...left) - Math.max(...right));
  };
  const tone = row.map((c) => c.ink / c.cells);
  const colour = row.map((c) => c.chroma / Math.max(1, c.ink));
  for (let k = 1; k < row.length; k++) {
    if (apart(tone, k) < INK_APART && apart(colour, k) < COLOUR_APART) continue;
    const part = k <= row.length - k ? row.slice(0, k) : row.slice(k);
    const b = boxOf(part);
    const specks = comps.filter((c) => c.cells < least && c.x0 >= b.x0 && c.x1 <= b.x1 && c.y0 >= b.y0 && c.y1 <= b.y1);
    return [...part, ...specks];
  }
  return null;
}

/**
 * A dot, a square or a bar: a component filling 85 % of its box, or nearly square and filling 60 %. A word shrunk
 * to one blob is long and fills less of its box than a bar.
 */
function solidShape(c: Comp): boolean {
  const w = c.x1 - c.x0 + 1;
  const h = c.y1 - c.y0 + 1;
  const fill = c.cells / (w * h);
  return fill >= 0.85 || (Math.max(w, h) <= 1.3 * Math.min(w, h) && fill >= 0.6);
}

/**
 * Components in lines of text: two or more of a height (within 2.2×), side by side on one line, a gap
 * under 1.2 heights apart, the line at least 2.5 heights long and its letters no taller than 0.6 of the
 * ink; or four or more making a line at least 4 heights long, however tall (a name as tall as the logo
 * beside it). Words shrunk to the grid often join into one component: a lone one 3.5 times as long as it
 * is high and no taller than an eighth of the ink is a word too. A row of solid shapes of one height (dots,
 * bars), 6 cells or more, is no line by the first rule. In a line, a component half as tall again as its
 * letters' median stays drawing. Marks the letters as text; returns the lines and their letters' height.
 */
function markText(comps: Comp[], inkHeight: number): { members: Comp[]; h: number }[] {
  const letters = comps.filter((c) => {
    const h = c.y1 - c.y0 + 1;
    const w = c.x1 - c.x0 + 1;
    return h >= 2 && h < inkHeight * 0.9 && w / h <= 12;
  });
  letters.sort((a, b) => a.x0 - b.x0);
  const parent = Int32Array.from(letters.keys());
  for (let a = 0; a < letters.length; a++) {
    const A = letters[a];
    const ha = A.y1 - A.y0 + 1;
    for (let b = a + 1; b < letters.length; b++) {
      const B = letters[b];
      const hb = B.y1 - B.y0 + 1;
      const h = Math.max(ha, hb);
      if (B.x0 - A.x1 > 1.2 * h + 1) continue;
      if (h > 2.2 * Math.min(ha, hb) + 1) continue;
      // On one line: their rows overlap by most of the shorter one's height (italic letters may overlap sideways).
      if (Math.min(A.y1, B.y1) - Math.max(A.y0, B.y0) + 1 < 0.6 * Math.min(ha, hb)) continue;
      parent[find(parent, a)] = find(parent, b);
    }
  }
  const lines = groupsOf(letters, parent);
  const out: { members: Comp[]; h: number }[] = [];
  for (const line of lines.values()) {
    const x0 = Math.min(...line.map((c) => c.x0));
    const x1 = Math.max(...line.map((c) => c.x1));
    const h = median(line.map((c) => c.y1 - c.y0 + 1));
    const long = x1 - x0 + 1;
    // Letters are strokes of several heights; a row of solid shapes of one height (dots, bars), large enough to
    // tell, is drawing: a logo of dots.
    const hs = line.map((c) => c.y1 - c.y0 + 1);
    const solid = h >= SOLID_ROW && Math.max(...hs) - Math.min(...hs) <= 1 && line.every(solidShape);
    const words =
      (!solid && line.length >= 2 && long >= 2.5 * h && h <= inkHeight * 0.6) ||
      (line.length >= 4 && long >= 4 * h) ||
      (line.length === 1 && long >= 3.5 * h && h <= inkHeight * 0.12);
    // A logo beside its name may join the line: what stands half as tall again as its letters is not one of them.
    if (!words) continue;
    const letters = line.filter((c) => c.y1 - c.y0 + 1 <= 1.5 * h);
    for (const c of letters) c.text = true;
    out.push({ members: letters, h });
  }
  return out;
}

/**
 * The decoded image cut to a group's box (with a margin), its light evened out against the background's
 * plane, and the ink of every other component near it painted background.
 */
function cut(
  d: Decoded,
  f: number,
  gw: number,
  label: Int32Array,
  comps: Comp[],
  own: Set<number>,
  b: { x0: number; y0: number; x1: number; y1: number },
  bg: Background,
): Omit<Region, 'score'> | null {
  const gh = label.length / gw;
  const margin = Math.max(1, Math.round(0.08 * Math.max(b.x1 - b.x0, b.y1 - b.y0)));
  const cx0 = Math.max(0, b.x0 - margin);
  const cy0 = Math.max(0, b.y0 - margin);
  const cx1 = Math.min(gw - 1, b.x1 + margin);
  const cy1 = Math.min(gh - 1, b.y1 + margin);
  const kw = cx1 - cx0 + 1;
  // A cell is erased when it, or a neighbour, is another component's ink and it is not the group's own.
  const erase = new Uint8Array(kw * (cy1 - cy0 + 1));
  for (let y = cy0; y <= cy1; y++) {
    for (let x = cx0; x <= cx1; x++) {
      const l = label[y * gw + x];
      if (own.has(l)) continue;
      let other = false;
      for (let dy = -1; dy <= 1 && !other; dy++) {
        for (let dx = -1; dx <= 1 && !other; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= gw || ny >= gh) continue;
          const m = label[ny * gw + nx];
          if (m >= 0 && !own.has(m) && comps[m].cells > 0) other = true;
        }
      }
      if (other) erase[(y - cy0) * kw + (x - cx0)] = 1;
    }
  }
  const left = cx0 * f;
  const top = cy0 * f;
  const width = Math.min(d.width - left, kw * f);
  const height = Math.min(d.height - top, (cy1 - cy0 + 1) * f);
  if (width < 8 || height < 8) return null;
  const level = bg.at((cx0 + cx1) / 2, (cy0 + cy1) / 2);
  const grey = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    const src = (top + y) * d.width + left;
    const ky = Math.min(cy1 - cy0, (y / f) | 0) * kw;
    const gy = (top + y) / f;
    for (let x = 0; x < width; x++) {
      const v = erase[ky + Math.min(kw - 1, (x / f) | 0)] ? level : d.grey[src + x] - bg.at((left + x) / f, gy) + level;
      grey[y * width + x] = Math.max(0, Math.min(255, Math.round(v)));
    }
  }
  // The corner is background by construction (the margin), which is what normalisation trims against.
  grey[0] = Math.max(0, Math.min(255, Math.round(level)));
  return { box: { left, top, width, height }, decoded: { grey, width, height, source: d.source } };
}

/**
 * A mark's score over the whole image and its crops: the best of the whole image's similarity and each
 * crop's less REGION_PENALTY, so a crop wins only where it is clearly nearer than the whole image.
 */
export function mergeScores(whole: number | undefined, regions: (number | undefined)[]): number {
  let best = whole ?? Number.NEGATIVE_INFINITY;
  for (const r of regions) if (r !== undefined && r - REGION_PENALTY > best) best = r - REGION_PENALTY;
  return best;
}
