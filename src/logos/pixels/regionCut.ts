import type { Box } from '../regionScores.ts';
import type { Decoded } from './image.ts';
import type { Background } from './regionField.ts';
import type { Comp } from './regionShapes.ts';

// The last step of finding the logo in an upload (regions.ts): a chosen group's crop.

export interface Region {
  /** In the decoded image's pixels. */
  box: Box;
  score: number;
  /** The decoded image cut to the box, other components' ink in it painted background, its light evened. */
  decoded: Decoded;
}

/**
 * The decoded image cut to a group's box (with a margin), its light evened out against the background's
 * plane, and the ink of every other component near it painted background.
 */
export function cut(
  d: Decoded,
  f: number,
  gw: number,
  label: Int32Array,
  comps: Comp[],
  own: Set<number>,
  b: { x0: number; y0: number; x1: number; y1: number },
  bg: Background,
): Omit<Region, 'score'> | null {
  const gh = label.length / gw;
  const margin = Math.max(1, Math.round(0.08 * Math.max(b.x1 - b.x0, b.y1 - b.y0)));
  const cx0 = Math.max(0, b.x0 - margin);
  const cy0 = Math.max(0, b.y0 - margin);
  const cx1 = Math.min(gw - 1, b.x1 + margin);
  const cy1 = Math.min(gh - 1, b.y1 + margin);
  const kw = cx1 - cx0 + 1;
  // A cell is erased when it, or a neighbour, is another component's ink and it is not the group's own.
  const erase = new Uint8Array(kw * (cy1 - cy0 + 1));
  for (let y = cy0; y <= cy1; y++) {
    for (let x = cx0; x <= cx1; x++) {
      const l = label[y * gw + x];
      if (own.has(l)) continue;
      let other = false;
      for (let dy = -1; dy <= 1 && !other; dy++) {
        for (let dx = -1; dx <= 1 && !other; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= gw || ny >= gh) continue;
          const m = label[ny * gw + nx];
          if (m >= 0 && !own.has(m) && comps[m].cells > 0) other = true;
        }
      }
      if (other) erase[(y - cy0) * kw + (x - cx0)] = 1;
    }
  }
  const left = cx0 * f;
  const top = cy0 * f;
  const width = Math.min(d.width - left, kw * f);
  const height = Math.min(d.height - top, (cy1 - cy0 + 1) * f);
  if (width < 8 || height < 8) return null;
  const level = bg.at((cx0 + cx1) / 2, (cy0 + cy1) / 2);
  const grey = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    const src = (top + y) * d.width + left;
    const ky = Math.min(cy1 - cy0, (y / f) | 0) * kw;
    const gy = (top + y) / f;
    for (let x = 0; x < width; x++) {
      const v = erase[ky + Math.min(kw - 1, (x / f) | 0)] ? level : d.grey[src + x] - bg.at((left + x) / f, gy) + level;
      grey[y * width + x] = Math.max(0, Math.min(255, Math.round(v)));
    }
  }
  // The corner is background by construction (the margin), which is what normalisation trims against.
  grey[0] = Math.max(0, Math.min(255, Math.round(level)));
  return { box: { left, top, width, height }, decoded: { grey, width, height, source: d.source } };
}
