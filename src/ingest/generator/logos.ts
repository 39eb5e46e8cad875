import sharp from 'sharp';
import type { Marks } from './marks.ts';
import { type Font, font, iconMask, iconSlugs, type Mask, textWidth } from './raster.ts';
import { hash3, Rng, Weighted, zipf } from './rng.ts';

// Logos for device and composite marks: a simple-icons glyph with varied colour, background, added
// text and layout. A mark that copies an earlier device mark usually copies its picture too, so the
// logo set has genuine near-duplicates for the image-similarity engine to find.

const S_LOGO = 41,
  S_ICON = 42;
const CANVASES: [number, number][] = [
  [128, 128],
  [160, 160],
  [192, 128],
  [192, 96],
  [144, 144],
];
const INK: [number, number, number][] = [
  [200, 16, 46],
  [0, 82, 147],
  [0, 122, 61],
  [255, 153, 51],
  [19, 136, 8],
  [106, 27, 154],
  [0, 0, 0],
  [33, 33, 33],
  [183, 28, 28],
  [13, 71, 161],
  [245, 124, 0],
  [0, 105, 92],
  [121, 85, 72],
  [194, 24, 91],
  [63, 81, 181],
  [212, 160, 23],
];
const PAPER: [number, number, number][] = [
  [255, 255, 255],
  [255, 255, 255],
  [255, 255, 255],
  [250, 246, 233],
  [255, 248, 225],
  [232, 245, 233],
  [227, 242, 253],
  [252, 228, 236],
  [245, 245, 245],
  [20, 20, 20],
  [13, 27, 62],
  [90, 10, 20],
];
type Layout = 'mark' | 'badge' | 'stack' | 'inline' | 'frame' | 'split';

export interface Logo {
  png: Buffer;
  text: string;
}

export class LogoRenderer {
  private readonly slugs = iconSlugs();
  private readonly iconDraw: Weighted<number>;
  private readonly rng = new Rng();

  constructor(
    readonly seed: number,
    readonly marks: Marks,
  ) {
    // Popularity over icons is Zipf-shaped (a few motifs such as stars and lions recur everywhere);
    // which icons are popular is shuffled by seed.
    const order = this.slugs.map((_, k) => k).sort((a, b) => hash3(seed, a, 7) - hash3(seed, b, 7));
    this.iconDraw = new Weighted(order, zipf(order.length, 0.8, 10));
  }

  /** Icon of mark i: its parent's if it imitates a device mark, else its own. */
  icon(i: number): number {
    const c = this.marks.core(i);
    if (c.parent >= 0) {
      const t = this.marks.type(c.parent);
      if ((t === 'DEVICE' || t === 'COMPOSITE') && this.rng.reseed(this.seed, i, S_ICON).chance(0.7)) return this.icon(c.parent);
    }
    return this.iconDraw.index(this.rng.reseed(this.seed, i, S_ICON + 1).float());
  }

  async render(i: number): Promise<Logo> {
    const core = this.marks.core(i);
    const iconIndex = this.icon(i);
    const r = new Rng(this.seed, i, S_LOGO);
    const [w, h] = r.pick(CANVASES);
    const wide = w > h;
    let text = core.word ? core.word : r.chance(0.2) ? monogram(r) : '';
    const layout: Layout = text
      ? wide
        ? r.pick<Layout>(['inline', 'inline', 'stack'])
        : r.pick<Layout>(['stack', 'stack', 'frame', 'badge'])
      : r.pick<Layout>(['mark', 'badge', 'split', 'frame']);
    const paper = r.pick(PAPER);
    const dark = paper[0] + paper[1] + paper[2] < 300;
    let ink = r.pick(INK);
    if (dark) ink = [255 - (ink[0] >> 2), 230 - (ink[1] >> 3), 200 - (ink[2] >> 3)];
    const accent = r.pick(INK);
    const c = new Canvas(w, h, paper);

    let iconSize: number;
    let ix: number;
    let iy: number;
    let textTop = 0;
    if (layout === 'inline') {
      iconSize = snap(h * 0.62);
      ix = Math.round(h * 0.18);
      iy = Math.round((h - iconSize) / 2);
    } else if (layout === 'badge') {
      const d = Math.min(w, h) * (text ? 0.62 : 0.8);
      const cy = text ? h * 0.4 : h / 2;
      c.disc(w / 2, cy, d / 2, accent);
      iconSize = snap(d * 0.58);
      ix = Math.round((w - iconSize) / 2);
      iy = Math.round(cy - iconSize / 2);
      textTop = Math.round(cy + d / 2 + 4);
    } else {
      iconSize = snap(Math.min(w, h) * (text ? 0.5 : 0.66));
      ix = Math.round((w - iconSize) / 2);
      iy = text ? Math.round(h * 0.1) : Math.round((h - iconSize) / 2);
      textTop = iy + iconSize + Math.round(h * 0.06);
    }
    if (layout === 'split') c.split(accent, r.chance(0.5));
    if (layout === 'frame') c.frame(Math.max(3, Math.round(w / 40)), accent);
    const iconColour =
      layout === 'badge'
        ? paper
        : layout === 'split'
          ? dark
            ? ([255, 255, 255] as [number, number, number])
            : ([0, 0, 0] as [number, number, number])
          : ink;
    c.blit(await iconMask(this.slugs[iconIndex], iconSize), ix, iy, iconColour);

    if (text) {
      const room = layout === 'inline' ? w - (ix + iconSize) - 10 : w - 12;
      const fitted = await fit(text, room);
      text = fitted.text;
      if (text) {
        const tw = textWidth(fitted.font, text);
        const tx = layout === 'inline' ? ix + iconSize + 6 + Math.max(0, Math.floor((room - tw) / 2)) : Math.floor((w - tw) / 2);
        const ty = layout === 'inline' ? Math.round((h - fitted.font.height) / 2) : Math.min(h - fitted.font.height - 2, textTop);
        c.text(fitted.font, text, tx, ty, ink);
      }
    }
    const png = await sharp(c.px, { raw: { width: w, height: h, channels: 3 } })
      .png({ compressionLevel: 6, adaptiveFiltering: false })
      .toBuffer();
    return { png, text };
  }
}

/** Few distinct icon sizes, so each icon is rasterised only a handful of times. */
function snap(size: number): number {
  const s = Math.round(size);
  return Math.max(24, s - (s % 8));
}

function monogram(r: Rng): string {
  const letters = 'ABCDEGHJKMNPRSTV';
  return letters[r.int(letters.length)] + (r.chance(0.6) ? letters[r.int(letters.length)] : '');
}

/** The largest of two sizes that fits, dropping trailing words (then letters) when none does. */
async function fit(text: string, room: number): Promise<{ font: Font; text: string }> {
  const big = await font(20);
  const small = await font(14);
  let t = text.replace(/[^A-Z0-9&'.\-/ ]/g, '');
  if (textWidth(big, t) <= room) return { font: big, text: t };
  while (t && textWidth(small, t) > room) t = t.includes(' ') ? t.slice(0, t.lastIndexOf(' ')) : t.slice(0, -1);
  return { font: small, text: t.trim() };
}

class Canvas {
  readonly px: Buffer;

  constructor(
    readonly w: number,
    readonly h: number,
    bg: [number, number, number],
  ) {
    this.px = Buffer.allocUnsafe(w * h * 3);
    for (let p = 0; p < w * h * 3; p += 3) {
      this.px[p] = bg[0];
      this.px[p + 1] = bg[1];
      this.px[p + 2] = bg[2];
    }
  }

  private set(x: number, y: number, c: [number, number, number], a: number): void {
    if (x < 0 || y < 0 || x >= this.w || y >= this.h || a === 0) return;
    const p = (y * this.w + x) * 3;
    const px = this.px;
    if (a >= 255) {
      px[p] = c[0];
      px[p + 1] = c[1];
      px[p + 2] = c[2];
      return;
    }
    px[p] = (px[p] * (255 - a) + c[0] * a) / 255;
    px[p + 1] = (px[p + 1] * (255 - a) + c[1] * a) / 255;
    px[p + 2] = (px[p + 2] * (255 - a) + c[2] * a) / 255;
  }

  blit(m: Mask, x0: number, y0: number, c: [number, number, number]): void {
    for (let y = 0; y < m.h; y++) for (let x = 0; x < m.w; x++) this.set(x0 + x, y0 + y, c, m.a[y * m.w + x]);
  }

  disc(cx: number, cy: number, r: number, c: [number, number, number]): void {
    for (let y = Math.floor(cy - r - 1); y <= cy + r + 1; y++) {
      for (let x = Math.floor(cx - r - 1); x <= cx + r + 1; x++) {
        const d = r - Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
        if (d > 0) this.set(x, y, c, d >= 1 ? 255 : Math.round(d * 255));
      }
    }
  }

  split(c: [number, number, number], diagonal: boolean): void {
    for (let y = 0; y < this.h; y++)
      for (let x = 0; x < this.w; x++) if (diagonal ? x / this.w + y / this.h > 1 : y > this.h / 2) this.set(x, y, c, 255);
  }

  frame(t: number, c: [number, number, number]): void {
    for (let y = 0; y < this.h; y++) {
      for (let x = 0; x < this.w; x++) {
        if (x < t || y < t || x >= this.w - t || y >= this.h - t) this.set(x, y, c, 255);
      }
    }
  }

  text(f: Font, s: string, x: number, y: number, c: [number, number, number]): void {
    const gap = Math.max(1, Math.round(f.size * 0.08));
    for (const ch of s) {
      const g = f.glyphs.get(ch);
      if (ch === ' ' || !g) {
        x += f.space + gap;
        continue;
      }
      this.blit(g, x, y, c);
      x += g.w + gap;
    }
  }
}
