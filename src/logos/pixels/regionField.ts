import type { Box } from '../regionScores.ts';
import type { Decoded } from './image.ts';
import { clearRules } from './regionRules.ts';

// The first step of finding the logo in an upload (regions.ts): the decoded image looked at in a grid of at most GRID
// cells a side, the background estimated from the border as a plane (a page lit unevenly darkens to one side), and the
// cells that differ from it marked as ink. Also the light of a crop evened out, and whether a block keeps to one tone.

// The grid's longer side: an upload, decoded at most 512 px a side (image.ts), is looked at in cells of 4 px or less.
const GRID = 160;
// A cell is ink when its mean difference from the background passes this (of 255), or the border's own spread.
const INK = 24;
// A cell within this of a block's median grey is of its one tone.
const FLAT = 2;
// Inside a panel (a label), ink is a cell this far from the panel's own grey, or the border's spread.
const INK_PANEL = 14;

/** The median of a list of numbers (0 for none). */
export function median(v: number[]): number {
  if (!v.length) return 0;
  const s = [...v].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** The image as ink: its grid, cells' grey and chroma, the background, each cell's difference from it, and the threshold. */
export interface Field {
  grid: Grid;
  cell: Float32Array;
  sat: Float32Array;
  /** Each cell's mean hue axes (image.ts Decoded.hue, less 128); zeros for a grey image. */
  rg: Float32Array;
  yb: Float32Array;
  bg: Background;
  dev: Float32Array;
  thr: number;
}

/** The ink field of an image, `depth` 1 inside a panel; null when it is too small, or its border mostly ink. */
export function inkField(d: Decoded, depth: number): Field | null {
  const grid = gridOf(d);
  if (!grid) return null;
  const { gw, gh } = grid;
  const cell = cellMeans(d.grey, d.width, grid);
  const sat = d.chroma ? cellMeans(d.chroma, d.width, grid) : new Float32Array(cell.length);
  const axis = (px: Buffer | undefined) => {
    const m = px ? cellMeans(px, d.width, grid) : new Float32Array(cell.length);
    if (px) for (let i = 0; i < m.length; i++) m[i] -= 128;
    return m;
  };
  const rg = axis(d.hue?.rg);
  const yb = axis(d.hue?.yb);
  const bg = background(cell, gw, gh);
  const dev = new Float32Array(cell.length);
  for (let i = 0; i < cell.length; i++) dev[i] = Math.abs(cell[i] - bg.at(i % gw, (i / gw) | 0));
  // Inside a panel its light is even and its colour known: fainter ink counts (a bright green logo is near an
  // off-white label's grey).
  const thr = Math.max(depth > 0 ? INK_PANEL : INK, 4 * bg.spread);
  // A border mostly of ink is a logo cut off or drawn to its edges, not a page holding one.
  if (bg.share < 0.6) return null;
  const field = { grid, cell, sat, rg, yb, bg, dev, thr };
  clearRules(field);
  return field;
}

export interface Grid {
  /** A cell's side in pixels. */
  f: number;
  gw: number;
  gh: number;
}

/** The grid an image is looked at in, at most GRID cells a side; null when it is too small to hold anything. */
export function gridOf(d: { width: number; height: number }): Grid | null {
  const f = Math.max(1, Math.ceil(Math.max(d.width, d.height) / GRID));
  const gw = Math.floor(d.width / f);
  const gh = Math.floor(d.height / f);
  return gw < 8 || gh < 8 ? null : { f, gw, gh };
}

/** The mean of one byte a pixel (`width` pixels a row) over each cell of the grid. */
export function cellMeans(px: Buffer, width: number, { f, gw, gh }: Grid): Float32Array {
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

export interface Background {
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
export function background(cell: Float32Array, gw: number, gh: number): Background {
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
export function sub(d: Decoded, b: Box): Decoded {
  const part = (src: Buffer) => {
    const out = Buffer.alloc(b.width * b.height);
    for (let y = 0; y < b.height; y++) src.copy(out, y * b.width, (b.top + y) * d.width + b.left, (b.top + y) * d.width + b.left + b.width);
    return out;
  };
  return {
    grey: part(d.grey),
    ...(d.chroma ? { chroma: part(d.chroma) } : {}),
    ...(d.hue ? { hue: { rg: part(d.hue.rg), yb: part(d.hue.yb) } } : {}),
    width: b.width,
    height: b.height,
    source: d.source,
  };
}

/** An image with its uneven light evened out (the border's plane made flat), or null when it holds no ink. */
export function evenLight(d: Decoded): Decoded | null {
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
export function flat(cell: Float32Array, gw: number, b: { x0: number; y0: number; x1: number; y1: number }): boolean {
  const v: number[] = [];
  for (let y = b.y0 + 1; y < b.y1; y++) for (let x = b.x0 + 1; x < b.x1; x++) v.push(cell[y * gw + x]);
  if (v.length < 4) return false;
  const m = median(v);
  return median(v.map((x) => Math.abs(x - m))) <= FLAT && v.filter((x) => Math.abs(x - m) > 4 * FLAT).length <= 0.02 * v.length;
}
