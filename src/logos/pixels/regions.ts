import { type Box, MAX_REGIONS } from '../regionScores.ts';
import type { Decoded } from './image.ts';
import { cut, type Region } from './regionCut.ts';
import { evenLight, type Field, flat, inkField, sub } from './regionField.ts';
import { boxOf, type Comp, components, find, groupsOf, inkApart, markText, widerGroups } from './regionShapes.ts';

// Finding the logo in an upload (a page, a label, a letterhead), step by step: before embedding, the decoded image is
// shrunk to a grid, the background estimated from its border and the ink marked (regionField.ts), the ink joined into
// components, lines of text (a row of components of one height, or the word boxes OCR read) set aside, the rest grouped
// where they lie close (regionShapes.ts), and the groups scored by contrast, size and compactness. The best few become
// crops, other drawing in their margins painted out and their light evened (regionCut.ts), that are embedded beside
// the whole image (docs/logos.md, "Finding the logo in an upload").

export type { Region } from './regionCut.ts';

// A group whose box covers this share of all the ink's box is the whole image again: the whole search has it.
const WHOLE = 0.6;
// Without words, drawings count as several things only when their box is this many times the area of their groups' boxes.
const SPARSE = 3;
// A line of words whose letters stand this many times the body text's is display lettering: perhaps a wordmark.
const DISPLAY = 1.1;

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

/** What the steps share: the image, its ink field, its components and those kept, and the box of all the ink. */
interface Scene {
  d: Decoded;
  depth: number;
  field: Field;
  label: Int32Array;
  comps: Comp[];
  /** The components large enough to be drawing, largest first; the first is a panel's candidate. */
  kept: Comp[];
  all: { x0: number; y0: number; x1: number; y1: number };
  allArea: number;
  totalInk: number;
}

interface Scored {
  members: Comp[];
  b: { x0: number; y0: number; x1: number; y1: number };
  bw: number;
  bh: number;
  score: number;
}

type Line = { members: Comp[]; h: number };

function regionsOf(d: Decoded, words: Box[], depth: number): Region[] {
  const field = inkField(d, depth);
  if (!field) return [];
  const s = sceneOf(d, depth, field);
  if (!s) return [];
  const inPanel = panelRegions(s, words);
  if (inPanel) return inPanel;
  if (s.kept.length < 2) return [];
  // One component spanning the image, and not a thin frame around it, is a clean logo (cut in two by its own
  // white, as a badge's letters are).
  const [panel] = s.kept;
  const pw = panel.x1 - panel.x0 + 1;
  const ph = panel.y1 - panel.y0 + 1;
  if (pw * ph >= WHOLE * s.allArea && panel.cells / (pw * ph) >= 0.2) return [];
  const { lines, body } = lettering(s, words);
  return pick(s, drawingGroups(s), lines, body);
}

/** The components kept as drawing (specks and, inside a panel, the panel's own edge left out), and their extent. */
function sceneOf(d: Decoded, depth: number, field: Field): Scene | null {
  const { gw, gh } = field.grid;
  const { label, comps } = components(field);
  // Specks (noise, a JPEG's ringing) are no drawing; the largest 300 are plenty to group.
  const minCells = Math.max(2, Math.round(gw * gh * 0.0004));
  // Inside a panel, what touches its edge is the panel's own (its corners, seen at an angle).
  const edge = (c: Comp) => depth > 0 && (c.x0 === 0 || c.y0 === 0 || c.x1 === gw - 1 || c.y1 === gh - 1);
  const kept = comps
    .filter((c) => c.cells >= minCells && !edge(c))
    .sort((a, b) => b.cells - a.cells)
    .slice(0, 300);
  if (!kept.length) return null;
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
  return { d, depth, field, label, comps, kept, all, allArea, totalInk };
}

/**
 * A panel (a label on a table, a card on a page): one solid component lighter than what it lies on, holding most of
 * the image, clear of its edges. What is on it is looked for inside it, against its own colour; a clean logo on it is
 * its region. A solid badge, darker than its paper, is a logo, not a panel. Null when there is no panel to look in.
 */
function panelRegions({ d, depth, field, kept }: Scene, words: Box[]): Region[] | null {
  const { f, gw, gh } = field.grid;
  const panel = kept[0];
  const pw = panel.x1 - panel.x0 + 1;
  const ph = panel.y1 - panel.y0 + 1;
  const inside = panel.x0 > 0 && panel.y0 > 0 && panel.x1 < gw - 1 && panel.y1 < gh - 1;
  if (depth !== 0 || !inside || panel.lift <= 0 || pw * ph < 0.3 * gw * gh || panel.cells < 0.5 * pw * ph) return null;
  const inset = Math.round(0.06 * Math.min(pw, ph));
  const box = { left: (panel.x0 + inset) * f, top: (panel.y0 + inset) * f, width: (pw - 2 * inset) * f, height: (ph - 2 * inset) * f };
  if (box.width < 32 || box.height < 32) return null;
  const inner = sub(d, box);
  const shifted = words.map((w) => ({ ...w, left: w.left - box.left, top: w.top - box.top }));
  const found = regionsOf(inner, shifted, 1);
  if (found.length) return found.map((r) => ({ ...r, box: { ...r.box, left: r.box.left + box.left, top: r.box.top + box.top } }));
  const whole = evenLight(inner);
  return whole ? [{ box, score: 1, decoded: whole }] : [];
}

/**
 * Lines of words among the components (and those OCR read), marked as text, and the body text's line (the one of
 * most letters). Two or three shapes side by side, larger than the body text, are more likely a logo's parts (a
 * chevron's two halves, a ring's dots) than a word: they stay drawing.
 */
function lettering({ field, kept, all }: Scene, words: Box[]): { lines: Line[]; body: Line | null } {
  const { f } = field.grid;
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
  const body = lines.reduce<Line | null>(
    (b, l) => (!b || l.members.length > b.members.length || (l.members.length === b.members.length && l.h < b.h) ? l : b),
    null,
  );
  // Their logo's middle, which may have joined the body's line, is kept with them when it lies inside their box.
  for (const line of lines) {
    if (body && line !== body && line.members.length <= 3 && line.h >= DISPLAY * body.h) for (const c of line.members) c.text = false;
  }
  return { lines, body };
}

/** Groups: drawing components whose boxes, widened by a gap, touch. A frame around everything groups nothing. */
function drawingGroups({ field, kept, allArea }: Scene) {
  const { gw, gh } = field.grid;
  const panel = kept[0];
  const pw = panel.x1 - panel.x0 + 1;
  const ph = panel.y1 - panel.y0 + 1;
  const drawing = kept.filter((c) => !c.text && !(c === panel && pw * ph >= 0.9 * allArea));
  const parent = Int32Array.from(drawing.keys());
  const gap = Math.max(1, Math.round(Math.max(gw, gh) * 0.03));
  for (let a = 0; a < drawing.length; a++) {
    for (let b = a + 1; b < drawing.length; b++) {
      const A = drawing[a];
      const B = drawing[b];
      // Parts of one logo lie closer than 0.4 of the thicker one's short side: a rule (thin) reaches nothing. Drawn in
      // inks far apart (a red badge beside a blue block on a page) they are two things; the wider grouping below may
      // still join a logo of two colours.
      const g = Math.max(gap, Math.round(0.4 * Math.max(Math.min(A.x1 - A.x0, A.y1 - A.y0), Math.min(B.x1 - B.x0, B.y1 - B.y0))));
      if (!alike(A, B)) continue;
      if (A.x0 - g <= B.x1 && B.x0 - g <= A.x1 && A.y0 - g <= B.y1 && B.y0 - g <= A.y1) parent[find(parent, a)] = find(parent, b);
    }
  }
  return { drawing, parent, gap, groups: groupsOf(drawing, parent) };
}

// Two components are in one ink when their mean lightness against the background, and their mean colourfulness, are
// within these (of 255), and, both coloured (hue axes this long), their hues within HUE_APART.
const TONE_APART = 60;
const CHROMA_APART = 50;
const COLOURED = 20;
const HUE_APART = Math.cos(Math.PI / 4);

/** Whether two components are drawn in inks alike: near in lightness, in colourfulness and, coloured, in hue. */
function alike(A: Comp, B: Comp): boolean {
  if (Math.abs(A.lift / A.cells - B.lift / B.cells) >= TONE_APART) return false;
  if (Math.abs(A.chroma / A.cells - B.chroma / B.cells) >= CHROMA_APART) return false;
  const [ar, ay, br, by] = [A.rg / A.cells, A.yb / A.cells, B.rg / B.cells, B.yb / B.cells];
  const la = Math.hypot(ar, ay);
  const lb = Math.hypot(br, by);
  return la < COLOURED || lb < COLOURED || (ar * br + ay * by) / (la * lb) >= HUE_APART;
}

/** A group scored: compact, contrasting, large drawings first; a solid block of one flat tone is no candidate. */
function scoreOf({ field, totalInk }: Scene, members: Comp[]): Scored {
  const b = boxOf(members);
  let ink = 0;
  let cells = 0;
  for (const c of members) {
    ink += c.ink;
    cells += c.cells;
  }
  const bw = b.x1 - b.x0 + 1;
  const bh = b.y1 - b.y0 + 1;
  // A rule or a border line is long and thin, and a solid block (a photograph's place, a panel) has no drawing to compare.
  const compact = 0.4 + (0.6 * Math.min(bw, bh)) / Math.max(bw, bh);
  const solid = cells >= 0.92 * bw * bh;
  // A solid block of one flat tone (a button, a banner, a picture's place) is no drawing at all: not a candidate.
  if (solid && flat(field.cell, field.grid.gw, b)) return { members, b, bw, bh, score: 0 };
  return { members, b, bw, bh, score: (ink / Math.max(1, totalInk)) * compact * (solid ? 0.4 : 1) };
}

const fits = (s: Scene, g: Scored) => g.score > 0 && g.bw >= 4 && g.bh >= 4 && g.bw * g.bh >= s.allArea * 0.01;

/** A group's crop (its own components, `own`, kept; every other one's ink painted out), scored as the group. */
function regionOf(s: Scene, g: Scored, own: Set<number>): Region | null {
  const region = cut(s.d, s.field.grid.f, s.field.grid.gw, s.label, s.comps, own, g.b, s.field.bg);
  return region && { ...region, score: Math.round(g.score * 1000) / 1000 };
}

/** One line of two inks is a wordmark in its brand's colour beside a name in black (AMD Nova Labs): its part. */
function oneLine(s: Scene): Region[] {
  const run = inkApart(s.kept);
  const g = run && scoreOf(s, run);
  if (!run || !g || !fits(s, g) || g.bw * g.bh >= WHOLE * s.allArea) return [];
  const region = regionOf(s, g, new Set(run.map((c) => s.comps.indexOf(c))));
  return region ? [region] : [];
}

/** The regions chosen among the groups, the wider groupings and the display lettering. */
function pick(s: Scene, grouped: ReturnType<typeof drawingGroups>, lines: Line[], body: Line | null): Region[] {
  const scored = [...grouped.groups.values()]
    .map((m) => scoreOf(s, m))
    .filter((g) => fits(s, g))
    .sort((x, y) => y.score - x.score);
  // A dominant group is the image itself (a clean logo, perhaps with its caption): the whole search covers it,
  // unless it is such a line. With no drawing at all, lettering may still be the logo (a wordmark on a label):
  // the lines below look.
  if (scored.length && scored[0].bw * scored[0].bh >= WHOLE * s.allArea) return oneLine(s);
  // So is drawing that fills its box, without words beside it: a logo of several parts, close together. A page
  // holding a logo is mostly empty between its drawings.
  const parts = scored.reduce((sum, g) => sum + g.bw * g.bh, 0);
  if (!s.kept.some((c) => c.text) && s.allArea < SPARSE * parts) return oneLine(s);
  scored.push(...widerCandidates(s, grouped));
  scored.sort((x, y) => y.score - x.score);
  return choose(s, scored, lines, body);
}

/**
 * Parts of one logo may lie further apart than its strokes are thick (three bars, a pair of braces): a wider grouping
 * that joins several of the groups is a candidate too, with what lies inside its box (a face's eyes read as a word).
 */
function widerCandidates(s: Scene, { drawing, parent, gap }: ReturnType<typeof drawingGroups>): Scored[] {
  const out: Scored[] = [];
  const rootOf = new Map<Comp, number>(drawing.map((c, k) => [c, find(parent, k)]));
  for (const members of widerGroups(drawing, gap)) {
    if (new Set(members.map((c) => rootOf.get(c))).size < 2) continue;
    const box = boxOf(members);
    const within = s.kept.filter((c) => {
      const cx = (c.x0 + c.x1) / 2;
      const cy = (c.y0 + c.y1) / 2;
      return cx >= box.x0 && cx <= box.x1 && cy >= box.y0 && cy <= box.y1;
    });
    const g = scoreOf(s, within);
    if (fits(s, g)) out.push(g);
  }
  return out;
}

const same = (a: Box, b: Box) => a.left === b.left && a.top === b.top && a.width === b.width && a.height === b.height;

/** The best candidates as crops, then display lettering in the room left, then a line of two inks. */
function choose(s: Scene, scored: Scored[], lines: Line[], body: Line | null): Region[] {
  const best = scored[0]?.score ?? 0;
  const out: Region[] = [];
  // A line of two inks keeps a place whatever else is found: beside a name its coloured part is the likeliest logo,
  // and the drawings found may be the name's own tall letters or the wordmark's first letter alone (hue's h).
  const inks = oneLine(s);
  const room = MAX_REGIONS - inks.length;
  const take = (g: Scored) => {
    // What lies wholly inside the group's box is the logo's too (a seal's letters, DELL in its ring), not to be erased.
    const own = new Set(g.members.map((c) => s.comps.indexOf(c)));
    for (const c of s.kept) if (c.x0 >= g.b.x0 && c.x1 <= g.b.x1 && c.y0 >= g.b.y0 && c.y1 <= g.b.y1) own.add(s.comps.indexOf(c));
    const region = regionOf(s, g, own);
    // A wider grouping may come to the same box as a group: one embedding each box.
    if (region && !out.some((o) => same(o.box, region.box))) out.push(region);
  };
  for (const g of scored) {
    if (out.length >= room || g.score < best * 0.15) break;
    if (g.bw * g.bh >= WHOLE * s.allArea) continue;
    take(g);
  }
  // Lettering is drawing too: a wordmark (AMD, SONY) reads as a line of words. The room the drawings leave goes to
  // the lines of words set larger than the body text (the line of most letters), tallest first.
  for (const line of lines.sort((x, y) => y.h - x.h)) {
    if (out.length >= room || !body || line.h < DISPLAY * body.h) break;
    if (line === body || line.members.every((c) => !c.text)) continue;
    const g = scoreOf(s, line.members);
    if (!fits(s, g) || g.bw * g.bh >= WHOLE * s.allArea) continue;
    take(g);
  }
  return [...out, ...inks.filter((r) => !out.some((o) => same(o.box, r.box)))];
}
