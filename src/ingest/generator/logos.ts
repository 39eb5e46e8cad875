import sharp from 'sharp';
import { drawable, LogoDesigner, type Rgb } from './logoDesign.ts';
import type { Marks } from './marks.ts';
import { type Font, font, iconMask, type Mask, textWidth } from './raster.ts';

// Logos for device and composite marks: a simple-icons glyph with varied colour, background, added
// text and layout, drawn as logoDesign.ts decides. A mark that copies an earlier device mark usually
// copies its picture too, so the logo set has genuine near-duplicates for the image-similarity engine to find.

export interface Logo {
  png: Buffer;
  text: string;
}

export class LogoRenderer {
  readonly designer: LogoDesigner;

  constructor(
    readonly seed: number,
    readonly marks: Marks,
  ) {
    this.designer = new LogoDesigner(seed, marks);
  }

  /** Draws mark i's design (logoDesign.ts). */
  async render(i: number): Promise<Logo> {
    const { icon, w, h, layout, paper, dark, ink, accent, diagonal, text: given } = this.designer.design(i);
    let text = given;
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
    if (layout === 'split') c.split(accent, diagonal);
    if (layout === 'frame') c.frame(Math.max(3, Math.round(w / 40)), accent);
    const iconColour = layout === 'badge' ? paper : layout === 'split' ? (dark ? ([255, 255, 255] as Rgb) : ([0, 0, 0] as Rgb)) : ink;
    c.blit(await iconMask(this.designer.slugs[icon], iconSize), ix, iy, iconColour);

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

/** The largest of two sizes that fits, dropping trailing words (then letters) when none does. */
async function fit(text: string, room: number): Promise<{ font: Font; text: string }> {
  const big = await font(20);
  const small = await font(14);
  let t = drawable(text);
  if (textWidth(big, t) <= room) return { font: big, text: t };
  while (t && textWidth(small, t) > room) t = t.includes(' ') ? t.slice(0, t.lastIndexOf(' ')) : t.slice(0, -1);
  return { font: small, text: t.trim() };
}

class Canvas {
  readonly px: Buffer;

  constructor(
    readonly w: number,
    readonly h: number,
    bg: Rgb,
  ) {
    this.px = Buffer.allocUnsafe(w * h * 3);
    for (let p = 0; p < w * h * 3; p += 3) {
      this.px[p] = bg[0];
      this.px[p + 1] = bg[1];
      this.px[p + 2] = bg[2];
    }
  }

  private set(x: number, y: number, c: Rgb, a: number): void {
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

  blit(m: Mask, x0: number, y0: number, c: Rgb): void {
    for (let y = 0; y < m.h; y++) for (let x = 0; x < m.w; x++) this.set(x0 + x, y0 + y, c, m.a[y * m.w + x]);
  }

  disc(cx: number, cy: number, r: number, c: Rgb): void {
    for (let y = Math.floor(cy - r - 1); y <= cy + r + 1; y++) {
      for (let x = Math.floor(cx - r - 1); x <= cx + r + 1; x++) {
        const d = r - Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
        if (d > 0) this.set(x, y, c, d >= 1 ? 255 : Math.round(d * 255));
      }
    }
  }

  split(c: Rgb, diagonal: boolean): void {
    for (let y = 0; y < this.h; y++)
      for (let x = 0; x < this.w; x++) if (diagonal ? x / this.w + y / this.h > 1 : y > this.h / 2) this.set(x, y, c, 255);
  }

  frame(t: number, c: Rgb): void {
    for (let y = 0; y < this.h; y++) {
      for (let x = 0; x < this.w; x++) {
        if (x < t || y < t || x >= this.w - t || y >= this.h - t) this.set(x, y, c, 255);
      }
    }
  }

  text(f: Font, s: string, x: number, y: number, c: Rgb): void {
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
