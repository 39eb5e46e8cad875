// A histogram-of-oriented-gradients descriptor (Dalal & Triggs) of a normalised logo: the fallback
// embedder when no trained model can be loaded, and the baseline the trained model is measured
// against. 16-px cells, 9 unsigned orientation bins, 2×2-cell blocks with L2-Hys normalisation:
// 5×5 blocks × 36 = 900 dimensions for a 96-px input.

const CELL = 16;
const BINS = 9;
const CLIP = 0.2;

export function hogDimensions(size: number): number {
  const cells = Math.floor(size / CELL);
  return (cells - 1) * (cells - 1) * 4 * BINS;
}

/** `px`: a size×size grey image in 0..1 (normaliseLogo's output). The result has unit length. */
export function hog(px: Float32Array, size: number): Float32Array {
  const cells = Math.floor(size / CELL);
  const hist = new Float32Array(cells * cells * BINS);
  for (let y = 1; y < size - 1; y++) {
    for (let x = 1; x < size - 1; x++) {
      const gx = px[y * size + x + 1] - px[y * size + x - 1];
      const gy = px[(y + 1) * size + x] - px[(y - 1) * size + x];
      const mag = Math.sqrt(gx * gx + gy * gy);
      if (mag === 0) continue;
      let angle = Math.atan2(gy, gx);
      if (angle < 0) angle += Math.PI;
      // Votes split between the two nearest bins.
      const pos = (angle / Math.PI) * BINS - 0.5;
      const b0 = Math.floor(pos);
      const frac = pos - b0;
      const cx = Math.min(cells - 1, Math.floor(x / CELL));
      const cy = Math.min(cells - 1, Math.floor(y / CELL));
      const base = (cy * cells + cx) * BINS;
      hist[base + ((b0 + BINS) % BINS)] += mag * (1 - frac);
      hist[base + ((b0 + 1) % BINS)] += mag * frac;
    }
  }
  const out = new Float32Array(hogDimensions(size));
  let o = 0;
  const block = new Float32Array(4 * BINS);
  for (let by = 0; by < cells - 1; by++) {
    for (let bx = 0; bx < cells - 1; bx++) {
      let k = 0;
      for (const [dy, dx] of [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ]) {
        const base = ((by + dy) * cells + bx + dx) * BINS;
        for (let b = 0; b < BINS; b++) block[k++] = hist[base + b];
      }
      l2hys(block);
      out.set(block, o);
      o += block.length;
    }
  }
  return unit(out);
}

function l2hys(v: Float32Array): void {
  const norm = (a: Float32Array) => Math.sqrt(a.reduce((s, x) => s + x * x, 0)) + 1e-6;
  let n = norm(v);
  for (let i = 0; i < v.length; i++) v[i] = Math.min(CLIP, v[i] / n);
  n = norm(v);
  for (let i = 0; i < v.length; i++) v[i] /= n;
}

/** The vector scaled to unit length (a zero vector stays zero). */
export function unit(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.sqrt(s);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

export function cosine(a: Float32Array | number[], b: Float32Array | number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
