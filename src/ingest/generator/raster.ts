import fs from 'node:fs';
import sharp from 'sharp';

// Alpha masks rasterised once and reused: each simple-icons SVG per size, and each glyph of a bold
// sans font per size. Logos are then composed from these masks in plain JS, which costs far less
// than asking sharp to render an SVG per logo.

export interface Mask {
  w: number;
  h: number;
  a: Uint8Array; // row-major alpha, 0..255
}

export const ICON_DIR = new URL('./icons/', import.meta.resolve('simple-icons')).pathname;

export function iconSlugs(): string[] {
  return fs
    .readdirSync(ICON_DIR)
    .filter((f) => f.endsWith('.svg'))
    .map((f) => f.slice(0, -4))
    .sort();
}

const icons = new Map<string, Promise<Mask>>();

export function iconMask(slug: string, size: number): Promise<Mask> {
  const key = `${slug}@${size}`;
  let m = icons.get(key);
  if (!m) {
    m = rasterise(fs.readFileSync(`${ICON_DIR}${slug}.svg`), size, size);
    icons.set(key, m);
  }
  return m;
}

async function rasterise(svg: Buffer, w: number, h: number): Promise<Mask> {
  const { data, info } = await sharp(svg, { density: Math.max(72, Math.ceil((72 * w) / 24) * 2) })
    .resize(w, h, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .ensureAlpha()
    .extractChannel(3)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { w: info.width, h: info.height, a: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

// ---- text --------------------------------------------------------------------------------------

export const CHARSET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789&'.-/";

export interface Font {
  size: number;
  height: number;
  glyphs: Map<string, Mask>;
  space: number;
}

const fonts = new Map<number, Promise<Font>>();

export function font(size: number): Promise<Font> {
  let f = fonts.get(size);
  if (!f) {
    f = buildFont(size);
    fonts.set(size, f);
  }
  return f;
}

async function buildFont(size: number): Promise<Font> {
  const height = Math.ceil(size * 1.25);
  const box = Math.ceil(size * 1.2);
  const glyphs = new Map<string, Mask>();
  await Promise.all(
    [...CHARSET].map(async (ch) => {
      const esc = ch === '&' ? '&amp;' : ch === "'" ? '&apos;' : ch;
      const svg = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${box}" height="${height}"><text x="1" y="${Math.round(size * 0.98)}" ` +
          `font-family="DejaVu Sans" font-weight="bold" font-size="${size}">${esc}</text></svg>`,
      );
      const full = await rasterise(svg, box, height);
      glyphs.set(ch, trimColumns(full));
    }),
  );
  return { size, height, glyphs, space: Math.round(size * 0.35) };
}

/** Crops empty columns so glyphs can be set with even spacing. */
function trimColumns(m: Mask): Mask {
  let left = m.w;
  let right = -1;
  for (let y = 0; y < m.h; y++) {
    for (let x = 0; x < m.w; x++) {
      if (m.a[y * m.w + x] > 24) {
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
  }
  if (right < left) return { w: Math.max(1, Math.round(m.w / 3)), h: m.h, a: new Uint8Array(Math.max(1, Math.round(m.w / 3)) * m.h) };
  const w = right - left + 1;
  const a = new Uint8Array(w * m.h);
  for (let y = 0; y < m.h; y++) a.set(m.a.subarray(y * m.w + left, y * m.w + right + 1), y * w);
  return { w, h: m.h, a };
}

export function textWidth(f: Font, text: string): number {
  let w = 0;
  for (const ch of text) w += (ch === ' ' ? f.space : (f.glyphs.get(ch)?.w ?? f.space)) + Math.max(1, Math.round(f.size * 0.08));
  return w;
}
