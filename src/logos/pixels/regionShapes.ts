import { type Field, median } from './regionField.ts';

// The shapes of an upload's ink (regions.ts): its cells joined into connected components, components in lines of
// text told apart, drawing grouped where its parts lie close, and a line of two inks (a wordmark in its brand's colour
// beside a name in black) found.

// A line's two parts are in two inks when their cells' mean differences from the background stand this far apart.
const INK_APART = 30;
// ... or their chroma to ink ratios this far: black ink has none, a dark blue 0.4-0.9, a bright colour over 1.
const COLOUR_APART = 0.25;
// Lines of shapes this many cells high or more, each filling most of its box, are dots and bars, not letters.
const SOLID_ROW = 6;

export interface Comp {
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
  /** The sums of its cells' hue axes (regionField.ts Field.rg, .yb). */
  rg: number;
  yb: number;
  text: boolean;
}

/** The ink cells joined into connected components (8-connected): each cell's component (-1: none) and the components. */
export function components({ grid, cell, sat, rg, yb, bg, dev, thr }: Field): { label: Int32Array; comps: Comp[] } {
  const { gw, gh } = grid;
  const label = new Int32Array(cell.length).fill(-1);
  const comps: Comp[] = [];
  const stack: number[] = [];
  for (let i = 0; i < cell.length; i++) {
    if (label[i] >= 0 || dev[i] <= thr) continue;
    const c: Comp = { x0: gw, y0: gh, x1: -1, y1: -1, cells: 0, ink: 0, lift: 0, chroma: 0, rg: 0, yb: 0, text: false };
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
      c.rg += rg[p];
      c.yb += yb[p];
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
  return { label, comps };
}

export function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

/** Components by the root of their union-find set (`parent` indexed as `comps`), in their order. */
export function groupsOf(comps: Comp[], parent: Int32Array): Map<number, Comp[]> {
  const groups = new Map<number, Comp[]>();
  comps.forEach((c, i) => {
    const r = find(parent, i);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r)!.push(c);
  });
  return groups;
}

export function boxOf(members: Comp[]): { x0: number; y0: number; x1: number; y1: number } {
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
export function widerGroups(drawing: Comp[], gap: number): Comp[][] {
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
export function inkApart(comps: Comp[]): Comp[] | null {
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
export function markText(comps: Comp[], inkHeight: number): { members: Comp[]; h: number }[] {
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
