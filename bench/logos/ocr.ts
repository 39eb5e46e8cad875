import sharp from 'sharp';
import { loadIcons } from '../../models/train/iconSet.ts';
import { Rng } from '../../src/ingest/generator/rng.ts';
import { genericWords } from '../../src/ingest/generator/words.ts';
import { decodeLogo } from '../../src/logos/pixels/image.ts';
import type { LogoRepository } from '../../src/logos/repository.ts';
import { LogoTextIndex } from '../../src/logos/textIndex.ts';
import { inkedIcon } from '../../test/helpers/inkedIcon.ts';
import { Ocr } from '../../workers/sidecar/ocr.ts';
import { ocrInput } from '../../workers/sidecar/ocrInput.ts';

// OCR recall: logos drawn with known words (an icon and a brand name under or beside it, in fonts
// and colours of several kinds), read by the sidecar's OCR exactly as indexing reads them, then
// found by text logo search (the word-mark engine over the OCR text) among all of them.

const FONTS = [
  { family: 'DejaVu Sans', weight: 'bold', style: 'normal' },
  { family: 'DejaVu Serif', weight: 'bold', style: 'normal' },
  { family: 'DejaVu Sans Condensed', weight: 'normal', style: 'normal' },
  { family: 'DejaVu Serif', weight: 'bold', style: 'italic' },
];

export interface OcrReport {
  logos: number;
  /** Logos whose every word OCR read exactly. */
  exactRead: number;
  /** Text logo search: the right logo in the first 10 / first for its words. */
  recallAt10: number;
  recallAt1: number;
  msPerLogo: number;
}

async function drawWords(slug: string, words: string, r: Rng): Promise<Buffer> {
  const font = r.pick(FONTS);
  const inline = r.chance(0.4);
  const size = 18 + r.int(10);
  const ink = r.pick([
    [20, 20, 20],
    [180, 20, 40],
    [0, 70, 140],
    [0, 110, 60],
  ]);
  const textW = Math.ceil(words.length * size * 0.72) + 16;
  const w = inline ? 64 + textW + 24 : Math.max(120, textW + 16);
  const h = inline ? 96 : 64 + size + 40;
  const icon = await inkedIcon(slug, 64, ink);
  const tx = inline ? 64 + 20 : w / 2;
  const ty = inline ? h / 2 + size / 3 : 64 + 16 + size;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
    `<text x="${tx}" y="${ty}" ${inline ? '' : 'text-anchor="middle"'} ` +
    `font-family="${font.family}" font-weight="${font.weight}" font-style="${font.style}" font-size="${size}" ` +
    `fill="rgb(${ink.join(',')})">${words}</text></svg>`;
  return sharp({ create: { width: w, height: h, channels: 3, background: '#ffffff' } })
    .composite([
      { input: icon.png, left: inline ? 12 : Math.round((w - 64) / 2), top: inline ? 16 : 8 },
      { input: Buffer.from(svg), left: 0, top: 0 },
    ])
    .png()
    .toBuffer();
}

export async function evaluateOcr(n: number, log: (s: string) => void): Promise<OcrReport> {
  const r = new Rng(2026, 11, 25);
  const vocab = genericWords().filter((w) => /^[A-Z]{4,}$/.test(w));
  const icons = await loadIcons();
  const items: { app: string; words: string; text: string }[] = [];
  const ocr = await Ocr.start(1);
  let ms = 0;
  try {
    for (let i = 0; i < n; i++) {
      const words = r.chance(0.5) ? r.pick(vocab) : `${r.pick(vocab)} ${r.pick(vocab)}`;
      const png = await drawWords(icons[(i * 37) % icons.length].slug, words, r);
      const t0 = performance.now();
      const read = await ocr.read(await ocrInput(await decodeLogo(png)));
      ms += performance.now() - t0;
      items.push({ app: String(9_000_000 + i), words, text: read.text });
    }
  } finally {
    await ocr.close();
  }
  log(`ocr: ${n} logos read, ${(ms / n).toFixed(0)} ms each`);
  // The real text index over what OCR read, fed from a stand-in of the repository.
  const rows = items.map((it, k) => ({
    application_number: it.app,
    text: it.text,
    class_number: 1 + (k % 45),
    status: 'Registered',
    seq: k + 1,
  }));
  const repo = { textsSince: async (since: number) => rows.filter((x) => x.seq > since) } as unknown as LogoRepository;
  const index = new LogoTextIndex(repo);
  let at1 = 0;
  let at10 = 0;
  let exact = 0;
  for (const it of items) {
    if (it.text.toUpperCase().split(/\s+/).join(' ') === it.words) exact++;
    const found = await index.search(it.words, 10);
    const pos = found.hits.findIndex((h) => h.application_number === it.app);
    if (pos === 0) at1++;
    if (pos >= 0 && pos < 10) at10++;
  }
  return { logos: n, exactRead: exact / n, recallAt10: at10 / n, recallAt1: at1 / n, msPerLogo: ms / n };
}
