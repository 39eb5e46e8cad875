// Shrinking a grey image as sharp's resize does (libvips 8.18's vips_resize, Catmull-Rom kernel, reducing
// gap 2), in JavaScript: each sharp call costs about 1.5 ms of CPU however small its image, and the
// sidecar resizes every image it embeds twice (the CNN's 64 px, HOG's 96 px). The arithmetic is libvips's
// own, so the pixels, and so every vector, are the same: an integer box average by the whole part of the
// factor (shrinkv, then shrinkh: (sum + n/2) × ⌊2³² / 256n⌋ >> 24), then the rest by 12-bit fixed-point
// masks (reducev, then reduceh), 65 sub-pixel positions of each, the sample positions stepped as libvips
// steps them (restarted at each 128-pixel tile of the output). Enlarging (libvips's affine with a bicubic
// interpolator) is enlarge.ts. test/logos/normalise.test.ts holds this to sharp on images of every shape.

export const SCALE = 64; // VIPS_TRANSFORM_SCALE
export const ISCALE = 4096; // VIPS_INTERPOLATE_SCALE
/**
 * Which of the SCALE + 1 sub-pixel tables a sample position takes, as libvips picks it (reduce and the bicubic
 * interpolator alike): its fraction rounded to the nearest 1/SCALE.
 */
export const subpixel = (p: number) => ((Math.trunc(p * SCALE * 2) & (SCALE * 2 - 1)) + 1) >> 1;
// libvips makes its output in regions, and reducev and reduceh step their sample positions from each region's
// first row or column, so where regions start decides the last bits of those positions. The output is made in
// 128 × 128 tiles when a shrinkv is in the pipeline (its SMALLTILE hint wins), else in strips of 16 rows across;
// shrinkh asks what lies before it for 16 rows at a time.
const TILE = 128; // vips__tile_width, vips__tile_height
const STRIP = 16; // vips__fatstrip_height

/** C's rint() in the default rounding mode: halves to even. */
const rint = (x: number) => {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r; // round half to even
};
/** Catmull-Rom (libvips's cubic_filter with B = 0, C = 0.5, its constants folded as the compiler folds them). */
const cubic = (x: number) => {
  const ax = Math.abs(x);
  const ax2 = ax * ax;
  const ax3 = ax2 * ax;
  if (ax <= 1) return (9 * ax3 + -15 * ax2 + 6) / 6;
  if (ax <= 2) return (-3 * ax3 + 15 * ax2 + -24 * ax + 12) / 6;
  return 0;
};
/** vips_reduce_make_mask at each of the 65 sub-pixel positions, as libvips's shorts (truncated). */
function masks(n: number, shrink: number): Int16Array[] {
  const out: Int16Array[] = [];
  const c = new Float64Array(n);
  for (let t = 0; t <= SCALE; t++) {
    const x = Math.fround(t / SCALE);
    const half = x + n / 2 - 1;
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const l = cubic((i - half) / shrink);
      c[i] = l;
      sum += l;
    }
    const m = new Int16Array(n);
    for (let i = 0; i < n; i++) m[i] = Math.trunc((c[i] / sum) * ISCALE);
    out.push(m);
  }
  return out;
}
export interface Grey {
  data: Uint8Array;
  width: number;
  height: number;
}

/** vips_shrinkv with `ceil`: the last rows repeated to fill the last block. */
function shrinkv(im: Grey, v: number): Grey {
  const W = im.width;
  const height = Math.ceil(im.height / v);
  const out = new Uint8Array(W * height);
  const amend = v >> 1;
  const mult = Math.floor(2 ** 32 / (256 * v));
  const sum = new Uint32Array(W);
  const d = im.data;
  for (let y = 0; y < height; y++) {
    sum.fill(amend);
    for (let k = 0; k < v; k++) {
      const row = Math.min(im.height - 1, y * v + k) * W;
      for (let x = 0; x < W; x++) sum[x] += d[row + x];
    }
    const o = y * W;
    // (sum * mult) >> 24 in 32-bit unsigned arithmetic; the product stays below 2^32.
    for (let x = 0; x < W; x++) out[o + x] = Math.floor((sum[x] * mult) / 16777216);
  }
  return { data: out, width: W, height };
}
/** vips_shrinkh with `ceil`. */
function shrinkh(im: Grey, h: number): Grey {
  const W = im.width;
  const width = Math.ceil(W / h);
  const out = new Uint8Array(width * im.height);
  const amend = h >> 1;
  const mult = Math.floor(2 ** 32 / (256 * h));
  const d = im.data;
  for (let y = 0; y < im.height; y++) {
    const row = y * W;
    for (let x = 0; x < width; x++) {
      let sum = amend;
      const x0 = x * h;
      if (x0 + h <= W) for (let k = 0; k < h; k++) sum += d[row + x0 + k];
      else for (let k = 0; k < h; k++) sum += d[row + Math.min(W - 1, x0 + k)];
      out[y * width + x] = Math.floor((sum * mult) / 16777216);
    }
  }
  return { data: out, width, height: im.height };
}
/** What reducev and reduceh share: the output side, the whole part of the shrink done by `whole`, the rest's masks. */
interface Reduction {
  im: Grey;
  size: number;
  residual: number;
  n: number;
  offset: number;
  ms: Int16Array[];
  pad: number;
}
function reduction(im: Grey, side: number, by: number, whole: (im: Grey, k: number) => Grey): Reduction {
  const size = Math.trunc(side / by + 0.5);
  let extra = size * by - side;
  let residual = by;
  const k = Math.max(1, Math.floor(side / size / 2));
  if (k > 1) {
    im = whole(im, k);
    extra /= k;
    residual /= k;
  }
  const n = 2 * rint(2 * residual) + 1;
  return { im, size, residual, n, offset: (1 + extra) / 2 - 1, ms: residual === 1 ? [] : masks(n, residual), pad: Math.ceil(n / 2) - 1 };
}
/** vips_reducev: the int part by shrinkv, the rest by masks; edges extended by copying. */
function reducev(input: Grey, vshrink: number, rows: number): Grey {
  const { im, size: height, residual, n, offset: voffset, ms, pad } = reduction(input, input.height, vshrink, shrinkv);
  if (residual === 1) return im;
  const W = im.width;
  const last = im.height - 1;
  const out = new Uint8Array(W * height);
  const acc = new Int32Array(W);
  const d = im.data;
  let Y = 0;
  for (let y = 0; y < height; y++) {
    if (y % rows === 0) Y = (y + 0.5) * residual - 0.5 - voffset;
    const py = Math.trunc(Y);
    const k = ms[subpixel(Y)];
    acc.fill(2048);
    for (let i = 0; i < n; i++) {
      const c = k[i];
      if (c === 0) continue;
      const r = py + i - pad;
      const row = Math.min(last, Math.max(0, r)) * W;
      for (let x = 0; x < W; x++) acc[x] += c * d[row + x];
    }
    const o = y * W;
    for (let x = 0; x < W; x++) {
      const v = acc[x] >> 12;
      out[o + x] = Math.min(255, Math.max(0, v));
    }
    Y += residual;
  }
  return { data: out, width: W, height };
}
/** vips_reduceh, as reducev across; each output column's position is the same on every row. */
function reduceh(input: Grey, hshrink: number, columns: number): Grey {
  const { im, size: width, residual, n, offset: hoffset, ms, pad } = reduction(input, input.width, hshrink, shrinkh);
  if (residual === 1) return im;
  const W = im.width;
  // Each output column's first input column and mask, the same on every row.
  const first = new Int32Array(width);
  const mask: Int16Array[] = [];
  let X = 0;
  for (let x = 0; x < width; x++) {
    if (x % columns === 0) X = (x + 0.5) * residual - 0.5 - hoffset;
    first[x] = Math.trunc(X) - pad;
    mask.push(ms[subpixel(X)]);
    X += residual;
  }
  const out = new Uint8Array(width * im.height);
  const d = im.data;
  for (let y = 0; y < im.height; y++) {
    const row = y * W;
    for (let x = 0; x < width; x++) {
      const k = mask[x];
      const f = first[x];
      let sum = 2048;
      if (f >= 0 && f + n <= W) for (let i = 0; i < n; i++) sum += k[i] * d[row + f + i];
      else for (let i = 0; i < n; i++) sum += k[i] * d[row + Math.min(W - 1, Math.max(0, f + i))];
      const v = sum >> 12;
      out[y * width + x] = Math.min(255, Math.max(0, v));
    }
  }
  return { data: out, width, height: im.height };
}
/**
 * A one-band image resized as sharp resizes it with `{ width: size }` (wide) or `{ height: size }` (tall) and
 * kernel cubic, when that only shrinks it; null when sharp would enlarge it.
 */
export function shrinkLonger(data: Uint8Array, width: number, height: number, size: number): Grey | null {
  // sharp: the longer side's factor for both, no axis below one pixel (sharp's ResolveShrink).
  const factor = Math.max(width, height) / size;
  const hshrink = Math.min(factor, width);
  const vshrink = Math.min(factor, height);
  // sharp passes 1 / shrink to vips_resize, which reduces by 1 / scale: computed the same way here.
  let hscale = 1 / hshrink;
  let vscale = 1 / vshrink;
  if (hscale > 1 || vscale > 1) return null;
  let im: Grey = { data, width, height };
  if (hshrink === 1 && vshrink === 1) return im;
  hscale = Math.max(hscale, 1 / width);
  vscale = Math.max(vscale, 1 / height);
  // Which whole-number shrinks reducev and reduceh will do (as they decide it), for where regions start.
  const whole = (side: number, shrink: number) => Math.max(1, Math.floor(side / Math.trunc(side / shrink + 0.5) / 2));
  const tiles = vscale < 1 && whole(height, 1 / vscale) > 1;
  const shrinksAcross = hscale < 1 && whole(width, 1 / hscale) > 1;
  if (vscale < 1) im = reducev(im, 1 / vscale, shrinksAcross || !tiles ? STRIP : TILE);
  if (hscale < 1) im = reduceh(im, 1 / hscale, tiles ? TILE : Number.POSITIVE_INFINITY);
  return im;
}
