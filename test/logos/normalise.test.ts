import { expect } from 'chai';
import sharp from 'sharp';
import { planModels, readManifest } from '../../src/logos/models.ts';
import { LogoImage, loadEmbedder, regionImages } from '../../src/logos/pixels/embedders.ts';
import { enlargeLonger } from '../../src/logos/pixels/enlarge.ts';
import { type Decoded, decodeLogo, greyOfColour, mainBand, normaliseLogo, trimBox } from '../../src/logos/pixels/image.ts';
import { shrinkLonger } from '../../src/logos/pixels/resize.ts';
import { inkedIcon } from '../helpers/inkedIcon.ts';

// The embedders' input is made with fewer sharp calls than it was (the logo cut once for both sizes, shrunk
// in JavaScript with libvips's arithmetic, the square filled in JavaScript instead of by sharp's extract and
// `contain`), and must be the same pixels as before, so that the stored vectors keep their meaning: here
// against the old way, kept as the reference, and the shrinking against sharp's own.

/** Normalisation as it was: sharp cuts the trimmed box and centres it on a square with `contain`. */
async function asBefore(d: Decoded, size: number): Promise<Float32Array> {
  const box = mainBand(d, trimBox(d));
  const { data, info } = await sharp(d.grey, { raw: { width: d.width, height: d.height, channels: 1 } })
    .extract({ left: box.left, top: box.top, width: box.width, height: box.height })
    .resize(size, size, { fit: 'contain', background: { r: box.bg, g: box.bg, b: box.bg }, kernel: 'cubic' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = new Float32Array(size * size);
  for (let i = 0; i < out.length; i++) out[i] = data[i * info.channels] / 255;
  return out;
}

/** A logo read as before: every size normalised the old way. */
class Before extends LogoImage {
  override logoGrey(size?: number): Promise<Float32Array> {
    return asBefore(this.decoded, size ?? 96);
  }
}

/** A 640 × 480 page: a logo top left, a grey block, a rule, dots and a line of words, on off-white. */
async function page(): Promise<Buffer> {
  const dots = Array.from({ length: 8 }, (_, i) => {
    const a = (i / 8) * 2 * Math.PI;
    return `<circle cx="${500 + Math.cos(a) * 40}" cy="${390 + Math.sin(a) * 40}" r="9" fill="#444"/>`;
  }).join('');
  const drawing =
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><rect x="380" y="40" width="220" height="150" fill="#8a8f99"/>' +
    `<rect x="40" y="250" width="560" height="6" fill="#222"/>${dots}` +
    '<text x="320" y="310" text-anchor="middle" font-family="DejaVu Serif" font-size="30" fill="#222">Sunrise Foods</text></svg>';
  return sharp({ create: { width: 640, height: 480, channels: 3, background: '#f4f1ea' } })
    .composite([
      { input: Buffer.from(drawing), left: 0, top: 0 },
      { input: (await inkedIcon('docker', 150, [20, 40, 160])).png, left: 40, top: 40 },
    ])
    .png()
    .toBuffer();
}

describe('logo normalisation', function () {
  this.timeout(60_000);

  it('gives the pixels and vectors it gave before for a page and each of its regions', async () => {
    const bytes = await page();
    const whole = new LogoImage(bytes, await decodeLogo(bytes));
    const regions = regionImages(whole);
    expect(regions.length).to.be.at.least(2);
    const { primary, fallback } = planModels(readManifest().default);
    const models = [await loadEmbedder(primary), await loadEmbedder(fallback)];
    for (const img of [whole, ...regions.map((r) => r.image)]) {
      for (const size of [64, 96, 128]) expect(normaliseLogo(img.decoded, size)).to.deep.equal(await asBefore(img.decoded, size));
      const before = new Before(img.bytes, img.decoded, img.crop);
      for (const m of models) expect(await m.embed(img), m.name).to.deep.equal(await m.embed(before));
    }
  });

  it('decodes the same grey with colour kept as without (a search upload and the index agree), and its chroma', async () => {
    const bytes = await sharp(await page())
      .composite([{ input: { create: { width: 60, height: 40, channels: 3, background: '#d01020' } }, left: 300, top: 420 }])
      .jpeg({ quality: 80 })
      .toBuffer();
    const grey = await decodeLogo(bytes);
    const colour = await decodeLogo(bytes, { colour: true });
    expect(grey.chroma).to.equal(undefined);
    expect(colour.grey.equals(grey.grey)).to.equal(true);
    const at = (x: number, y: number) => colour.chroma![y * colour.width + x];
    // Decoded at 512 of 640. The red block: its channels 192 apart (less what JPEG blurs); the off-white page: little.
    expect(at(264, 352)).to.be.above(150);
    expect(at(5, 5)).to.be.below(20);
  });

  it('decodes the grey libvips gives for any colour, alone or beside others, opaque or over transparency', async () => {
    // Random colours next to each other, a quarter of them translucent (flattened onto white first), in a PNG
    // over 512 px (so it is resized as it is decoded too): the colour decode's grey is the grey-only decode's.
    const [w, h] = [700, 300];
    const rgba = Buffer.alloc(w * h * 4);
    for (let i = 0; i < rgba.length; i++) rgba[i] = (i & 3) === 3 && next() % 4 ? 255 : next() & 255;
    const bytes = await sharp(rgba, { raw: { width: w, height: h, channels: 4 } })
      .png()
      .toBuffer();
    const colour = await decodeLogo(bytes, { colour: true });
    expect(colour.grey.equals((await decodeLogo(bytes)).grey)).to.equal(true);
    // And pixel by pixel: every colour of an image that holds 65,536 of them, against sharp's own conversion.
    const rgb = Buffer.alloc(256 * 256 * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = next() & 255;
    const bySharp = await sharp(rgb, { raw: { width: 256, height: 256, channels: 3 } })
      .toColourspace('b-w')
      .raw()
      .toBuffer();
    const table = await greyOfColour();
    for (let p = 0; p < 256 * 256; p++) {
      const looked = table[(rgb[p * 3] << 16) | (rgb[p * 3 + 1] << 8) | rgb[p * 3 + 2]];
      if (looked !== bySharp[p * (bySharp.length / (256 * 256))]) expect.fail(`pixel ${p}: ${looked}, sharp ${bySharp[p]}`);
    }
  });

  it('gives the pixels it gave before for wide, tall, thin, tiny and enlarged logos on any border grey', async () => {
    // Ink boxes of every shape on a plain border: some shrink, some are enlarged, some are one pixel thick.
    const shapes: [number, number, number, number, number][] = [
      [300, 200, 250, 40, 255],
      [200, 300, 30, 260, 0],
      [120, 90, 100, 1, 200],
      [90, 120, 1, 100, 30],
      [40, 40, 7, 5, 128],
      [64, 64, 64, 64, 255],
      [500, 500, 480, 470, 90],
      [20, 30, 3, 3, 240],
    ];
    for (const [w, h, bw, bh, bg] of shapes) {
      const grey = Buffer.alloc(w * h, bg);
      const left = (w - bw) >> 1;
      const top = (h - bh) >> 1;
      for (let y = top; y < top + bh; y++) for (let x = left; x < left + bw; x++) grey[y * w + x] = (x * 7 + y * 13 + bg + 90) % 256;
      const d: Decoded = { grey, width: w, height: h, source: { width: w, height: h, format: 'png' } };
      for (const size of [64, 96, 128]) expect(normaliseLogo(d, size), `${w}×${h}, ink ${bw}×${bh}`).to.deep.equal(await asBefore(d, size));
    }
  });

  it('shrinks an image as sharp does, pixel for pixel, whatever its shape and factor', async () => {
    // Every path of libvips's shrink: whole-number box averages down and across or neither, fixed-point masks,
    // output tiles restarted past 128 px, one-pixel sides; the content noisy so that any difference shows.
    const shapes = [
      [640, 480],
      [512, 97],
      [97, 512],
      [385, 120],
      [95, 385],
      [174, 413],
      [300, 1],
      [1, 300],
      [130, 129],
      [100, 65],
      [65, 100],
      [500, 500],
    ];
    await expectAsSharp(shapes, shrinkLonger, (longer, size) => longer >= size);
    expect(shrinkLonger(Buffer.alloc(50 * 40), 50, 40, 64)).to.equal(null);
  });

  it('enlarges an image as sharp does, pixel for pixel, whatever its shape and factor', async () => {
    // libvips's affine with the bicubic interpolator: one-pixel sides, factors just over 1 and many times over,
    // whole-number factors, sides over 128 px (the output made in strips, not tiles), odd and even sides.
    const shapes = [
      [1, 1],
      [1, 40],
      [50, 1],
      [2, 3],
      [7, 5],
      [32, 32],
      [63, 20],
      [20, 63],
      [48, 31],
      [95, 94],
      [127, 60],
      [33, 127],
      [150, 70],
      [199, 223],
    ];
    await expectAsSharp(shapes, enlargeLonger, (longer, size) => longer < size);
    expect(enlargeLonger(Buffer.alloc(64 * 10), 64, 10, 64)).to.equal(null);
  });
});

let seed = 12345;
/** A pseudo-random number (Park-Miller), the same every run. */
function next(): number {
  seed = (seed * 48271) % 2147483647;
  return seed;
}

/** Gradients with every third pixel random, so that any difference in the arithmetic shows. */
function noisy(w: number, h: number): Buffer {
  const grey = Buffer.alloc(w * h);
  for (let i = 0; i < grey.length; i++) grey[i] = next() % 3 ? ((i % w) + ((i / w) | 0) * 2) & 255 : next() & 255;
  return grey;
}

/** sharp's resize of the longer side to `size`, kernel cubic, one channel. */
async function bySharp(grey: Buffer, w: number, h: number, size: number): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(grey, { raw: { width: w, height: h, channels: 1 } })
    .resize(w >= h ? { width: size, kernel: 'cubic' } : { height: size, kernel: 'cubic' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = Buffer.alloc(info.width * info.height);
  for (let i = 0; i < out.length; i++) out[i] = data[i * info.channels];
  return { data: out, width: info.width, height: info.height };
}

/** Each shape, noisy, resized by `resize` to each size `applies` to, is sharp's resize to that size, pixel for pixel. */
async function expectAsSharp(
  shapes: number[][],
  resize: (grey: Buffer, w: number, h: number, size: number) => { data: Uint8Array; width: number; height: number } | null,
  applies: (longer: number, size: number) => boolean,
): Promise<void> {
  for (const [w, h] of shapes) {
    const grey = noisy(w, h);
    for (const size of [64, 96, 128, 224]) {
      if (!applies(Math.max(w, h), size)) continue;
      const what = `${w}×${h} to ${size}`;
      const [ours, theirs] = [resize(grey, w, h, size), await bySharp(grey, w, h, size)];
      expect(ours, what).to.not.equal(null);
      expect([ours!.width, ours!.height], what).to.deep.equal([theirs.width, theirs.height]);
      expect(Buffer.from(ours!.data).equals(theirs.data), what).to.equal(true);
    }
  }
}
