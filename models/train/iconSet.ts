import { createHash } from 'node:crypto';
import fs from 'node:fs';
import sharp from 'sharp';
import { ICON_DIR, iconMask, iconSlugs } from '../../src/ingest/generator/raster.ts';
import { hash3 } from '../../src/ingest/generator/rng.ts';

// The simple-icons logos as a data set: every icon, its brand colour, and a deterministic split by
// identity into train / validation / test. Training (models/train/) and the evaluation
// (bench/logos.ts) both take the split from here, so a test icon is never seen in training.

export type Split = 'train' | 'val' | 'test';
export const SPLIT_SEED = 20261125;
/** Percent of identities per split: train 70, validation 10, test 20. */
const CUTS = { train: 70, val: 80 };

export interface Icon {
  slug: string;
  hex: string;
  /** Icons drawn identically (several brands share one picture) share a group and a split. */
  group: string;
  split: Split;
}

/** Brand colours from the package's own data file. */
function brandColours(): Map<string, string> {
  const dataFile = new URL('../data/simple-icons.json', `file://${ICON_DIR}`).pathname;
  const list = JSON.parse(fs.readFileSync(dataFile, 'utf8')) as { title: string; hex: string; slug?: string }[];
  const out = new Map<string, string>();
  for (const i of list) if (i.slug) out.set(i.slug, i.hex);
  return out;
}

/** Every icon with its identity group and split; groups are found from 32-px renders. */
export async function loadIcons(): Promise<Icon[]> {
  const hex = brandColours();
  const slugs = iconSlugs();
  const groups = new Map<string, string>();
  const out: Icon[] = [];
  for (const slug of slugs) {
    const m = await iconMask(slug, 32);
    const key = createHash('sha256').update(m.a).digest('hex').slice(0, 16);
    if (!groups.has(key)) groups.set(key, slug);
    const group = groups.get(key)!;
    const h = hash3(SPLIT_SEED, parseInt(createHash('sha256').update(group).digest('hex').slice(0, 8), 16), 1) % 100;
    const split: Split = h < CUTS.train ? 'train' : h < CUTS.val ? 'val' : 'test';
    out.push({ slug, hex: hex.get(slug) ?? '000000', group, split });
  }
  return out;
}

/** The icon drawn in its brand colour (black when that is too light to see) on white, as a PNG. */
export async function renderIcon(icon: Icon, size: number): Promise<Buffer> {
  const m = await iconMask(icon.slug, size);
  let [r, g, b] = [0, 2, 4].map((k) => parseInt(icon.hex.slice(k, k + 2), 16));
  if (0.299 * r + 0.587 * g + 0.114 * b > 200) [r, g, b] = [0, 0, 0];
  const px = Buffer.alloc(size * size * 3, 255);
  const pad = { x: Math.floor((size - m.w) / 2), y: Math.floor((size - m.h) / 2) };
  for (let y = 0; y < m.h; y++) {
    for (let x = 0; x < m.w; x++) {
      const a = m.a[y * m.w + x];
      if (!a) continue;
      const p = ((y + pad.y) * size + x + pad.x) * 3;
      px[p] = (255 * (255 - a) + r * a) / 255;
      px[p + 1] = (255 * (255 - a) + g * a) / 255;
      px[p + 2] = (255 * (255 - a) + b * a) / 255;
    }
  }
  return sharp(px, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
}
