import sharp from 'sharp';
import type { Icon } from '../../models/train/iconSet.ts';
import { iconMask } from '../../src/ingest/generator/raster.ts';
import { hash3 } from '../../src/ingest/generator/rng.ts';

// Uploads as users have them (issue 22): a held-out icon on a larger page among other drawing and a
// line of text, on a photographed label, cropped by 30 %, and beside another name. Written with sharp and
// plain pixel loops, deterministic per icon; the words use DejaVu Serif Bold Italic, as perturb.ts does.

export const UPLOADS = ['page', 'photo', 'crop_30', 'beside_name'] as const;
export type Upload = (typeof UPLOADS)[number];

type RGB = [number, number, number];
const NAMES = ['Sunrise Foods Pvt Ltd', 'Royal Traders & Co', 'Shree Balaji Agencies', 'Golden Harvest Mills', 'Metro Mart Stores'];
const OTHER = ['Kiran & Sons', 'Nova Labs', 'Blue Ocean', 'Vijay Textiles', 'Anand Dairy'];

const rgbOf = (hex: string): RGB => [0, 2, 4].map((k) => parseInt(hex.slice(k, k + 2), 16)) as RGB;
const lum = (c: RGB) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
const ink = (icon: Icon): RGB => (lum(rgbOf(icon.hex)) > 200 ? [0, 0, 0] : rgbOf(icon.hex));
const rgb = (c: RGB) => `rgb(${c.join(',')})`;
const esc = (s: string) => s.replace(/&/g, '&amp;');

/** The icon as an RGBA PNG of `size` px in `colour`. */
async function iconPng(icon: Icon, size: number, colour: RGB): Promise<{ png: Buffer; w: number; h: number }> {
  const m = await iconMask(icon.slug, size);
  const px = Buffer.alloc(m.w * m.h * 4);
  for (let i = 0; i < m.w * m.h; i++) px.set([...colour, m.a[i]], i * 4);
  return {
    png: await sharp(px, { raw: { width: m.w, height: m.h, channels: 4 } })
      .png()
      .toBuffer(),
    w: m.w,
    h: m.h,
  };
}

function text(w: number, h: number, x: number, y: number, size: number, words: string, colour: RGB, anchor = 'start'): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><text x="${x}" y="${y}" text-anchor="${anchor}" ` +
      `font-family="DejaVu Serif" font-weight="bold" font-style="italic" font-size="${size}" fill="${rgb(colour)}">` +
      `${esc(words)}</text></svg>`,
  );
}

/** The query image of one held-out icon for one kind of upload. */
export async function upload(icon: Icon, kind: Upload): Promise<Buffer> {
  const seed = icon.slug.length * 131 + icon.slug.charCodeAt(0);
  const pick = (n: number, salt: number) => hash3(17, salt, seed) % n;
  const colour = ink(icon);
  switch (kind) {
    case 'page': {
      // A 640 × 480 page: the logo (150 px, under 8 % of the page; with its margin well under 30 %) in one corner,
      // a grey picture block, a rule, a ring of dots and a line of words elsewhere.
      const W = 640;
      const H = 480;
      const right = pick(2, 1) === 1;
      const lg = await iconPng(icon, 150, colour);
      const lx = right ? W - 40 - lg.w : 40;
      const bx = right ? 40 : W - 260;
      const dots = Array.from({ length: 8 }, (_, i) => {
        const a = (i / 8) * 2 * Math.PI;
        return `<circle cx="${(right ? 140 : W - 140) + Math.cos(a) * 40}" cy="${390 + Math.sin(a) * 40}" r="9" fill="#555"/>`;
      }).join('');
      const shapes = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">` +
          `<rect x="${bx}" y="40" width="220" height="150" fill="#8a8f99"/>` +
          `<rect x="40" y="250" width="${W - 80}" height="6" fill="#222"/>${dots}</svg>`,
      );
      return sharp({ create: { width: W, height: H, channels: 3, background: '#ffffff' } })
        .composite([
          { input: shapes, left: 0, top: 0 },
          { input: lg.png, left: lx, top: 40 },
          { input: text(W, 60, W / 2, 40, 30, NAMES[pick(NAMES.length, 2)], [30, 30, 30], 'middle'), left: 0, top: 275 },
        ])
        .png()
        .toBuffer();
    }
    case 'beside_name': {
      // The logo with another firm's name on its right, as on a letterhead.
      const lg = await iconPng(icon, 120, colour);
      const name = OTHER[pick(OTHER.length, 3)];
      const W = 140 + name.length * 26 + 40;
      return sharp({ create: { width: W, height: 160, channels: 3, background: '#ffffff' } })
        .composite([
          { input: lg.png, left: 20, top: 20 },
          { input: text(W - 160, 80, 0, 55, 40, name, [20, 20, 20]), left: 160, top: 40 },
        ])
        .png()
        .toBuffer();
    }
    case 'crop_30': {
      // The logo drawn to fill its image, 30 % of it cut off one side.
      const size = 160;
      const lg = await iconPng(icon, size, colour);
      const full = await sharp({ create: { width: size, height: size, channels: 3, background: '#ffffff' } })
        .composite([{ input: lg.png, left: Math.floor((size - lg.w) / 2), top: Math.floor((size - lg.h) / 2) }])
        .png()
        .toBuffer();
      const cut = Math.round(size * 0.3);
      const side = pick(4, 4);
      const box = [
        { left: cut, top: 0, width: size - cut, height: size },
        { left: 0, top: cut, width: size, height: size - cut },
        { left: 0, top: 0, width: size - cut, height: size },
        { left: 0, top: 0, width: size, height: size - cut },
      ][side];
      return sharp(full).extract(box).png().toBuffer();
    }
    case 'photo':
      return photo(icon, colour, NAMES[pick(NAMES.length, 5)], pick(2, 6));
  }
}

/**
 * A label photographed: the logo and its firm's name on an off-white label lying on a darker table, seen
 * at an angle (the top edge narrowed), out of focus, lit from one side, with sensor noise, saved as JPEG.
 */
async function photo(icon: Icon, colour: RGB, name: string, side: number): Promise<Buffer> {
  const LW = 360;
  const LH = 300;
  const lg = await iconPng(icon, 170, colour);
  const label = await sharp({ create: { width: LW, height: LH, channels: 3, background: { r: 244, g: 240, b: 228 } } })
    .composite([
      { input: lg.png, left: Math.round((LW - lg.w) / 2), top: 24 },
      { input: text(LW, 50, LW / 2, 34, 26, name, [40, 40, 40], 'middle'), left: 0, top: 222 },
    ])
    .removeAlpha()
    .raw()
    .toBuffer();
  const W = 480;
  const H = 400;
  const out = Buffer.alloc(W * H * 3);
  const table: RGB = [96, 84, 70];
  // Inverse mapping of a keystone: the label's top edge is 75 % of its bottom's width on the page.
  const ox = (W - LW) / 2;
  const oy = (H - LH) / 2;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 3;
      const t = (y - oy) / LH;
      const inset = 0.125 * (1 - t) * LW;
      const sx = ((x - ox - inset) / (LW - 2 * inset)) * (LW - 1);
      const sy = t * (LH - 1);
      let c: number[] = table;
      if (t >= 0 && t <= 1 && sx >= 0 && sx <= LW - 1) {
        const p = (Math.round(sy) * LW + Math.round(sx)) * 3;
        c = [label[p], label[p + 1], label[p + 2]];
      }
      // Light falls off across the page, to 65 % on the far side.
      const light = 1 - 0.35 * (side ? x / W : 1 - x / W);
      const noise = (hash3(y, x, 99) % 25) - 12;
      for (let k = 0; k < 3; k++) out[o + k] = Math.max(0, Math.min(255, c[k] * light + noise));
    }
  }
  return sharp(out, { raw: { width: W, height: H, channels: 3 } })
    .blur(1.2)
    .jpeg({ quality: 60 })
    .toBuffer();
}
