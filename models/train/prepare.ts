// Training data for the logo embedder, written for models/train/train.py:
//   icons.u8   every simple-icons icon as a 112×112 alpha mask (row-major, one byte per pixel)
//   texts.u8   text lines in the training fonts, as 28×192 alpha masks (added to logos as a distractor)
//   meta.json  slug, identity group and split of each icon, and the array shapes
//   sets.u8, sets-ink.u8  icons of the npm icon sets learnt or validated on (conceptSet.ts: roles train
//              and val), 112×112 alpha and ink grey; meta.json's `sets` names each one's set, concept and role
// Usage: npx tsx models/train/prepare.ts [outDir=var/logo-train]
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { iconMask } from '../../src/ingest/generator/raster.ts';
import { Rng } from '../../src/ingest/generator/rng.ts';
import { conceptIcons, iconLayers } from './conceptSet.ts';
import { loadIcons } from './iconSet.ts';

const ICON = 112;
const TEXT_H = 28;
const TEXT_W = 192;
const TEXTS = 1536;
// The evaluation adds its text in DejaVu Serif Bold Italic: a face these never use.
export const TRAINING_FONTS = [
  { family: 'DejaVu Sans', weight: 'bold', style: 'normal' },
  { family: 'DejaVu Sans', weight: 'normal', style: 'normal' },
  { family: 'DejaVu Sans Condensed', weight: 'bold', style: 'normal' },
  { family: 'DejaVu Sans Mono', weight: 'bold', style: 'normal' },
  { family: 'DejaVu Sans', weight: 'normal', style: 'oblique' },
];

async function textMask(text: string, font: (typeof TRAINING_FONTS)[number], size: number): Promise<Uint8Array> {
  const esc = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${TEXT_W * 2}" height="${TEXT_H * 2}">` +
    `<text x="2" y="${Math.round(TEXT_H * 1.4)}" font-family="${font.family}" ` +
    `font-weight="${font.weight}" font-style="${font.style}" font-size="${size * 2}">${esc}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .ensureAlpha()
    .extractChannel(3)
    .resize(TEXT_W, TEXT_H, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.width !== TEXT_W || info.height !== TEXT_H) throw new Error('unexpected text mask size');
  return new Uint8Array(data);
}

function randomText(r: Rng): string {
  const words = 1 + r.int(3);
  const out: string[] = [];
  for (let w = 0; w < words; w++) {
    const len = 2 + r.int(8);
    let s = '';
    for (let k = 0; k < len; k++) s += String.fromCharCode(65 + r.int(26));
    out.push(r.chance(0.3) ? s[0] + s.slice(1).toLowerCase() : s);
  }
  return out.join(' ');
}

async function main(): Promise<void> {
  const out = path.resolve(process.argv[2] ?? 'var/logo-train');
  fs.mkdirSync(out, { recursive: true });
  const icons = await loadIcons();
  const buf = Buffer.alloc(icons.length * ICON * ICON);
  for (let i = 0; i < icons.length; i++) {
    const m = await iconMask(icons[i].slug, ICON);
    buf.set(m.a, i * ICON * ICON);
  }
  fs.writeFileSync(path.join(out, 'icons.u8'), buf);
  const r = new Rng(7, 0, 0);
  const texts = Buffer.alloc(TEXTS * TEXT_H * TEXT_W);
  for (let t = 0; t < TEXTS; t++) {
    texts.set(await textMask(randomText(r), r.pick(TRAINING_FONTS), 14 + r.int(8)), t * TEXT_H * TEXT_W);
  }
  fs.writeFileSync(path.join(out, 'texts.u8'), texts);
  // Concept training (v2): the set icons training may read, never the held-out sets, concepts or distractors.
  const sets = conceptIcons().filter((i) => i.role === 'train' || i.role === 'val');
  const alpha = Buffer.alloc(sets.length * ICON * ICON);
  const ink = Buffer.alloc(sets.length * ICON * ICON);
  for (let i = 0; i < sets.length; i++) {
    const l = await iconLayers(sets[i], ICON);
    alpha.set(l.alpha, i * ICON * ICON);
    ink.set(l.ink, i * ICON * ICON);
  }
  fs.writeFileSync(path.join(out, 'sets.u8'), alpha);
  fs.writeFileSync(path.join(out, 'sets-ink.u8'), ink);
  const counts = { train: 0, val: 0, test: 0 };
  for (const i of icons) counts[i.split]++;
  fs.writeFileSync(
    path.join(out, 'meta.json'),
    JSON.stringify({
      icon: ICON,
      text: [TEXT_H, TEXT_W],
      texts: TEXTS,
      counts,
      icons: icons.map(({ slug, group, split }) => ({ slug, group, split })),
      sets: sets.map(({ key, set, colour, concept, role }) => ({ key, set, colour, concept, role })),
    }),
  );
  console.log(`${icons.length} icons (${JSON.stringify(counts)}), ${sets.length} set icons, ${TEXTS} text lines -> ${out}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
