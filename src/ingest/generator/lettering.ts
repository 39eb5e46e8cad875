import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import sharp from 'sharp';
import type { Mask } from './raster.ts';

// Words on the demo logos, in Latin and in Devanagari, drawn from the font files of an npm package
// (@fontsource/noto-sans-devanagari, bold), never from fonts the machine may or may not have: fontkit
// shapes the text (Devanagari conjuncts and vowel signs need a shaper) into glyphs and their positions,
// each glyph's outline is rasterised once per size by sharp as a path (no font lookup), and a line is set
// from those masks, straight or round a seal (logos.ts turns each glyph onto the circle).

type Script = 'latin' | 'devanagari';
const require = createRequire(import.meta.url);
const FILES: Record<Script, string> = {
  latin: '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-latin-700-normal.woff2',
  devanagari: '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-700-normal.woff2',
};

interface Glyph {
  id: number;
  bbox: { minX: number; minY: number; maxX: number; maxY: number };
  path: { scale(x: number, y: number): { translate(x: number, y: number): { toSVG(): string } } };
}
interface FontFile {
  unitsPerEm: number;
  layout(text: string): {
    glyphs: Glyph[];
    positions: { xAdvance: number; xOffset: number; yOffset: number }[];
  };
}

const faces = new Map<Script, FontFile>();
function face(script: Script): FontFile {
  let f = faces.get(script);
  if (!f) {
    f = fontkit.openSync(require.resolve(FILES[script])) as unknown as FontFile;
    faces.set(script, f);
  }
  return f;
}

export const scriptOf = (text: string): Script => (/[\u0900-\u097f]/.test(text) ? 'devanagari' : 'latin');

/** A line of text set at `size` px: each glyph's mask and where it goes from the line's left edge and baseline. */
export interface Line {
  width: number;
  /** Pixels above and below the baseline the font reserves (the same for every line of a script and size). */
  ascent: number;
  descent: number;
  /** Each glyph's mask, its top left from the pen's start on the baseline, and its advance's middle (x). */
  glyphs: { mask: Mask; dx: number; dy: number; centre: number }[];
}

const glyphMasks = new Map<string, Promise<{ mask: Mask; x0: number; y0: number } | null>>();

function glyphMask(script: Script, g: Glyph, size: number) {
  const key = `${script}/${g.id}@${size}`;
  let m = glyphMasks.get(key);
  if (!m) {
    m = rasteriseGlyph(face(script), g, size);
    glyphMasks.set(key, m);
  }
  return m;
}

async function rasteriseGlyph(f: FontFile, g: Glyph, size: number) {
  const s = size / f.unitsPerEm;
  const b = g.bbox;
  if (!Number.isFinite(b.minX) || b.maxX <= b.minX) return null; // a space
  const x0 = Math.floor(b.minX * s) - 1;
  const y0 = Math.floor(-b.maxY * s) - 1;
  const w = Math.ceil(b.maxX * s) + 1 - x0;
  const h = Math.ceil(-b.minY * s) + 1 - y0;
  const d = g.path.scale(s, -s).translate(-x0, -y0).toSVG();
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><path d="${d}"/></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
  return { mask: { w: info.width, h: info.height, a: new Uint8Array(data.buffer, data.byteOffset, data.length) }, x0, y0 };
}

// Shaping is independent of size and the same words recur (Zipf), so each text is shaped once; the cache is
// bounded by dropping it whole when it grows large.
const runs = new Map<string, { glyphs: Glyph[]; advances: number[]; dx: number[]; dy: number[] }>();

function shape(text: string) {
  let r = runs.get(text);
  if (!r) {
    const run = face(scriptOf(text)).layout(text);
    r = {
      glyphs: run.glyphs,
      advances: run.positions.map((p) => p.xAdvance),
      dx: run.positions.map((p) => p.xOffset),
      dy: run.positions.map((p) => p.yOffset),
    };
    if (runs.size > 50_000) runs.clear();
    runs.set(text, r);
  }
  return r;
}

/** `text` shaped and set at `size` px (one script: Devanagari if it has any Devanagari letter). */
export async function setLine(text: string, size: number): Promise<Line> {
  const script = scriptOf(text);
  const s = size / face(script).unitsPerEm;
  const run = shape(text);
  const glyphs: Line['glyphs'] = [];
  let pen = 0;
  for (let k = 0; k < run.glyphs.length; k++) {
    const m = await glyphMask(script, run.glyphs[k], size);
    if (m) {
      glyphs.push({
        mask: m.mask,
        dx: Math.round((pen + run.dx[k]) * s) + m.x0,
        dy: Math.round(-run.dy[k] * s) + m.y0,
        centre: (pen + run.advances[k] / 2) * s,
      });
    }
    pen += run.advances[k];
  }
  return {
    width: Math.ceil(pen * s),
    ascent: Math.ceil(size * (script === 'latin' ? 0.78 : 0.95)),
    descent: Math.ceil(size * 0.3),
    glyphs,
  };
}

/** The advance width of `text` at `size` px, without rasterising. */
export function lineWidth(text: string, size: number): number {
  return Math.ceil((shape(text).advances.reduce((a, b) => a + b, 0) * size) / face(scriptOf(text)).unitsPerEm);
}
