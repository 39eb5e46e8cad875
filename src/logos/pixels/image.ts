import sharp from 'sharp';
import { formatName, ImageError, type ImageFormat, openImage } from '../imageInput.ts';
import type { Box as Part } from '../regionScores.ts';
import { enlargeLonger } from './enlarge.ts';
import { shrinkLonger } from './resize.ts';

// Images as the embedders and the OCR read them: decoded through imageInput.ts (which decides what a
// file is, by its bytes, and what may be decoded), then normalised. The ML sidecar decodes; the API only
// sniffs. models/train/train.py reproduces normaliseLogo() when it composes training views.

/**
 * sharp as the sidecar's embedding threads run it: one libvips thread a call (the pool of threads is the
 * parallelism) and no operation cache: each call reads a new buffer, so the cache never answers one, and
 * looking in it and filling it cost every call CPU (bench/RESULTS.md, issue 22's speed).
 */
export function sharpForEmbedding(): void {
  sharp.concurrency(1);
  sharp.cache(false);
}

/** The embedders' input: a grey square of this side, values 0..1. */
export const LOGO_SIZE = 96;
// Pixels differing from the top-left one by more than this (of 255) are the logo; the rest is border.
const TRIM_THRESHOLD = 24;
// Decoding is done at most this large: enough for a 96-px input and for OCR of a logo's words.
const WORK_SIDE = 512;

export interface Decoded {
  /** Grey pixels, row-major, at most WORK_SIDE on the longer side, transparency flattened onto white. */
  grey: Buffer;
  width: number;
  height: number;
  /**
   * How colourful each pixel is (its channels' spread, max − min), where the image has colour: region finding
   * tells a coloured wordmark from a black name beside it of the same lightness by it. Absent for grey images.
   */
  chroma?: Buffer;
  /**
   * Where there is colour, its hue as two opponent axes, each stored + 128: red against green (r − g) / 2 and yellow
   * against blue ((r + g) / 2 − b) / 2. Region finding keeps a red badge apart from a blue block as light and as bright.
   */
  hue?: { rg: Buffer; yb: Buffer };
  /** The size it was decoded at (an SVG's as drawn, imageInput.ts) and its format. */
  source: { width: number; height: number; format: ImageFormat };
}

/**
 * Decodes an accepted image in full (a truncated or corrupt file fails here, not later; a GIF or WebP
 * is its first frame), refusing what imageInput.ts refuses. `colour`: keep each pixel's chroma too, for region
 * finding (a search's upload); the index never needs it.
 */
export async function decodeLogo(buf: Buffer, opts: { colour?: boolean } = {}): Promise<Decoded> {
  const img = await openImage(buf);
  const table = opts.colour ? await greyOfColour() : undefined;
  try {
    const pipe = img
      .pipeline()
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize(WORK_SIDE, WORK_SIDE, { fit: 'inside', withoutEnlargement: true });
    const source = { width: img.width, height: img.height, format: img.format };
    const { data, info } = await (opts.colour ? pipe : pipe.toColourspace('b-w')).raw().toBuffer({ resolveWithObject: true });
    const { width, height, channels } = info;
    if (!table || channels < 3) return { grey: firstChannel(data, channels), width, height, source };
    return { ...greyAndChroma(data, channels, table), width, height, source };
  } catch {
    throw new ImageError('image_corrupt', `the ${formatName(img.format)} file is corrupt or truncated: it cannot be decoded`);
  }
}

/** A search's `region` that does not lie inside its image: the caller's box, not the image, is wrong. */
export class RegionError extends Error {
  readonly code = 'region_outside';
}

/**
 * The part of an image a search names (`region`: in the pixels of the image as it is shown, turned as its EXIF says;
 * an SVG's as drawn, SVG_RENDER_SIDE on its longer side), as a PNG of its own: what is searched instead of the whole.
 */
export async function cutImage(buf: Buffer, box: Part): Promise<Buffer> {
  const img = await openImage(buf);
  if (box.left + box.width > img.width || box.top + box.height > img.height)
    throw new RegionError(
      `region ${box.left},${box.top},${box.width},${box.height} is not inside the image, which is ${img.width}×${img.height} pixels`,
    );
  try {
    return await img.pipeline().rotate().extract(box).png({ compressionLevel: 1 }).toBuffer();
  } catch {
    throw new ImageError('image_corrupt', `the ${formatName(img.format)} file is corrupt or truncated: it cannot be decoded`);
  }
}

/** The box of pixels that differ from the top-left one (the border colour), or the whole image. */
export function trimBox(d: { grey: Uint8Array | Buffer; width: number; height: number }): {
  left: number;
  top: number;
  width: number;
  height: number;
  bg: number;
} {
  const { grey, width: w, height: h } = d;
  const bg = grey[0];
  let top = h;
  let bottom = -1;
  let left = w;
  let right = -1;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (Math.abs(grey[row + x] - bg) > TRIM_THRESHOLD) {
        if (y < top) top = y;
        if (y > bottom) bottom = y;
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
  }
  if (bottom < 0) return { left: 0, top: 0, width: w, height: h, bg };
  return { left, top, width: right - left + 1, height: bottom - top + 1, bg };
}

type Box = ReturnType<typeof trimBox>;

/**
 * A caption set apart from the picture (a line of words under or over it, blank rows between) is
 * left out: when the box splits into bands of ink at blank rows and one band is at least half the
 * height and twice the next, that band, trimmed again, is the logo. Words are what text search is
 * for; the picture is what image search compares. Logos of words alone (bands alike) stay whole.
 */
export function mainBand(d: { grey: Uint8Array | Buffer; width: number }, box: Box): Box {
  const { grey, width: w } = d;
  const ink = (y: number) => {
    const row = y * w;
    for (let x = box.left; x < box.left + box.width; x++) if (Math.abs(grey[row + x] - box.bg) > TRIM_THRESHOLD) return true;
    return false;
  };
  const minGap = Math.max(2, Math.round(box.height * 0.03));
  const bands: { top: number; height: number }[] = [];
  let start = -1;
  let blank = 0;
  for (let y = box.top; y <= box.top + box.height; y++) {
    const on = y < box.top + box.height && ink(y);
    if (on) {
      if (start < 0) start = y;
      blank = 0;
    } else if ((start >= 0 && ++blank >= minGap) || (start >= 0 && y === box.top + box.height)) {
      bands.push({ top: start, height: y - blank + 1 - start });
      start = -1;
      blank = 0;
    }
  }
  if (bands.length < 2) return box;
  const sorted = [...bands].sort((a, b) => b.height - a.height);
  if (sorted[0].height < box.height * 0.5 || sorted[0].height < sorted[1].height * 2) return box;
  const band = sorted[0];
  let left = box.left + box.width;
  let right = -1;
  for (let y = band.top; y < band.top + band.height; y++) {
    for (let x = box.left; x < box.left + box.width; x++) {
      if (Math.abs(grey[y * w + x] - box.bg) > TRIM_THRESHOLD) {
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
  }
  return right < left ? box : { left, top: band.top, width: right - left + 1, height: band.height, bg: box.bg };
}

/** The logo's pixels: the decoded image cut to its box (trimmed, its caption left out), and the border's grey. */
export interface LogoCut {
  grey: Buffer;
  width: number;
  height: number;
  bg: number;
}

/** The part of a decoded image every size of normaliseLogo() is made from: found once, resized once per size. */
export function logoCut(d: Decoded): LogoCut {
  const box = mainBand(d, trimBox(d));
  const grey = Buffer.alloc(box.width * box.height);
  for (let y = 0; y < box.height; y++) {
    const from = (box.top + y) * d.width + box.left;
    d.grey.copy(grey, y * box.width, from, from + box.width);
  }
  return { grey, width: box.width, height: box.height, bg: box.bg };
}

/**
 * The embedders' input: trimmed to the logo (its caption left out, mainBand), centred on a square of
 * the border colour, `size` pixels a side, grey in 0..1. `cut`: logoCut(d), when the caller has it.
 */
export function normaliseLogo(d: Decoded, size = LOGO_SIZE, cut = logoCut(d)): Float32Array {
  // sharp's `contain` resizes by the longer side's factor and centres the result at ((size - w) >> 1,
  // (size - h) >> 1); resizing the longer side to `size` is that factor, so the pixels are the same. Both
  // ways are done in JavaScript with libvips's arithmetic (resize.ts, enlarge.ts): each sharp call costs about
  // 1.5 ms of CPU however small its image. test/logos/normalise.test.ts holds both to the sharp calls they replace.
  const small = shrinkLonger(cut.grey, cut.width, cut.height, size) ?? enlargeLonger(cut.grey, cut.width, cut.height, size);
  if (!small || small.width > size || small.height > size || Math.max(small.width, small.height) !== size)
    throw new Error(`normalised to ${small?.width}×${small?.height}, not ${size} on its longer side`);
  const out = new Float32Array(size * size).fill(cut.bg / 255);
  const left = (size - small.width) >> 1;
  const top = (size - small.height) >> 1;
  for (let y = 0; y < small.height; y++) {
    const row = (top + y) * size + left;
    for (let x = 0; x < small.width; x++) out[row + x] = small.data[y * small.width + x] / 255;
  }
  return out;
}

/**
 * libvips's grey of every 8-bit colour (sRGB to linear light, its luminance, back to sRGB's curve), indexed by
 * r << 16 | g << 8 | b: made once, by sharp itself, from an image holding each colour once. libvips converts
 * each pixel on its own, so looking a pixel up gives exactly what converting the image in a pipeline gives
 * (test/logos/normalise.test.ts), without a second sharp call for every upload searched (2-5 ms of CPU).
 * 16 MB, and about 0.3 s of CPU to make, in each thread that decodes in colour.
 */
let greyTable: Promise<Uint8Array> | undefined;
export function greyOfColour(): Promise<Uint8Array> {
  greyTable ??= (async () => {
    const side = 4096;
    const rgb = Buffer.alloc(side * side * 3);
    for (let i = 0, o = 0; i < side * side; i++, o += 3) {
      rgb[o] = i >> 16;
      rgb[o + 1] = (i >> 8) & 255;
      rgb[o + 2] = i & 255;
    }
    const { data, info } = await sharp(rgb, { raw: { width: side, height: side, channels: 3 } })
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return firstChannel(data, info.channels);
  })();
  // A table that could not be made is made again next time, not kept as a failure.
  greyTable.catch(() => {
    greyTable = undefined;
  });
  return greyTable;
}

/** Each pixel's grey (by the table) and its channel spread (max − min of red, green and blue). */
function greyAndChroma(data: Buffer, channels: number, table: Uint8Array): Pick<Decoded, 'grey' | 'chroma' | 'hue'> {
  const grey = Buffer.alloc(data.length / channels);
  const chroma = Buffer.alloc(grey.length);
  const rg = Buffer.alloc(grey.length);
  const yb = Buffer.alloc(grey.length);
  for (let i = 0, o = 0; o < grey.length; i += channels, o++) {
    const r = data[i];
    const g = data[i + 1];
    const b = data[i + 2];
    grey[o] = table[(r << 16) | (g << 8) | b];
    chroma[o] = Math.max(r, g, b) - Math.min(r, g, b);
    rg[o] = 128 + ((r - g) >> 1);
    yb[o] = 128 + (((r + g) >> 1) - b) / 2;
  }
  return { grey, chroma, hue: { rg, yb } };
}

/** One channel of interleaved pixels (sharp may keep a channel count its input had). */
function firstChannel(data: Buffer, channels: number): Buffer {
  if (channels === 1) return data;
  const out = Buffer.alloc(data.length / channels);
  for (let i = 0; i < out.length; i++) out[i] = data[i * channels];
  return out;
}
