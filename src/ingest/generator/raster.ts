import fs from 'node:fs';
import sharp from 'sharp';

// Alpha masks rasterised once and reused: each simple-icons SVG per size. Logos are then composed from
// masks in plain JS, which costs far less than asking sharp to render an SVG per logo (the words' glyphs
// are masks too: lettering.ts).

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
