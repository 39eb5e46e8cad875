// The ML sidecar's CPU per image search, in process (issue 22's speed): what one sidecar thread does for an
// upload (decode, find regions, normalise and embed the whole image and each region with the served CNN and
// HOG), one upload at a time, on one thread as the sidecar runs (sharp.concurrency(1), onnxruntime one
// thread), CPU of the whole process (process.cpuUsage: sharp's and onnxruntime's threads included), split
// by phase. Uploads of held-out icons: clean logos (five light changes), a page, a photographed label,
// beside another name (bench/logos/pages.ts). It reads no database and starts no server: run it from two
// checkouts one after another to compare them on the same machine.
//
//   nice -n 10 npx tsx bench/logosCpu.ts [--uploads 60] [--rounds 2] [--sharp-cache yes]
//
// --sharp-cache yes turns sharp's operation cache back on after setting sharp up as the threads do, to
// measure what turning it off saves.
import os from 'node:os';
import sharp from 'sharp';
import { loadIcons } from '../models/train/iconSet.ts';
import { planModels } from '../src/logos/models.ts';
import { LogoImage, loadEmbedder, regionImages } from '../src/logos/pixels/embedders.ts';
import * as image from '../src/logos/pixels/image.ts';
import { args } from './lib.ts';
import { type Kind, uploadsByKind } from './logos/scaleUploads.ts';

const a = args();
const perKind = Number(a.get('uploads') ?? 60);
const rounds = Number(a.get('rounds') ?? 2);
const PHASES = ['decode', 'regions', 'normalise', 'cnn', 'hog'] as const;
type Phase = (typeof PHASES)[number];

// As embedThread.ts sets sharp up; a checkout from before sharpForEmbedding() set only one thread a call.
const setUp = (image as { sharpForEmbedding?: () => void }).sharpForEmbedding ?? (() => sharp.concurrency(1));
setUp();
if (a.get('sharp-cache') === 'yes') sharp.cache(true);
const { decodeLogo, LOGO_SIZE } = image;
const { primary, fallback } = planModels(process.env.LOGO_MODEL ?? 'auto');
const main = await loadEmbedder(primary);
const hog = await loadEmbedder(fallback);
const size = primary.input?.size ?? LOGO_SIZE;
const test = (await loadIcons()).filter((i) => i.split === 'test');
const uploads = await uploadsByKind(test, perKind);
const kinds = Object.keys(uploads) as Kind[];

const ms = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** One upload as embedThread.ts handles `/embed?hog=1&regions=1`, each phase's CPU added to `into`. */
async function search(bytes: Buffer, into: Record<Phase, number>): Promise<number> {
  let t = ms();
  const lap = (p: Phase) => {
    const now = ms();
    into[p] += now - t;
    t = now;
  };
  const img = new LogoImage(bytes, await decodeLogo(bytes, { colour: true }));
  lap('decode');
  const regions = regionImages(img);
  lap('regions');
  for (const image of [img, ...regions.map((r) => r.image)]) {
    await image.logoGrey(size);
    await image.logoGrey(LOGO_SIZE);
    lap('normalise');
    await main.embed(image);
    lap('cnn');
    await hog.embed(image);
    lap('hog');
  }
  return 1 + regions.length;
}

const load = [os.loadavg()[0]];
for (const k of kinds) for (const b of uploads[k].slice(0, 5)) await search(b, Object.fromEntries(PHASES.map((p) => [p, 0])) as never);
const totals = Object.fromEntries(kinds.map((k) => [k, { n: 0, images: 0, ...Object.fromEntries(PHASES.map((p) => [p, 0])) }])) as Record<
  Kind,
  Record<Phase | 'n' | 'images', number>
>;
// The kinds interleaved, so the machine's load falls on each alike.
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < perKind; i++) {
    for (const k of kinds) {
      totals[k].images += await search(uploads[k][i], totals[k]);
      totals[k].n++;
    }
  }
}
load.push(os.loadavg()[0]);

const f = (x: number) => x.toFixed(1);
const cache = (sharp.cache() as { items: { max: number } }).items.max > 0 ? 'on' : 'off';
const runs = `${perKind} uploads of each kind × ${rounds}`;
console.log(`${primary.name} + ${fallback.name}; sharp's cache ${cache}; ${runs}; load ${load.map(f).join(' -> ')}`);
console.log(`| upload | images embedded | CPU ms per upload | per image | ${PHASES.join(' | ')} |`);
console.log(`|---|---|---|---|${PHASES.map(() => '---').join('|')}|`);
for (const k of kinds) {
  const t = totals[k];
  const all = PHASES.reduce((s, p) => s + t[p], 0);
  console.log(
    `| ${k} | ${(t.images / t.n).toFixed(2)} | ${f(all / t.n)} | ${f(all / t.images)} | ${PHASES.map((p) => f(t[p] / t.n)).join(' | ')} |`,
  );
}
process.exit(0);
