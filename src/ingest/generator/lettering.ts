import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import sharp from 'sharp';
import type { Mask } from './raster.ts';

// Words on the demo logos, in Latin and in Devanagari, drawn from the font files of an npm package
// (@fontsource/noto-sans-devanagari, bold), never from fonts the machine may or may not have: fontkit
// shapes the text (Devanagari conjuncts and vowel signs need a shaper) into glyphs and their positions,
// each glyph's outline is rasterised once per size by sharp as a path (no font lookup), and a line is set
// from those masks. Arc text (seals) is drawn as one SVG of glyph paths per logo.

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
  glyphs: { mask: Mask; dx: number; dy: number }[];
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

/** `text` shaped and set at `size` px (one script: Devanagari if it has any Devanagari letter). */
export async function setLine(text: string, size: number): Promise<Line> {
  const script = scriptOf(text);
  const f = face(script);
  const s = size / f.unitsPerEm;
  const run = f.layout(text);
  const glyphs: Line['glyphs'] = [];
  let pen = 0;
  for (let k = 0; k < run.glyphs.length; k++) {
    const p = run.positions[k];
    const m = await glyphMask(script, run.glyphs[k], size);
    if (m) glyphs.push({ mask: m.mask, dx: Math.round((pen + p.xOffset) * s) + m.x0, dy: Math.round(-p.yOffset * s) + m.y0 });
    pen += p.xAdvance;
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
  const f = face(scriptOf(text));
  return Math.ceil((f.layout(text).positions.reduce((a, p) => a + p.xAdvance, 0) * size) / f.unitsPerEm);
}

/**
 * An SVG fragment of `text` set along a circle of radius `r` about (cx, cy), centred on the top (`top`)
 * or the bottom, reading left to right either way, upright at the top and at the foot; the glyphs' baseline
 * is on the circle (inside it at the top, outside at the foot).
 */
export function arcText(text: string, size: number, cx: number, cy: number, r: number, top: boolean, fill: string): string {
  const f = face(scriptOf(text));
  const s = size / f.unitsPerEm;
  const run = f.layout(text);
  const total = run.positions.reduce((a, p) => a + p.xAdvance, 0) * s;
  const parts: string[] = [];
  let pen = -total / 2;
  for (let k = 0; k < run.glyphs.length; k++) {
    const p = run.positions[k];
    const mid = pen + (p.xAdvance * s) / 2;
    // Angle from the top (clockwise) of the glyph's middle; on the bottom arc the text runs the other way.
    const a = top ? mid / r : Math.PI - mid / r;
    const x = cx + r * Math.sin(a);
    const y = cy - r * Math.cos(a);
    const deg = ((top ? a : a - Math.PI) * 180) / Math.PI;
    const d = run.glyphs[k].path
      .scale(s, -s)
      .translate(-(p.xAdvance * s) / 2 + p.xOffset * s, -p.yOffset * s)
      .toSVG();
    if (d) parts.push(`<path transform="translate(${x.toFixed(2)} ${y.toFixed(2)}) rotate(${deg.toFixed(2)})" d="${d}"/>`);
    pen += p.xAdvance * s;
  }
  return `<g fill="${fill}">${parts.join('')}</g>`;
}
