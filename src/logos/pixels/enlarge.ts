import { type Grey, ISCALE, SCALE, subpixel } from './resize.ts';

// Enlarging a grey image as sharp's resize does (libvips 8.18's vips_resize: vips_affine with the bicubic
// interpolator), in JavaScript, for the same reason resize.ts shrinks in JavaScript: each sharp call costs
// about 1.5 ms of CPU however small its image, and v4's 128-px input enlarges every region a page search cuts
// smaller than that. The arithmetic is libvips's own, so the pixels, and so every stored vector, are the same:
// the inverse of the scale matrix as vips__transform_calc_inverse makes it; input positions at ia·x − 0.5
// (the affine's 0.5 input displacement, less the one-pixel border it embeds), stepped across each row by
// adding ia (the output is made in strips the image's width, so every row starts at column 0); edges
// extended by copying; Catmull-Rom coefficients in 12-bit fixed point at 65 sub-pixel positions, each row
// of four rounded before the column of four. test/logos/normalise.test.ts holds this to sharp.

/** vips_bicubic_matrixi: calculate_coefficients_catmull at each position, truncated to ints. */
const COEFFICIENTS: Int32Array[] = Array.from({ length: SCALE + 1 }, (_, t) => {
  const x = Math.fround(t / SCALE);
  const cr1 = 1 - x;
  const cr3 = cr1 * (-0.5 * x);
  const c0 = cr1 * cr3;
  const c3 = x * cr3;
  const cr4 = c3 - c0;
  return Int32Array.from([c0, cr1 - c0 + cr4, x - c3 - cr4, c3], (c) => Math.trunc(c * ISCALE));
});

/** unsigned_fixed_round: 12-bit fixed point back to an integer, halves up. */
const round12 = (v: number) => (v + ISCALE / 2) >> 12;

/**
 * A one-band image resized as sharp resizes it with `{ width: size }` (wide) or `{ height: size }` (tall) and
 * kernel cubic, when that enlarges it (its longer side below `size`); null otherwise.
 */
export function enlargeLonger(data: Uint8Array, width: number, height: number, size: number): Grey | null {
  const longer = Math.max(width, height);
  if (longer >= size) return null;
  // sharp's shrink factor, passed to vips_resize as a scale, both axes alike; the affine's matrix and its inverse.
  const scale = 1 / (longer / size);
  const inverse = (1 / (scale * scale)) * scale;
  const outW = Math.trunc(scale * width + 0.5);
  const outH = Math.trunc(scale * height + 0.5);
  // Each output column's first input column (clamped per tap) and coefficients: the same on every row.
  const first = new Int32Array(outW);
  const across: Int32Array[] = [];
  for (let x = 0, p = 1.5; x < outW; x++, p += inverse) {
    first[x] = Math.trunc(p) - 3;
    across.push(COEFFICIENTS[subpixel(p)]);
  }
  // Every input row filtered across once (the rows of four are rounded before the column is combined).
  const rows = new Int32Array(height * outW);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < outW; x++) {
      const c = across[x];
      const f = first[x];
      let sum = 0;
      for (let i = 0; i < 4; i++) sum += c[i] * data[row + Math.min(width - 1, Math.max(0, f + i))];
      rows[y * outW + x] = round12(sum);
    }
  }
  const out = new Uint8Array(outW * outH);
  for (let y = 0; y < outH; y++) {
    const p = inverse * y + 0.5 + 1; // as the affine adds them: the displacement, then the border
    const c = COEFFICIENTS[subpixel(p)];
    const f = Math.trunc(p) - 3;
    const r = [0, 1, 2, 3].map((i) => Math.min(height - 1, Math.max(0, f + i)) * outW);
    for (let x = 0; x < outW; x++) {
      const v = round12(c[0] * rows[r[0] + x] + c[1] * rows[r[1] + x] + c[2] * rows[r[2] + x] + c[3] * rows[r[3] + x]);
      out[y * outW + x] = Math.min(255, Math.max(0, v));
    }
  }
  return { data: out, width: outW, height: outH };
}
