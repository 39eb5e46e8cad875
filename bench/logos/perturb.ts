import sharp from 'sharp';
import type { Icon } from '../../models/train/iconSet.ts';
import { iconMask } from '../../src/ingest/generator/raster.ts';
import { hash3 } from '../../src/ingest/generator/rng.ts';

// The evaluation's query images: a held-out icon changed the ways a copied or adapted logo is
// changed. Written with sharp and plain pixel loops, independently of the training script's
// augmentations; the added text uses DejaVu Serif Bold Italic, a face training never saw.

export const PERTURBATIONS = [
  'colour',
  'scale_offset',
  'jpeg_q25',
  'rotate_5',
  'text',
  'background',
  'crop_10',
  'mirror',
  'perspective',
  'combo_3',
] as const;
export type Perturbation = (typeof PERTURBATIONS)[number];

type RGB = [number, number, number];
const SIZE = 160;
const PALETTE: RGB[] = [
  [200, 16, 46],
  [0, 82, 147],
  [0, 122, 61],
  [255, 140, 0],
  [106, 27, 154],
  [0, 0, 0],
  [121, 85, 72],
  [0, 150, 136],
];
const PAPERS: RGB[] = [
  [255, 236, 160],
  [20, 30, 60],
  [220, 240, 255],
  [60, 60, 60],
];
const WORDS = [
  'Sunrise Foods',
  'Royal Traders',
  'Shree Balaji',
  'Golden Harvest',
  'Blue Ocean Ltd',
  'Nova Labs',
  'Kiran & Sons',
  'Metro Mart',
];

const rgbOf = (hex: string): RGB => [0, 2, 4].map((k) => parseInt(hex.slice(k, k + 2), 16)) as RGB;
const lum = (c: RGB) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];

function brand(icon: Icon): RGB {
  const c = rgbOf(icon.hex);
  return lum(c) > 200 ? [0, 0, 0] : c;
}

/** An RGB canvas with the icon composited at (x, y) in `ink`. */
async function canvas(
  icon: Icon,
  o: { w?: number; h?: number; size: number; x: number; y: number; ink: RGB; paper: RGB },
): Promise<{ px: Buffer; w: number; h: number }> {
  const w = o.w ?? SIZE;
  const h = o.h ?? SIZE;
  const px = Buffer.alloc(w * h * 3);
  for (let p = 0; p < w * h; p++) px.set(o.paper, p * 3);
  const m = await iconMask(icon.slug, o.size);
  for (let y = 0; y < m.h; y++) {
    for (let x = 0; x < m.w; x++) {
      const a = m.a[y * m.w + x];
      const X = o.x + x;
      const Y = o.y + y;
      if (!a || X < 0 || Y < 0 || X >= w || Y >= h) continue;
      const p = (Y * w + X) * 3;
      for (let c = 0; c < 3; c++) px[p + c] = (px[p + c] * (255 - a) + o.ink[c] * a) / 255;
    }
  }
  return { px, w, h };
}

const raw = (c: { px: Buffer; w: number; h: number }) => sharp(c.px, { raw: { width: c.w, height: c.h, channels: 3 } });
const centred = (icon: Icon, ink: RGB, paper: RGB = [255, 255, 255]) => canvas(icon, { size: 128, x: 16, y: 16, ink, paper });

/** A different colour from the brand's: the first of the palette far enough from it. */
function otherInk(icon: Icon): RGB {
  const b = brand(icon);
  const k = hash3(7, icon.slug.length, icon.slug.charCodeAt(0)) % PALETTE.length;
  for (let i = 0; i < PALETTE.length; i++) {
    const c = PALETTE[(k + i) % PALETTE.length];
    if (Math.abs(c[0] - b[0]) + Math.abs(c[1] - b[1]) + Math.abs(c[2] - b[2]) > 150) return c;
  }
  return [200, 16, 46];
}

/** Keystone: the top edge narrowed by 18 % each side, by inverse mapping with bilinear sampling. */
function perspective(src: { px: Buffer; w: number; h: number }, paper: RGB): { px: Buffer; w: number; h: number } {
  const { w, h } = src;
  const out = Buffer.alloc(w * h * 3);
  const k = 0.18;
  for (let y = 0; y < h; y++) {
    const t = y / (h - 1);
    const inset = k * (1 - t) * w;
    const span = w - 2 * inset;
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 3;
      const sx = ((x - inset) / span) * (w - 1);
      const sy = t ** 1.15 * (h - 1);
      if (sx < 0 || sx > w - 1) {
        out.set(paper, o);
        continue;
      }
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const x1 = Math.min(w - 1, x0 + 1);
      const y1 = Math.min(h - 1, y0 + 1);
      const fx = sx - x0;
      const fy = sy - y0;
      for (let c = 0; c < 3; c++) {
        const a = src.px[(y0 * w + x0) * 3 + c] * (1 - fx) + src.px[(y0 * w + x1) * 3 + c] * fx;
        const b = src.px[(y1 * w + x0) * 3 + c] * (1 - fx) + src.px[(y1 * w + x1) * 3 + c] * fx;
        out[o + c] = a * (1 - fy) + b * fy;
      }
    }
  }
  return { px: out, w, h };
}

/** The query image for one held-out icon and one perturbation (PNG, or JPEG where that is the point). */
export async function perturb(icon: Icon, kind: Perturbation): Promise<Buffer> {
  const ink = brand(icon);
  const pick = (n: number, salt: number) => hash3(11, salt, icon.slug.length * 131 + icon.slug.charCodeAt(icon.slug.length - 1)) % n;
  switch (kind) {
    case 'colour':
      return raw(await centred(icon, otherInk(icon)))
        .png()
        .toBuffer();
    case 'scale_offset': {
      const size = Math.round(SIZE * 0.55);
      const dx = pick(2, 1) ? 1 : -1;
      const dy = pick(2, 2) ? 1 : -1;
      return raw(
        await canvas(icon, {
          size,
          x: Math.round((SIZE - size) / 2 + dx * 28),
          y: Math.round((SIZE - size) / 2 + dy * 22),
          ink,
          paper: [255, 255, 255],
        }),
      )
        .png()
        .toBuffer();
    }
    case 'jpeg_q25':
      return raw(await centred(icon, ink))
        .resize(120, 120)
        .jpeg({ quality: 25 })
        .toBuffer();
    case 'rotate_5':
      return raw(await centred(icon, ink))
        .rotate(5, { background: '#ffffff' })
        .png()
        .toBuffer();
    case 'text': {
      const c = await canvas(icon, { w: SIZE + 80, h: SIZE + 44, size: 128, x: 56, y: 12, ink, paper: [255, 255, 255] });
      const word = WORDS[pick(WORDS.length, 3)];
      const svg =
        `<svg xmlns="http://www.w3.org/2000/svg" width="${c.w}" height="44"><text x="${c.w / 2}" y="32" text-anchor="middle" ` +
        `font-family="DejaVu Serif" font-weight="bold" font-style="italic" font-size="26" fill="rgb(${ink.join(',')})">` +
        `${word.replace('&', '&amp;')}</text></svg>`;
      return raw(c)
        .composite([{ input: Buffer.from(svg), left: 0, top: c.h - 46 }])
        .png()
        .toBuffer();
    }
    case 'background': {
      const paper = PAPERS[pick(PAPERS.length, 4)];
      const fg: RGB = lum(paper) < 128 ? [255, 255, 255] : lum(ink) > 150 ? [0, 0, 0] : ink;
      return raw(await centred(icon, fg, paper))
        .png()
        .toBuffer();
    }
    case 'crop_10': {
      const c = await canvas(icon, { size: SIZE, x: 0, y: 0, ink, paper: [255, 255, 255] });
      const cut = Math.round(SIZE * 0.1);
      const side = pick(4, 5);
      const box = [
        { left: cut, top: 0 },
        { left: 0, top: cut },
        { left: 0, top: 0 },
        { left: 0, top: 0 },
      ][side];
      const width = side === 2 ? SIZE - cut : side === 0 ? SIZE - cut : SIZE;
      const height = side === 3 ? SIZE - cut : side === 1 ? SIZE - cut : SIZE;
      return raw(c)
        .extract({ ...box, width, height })
        .png()
        .toBuffer();
    }
    case 'mirror':
      return raw(await centred(icon, ink))
        .flop()
        .png()
        .toBuffer();
    case 'perspective':
      return raw(perspective(await centred(icon, ink), [255, 255, 255]))
        .png()
        .toBuffer();
    case 'combo_3': {
      const rotated = await raw(await centred(icon, otherInk(icon)))
        .rotate(5, { background: '#ffffff' })
        .png()
        .toBuffer();
      return sharp(rotated).resize(120, 120, { fit: 'contain', background: '#ffffff' }).jpeg({ quality: 25 }).toBuffer();
    }
  }
}
