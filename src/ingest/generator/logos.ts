import sharp from 'sharp';
import { toDevanagari } from './devanagari.ts';
import { type IconPixels, iconPixels } from './iconRaster.ts';
import { type Line, lineWidth, setLine } from './lettering.ts';
import { drawable, type LogoDesign, LogoDesigner, type Rgb } from './logoDesign.ts';
import type { Marks } from './marks.ts';
import type { Mask } from './raster.ts';

// Logos for device and composite marks, drawn as logoDesign.ts decides, the way Indian labels look: a
// figure (an icon of the concept catalogue in the logo's ink or its own colours, or a brand glyph) with
// the mark's words in Latin letters and often in Devanagari beside or under it, on a coloured paper, in
// a frame, a double-ruled label with a band, a badge or a seal with the words round it. A mark that
// copies an earlier device mark usually copies its picture too, so the logo set has genuine near-duplicates
// for the image-similarity engine to find, and sometimes the same concept drawn by another hand.

export interface Logo {
  png: Buffer;
  /** The Latin words drawn (what OCR may read), '' for none. */
  text: string;
}

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

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
    const d = this.designer.design(i);
    const { w, h, layout, paper, dark, ink, accent, diagonal } = d;
    const c = new Canvas(w, h, paper);
    const latin = d.text ? drawable(d.text) : '';
    const hindi = d.hindi;
    let text = '';
    if (layout === 'seal') return this.seal(d, c, latin, hindi);

    // Room for the lines under the icon (stacked layouts) or beside it (inline).
    const inline = layout === 'inline';
    const lineRoom = inline ? 0 : (latin ? 0.22 : 0) + (hindi ? 0.2 : 0);
    let iconSize: number;
    let ix: number;
    let iy: number;
    let textTop = 0;
    if (inline) {
      iconSize = snap(h * 0.62);
      ix = Math.round(h * 0.18);
      iy = Math.round((h - iconSize) / 2);
    } else if (layout === 'badge') {
      const dia = Math.min(w, h) * (latin ? (hindi ? 0.5 : 0.62) : 0.8);
      const cy = latin ? h * (hindi ? 0.32 : 0.4) : h / 2;
      c.disc(w / 2, cy, dia / 2, accent);
      iconSize = snap(dia * 0.58);
      ix = Math.round((w - iconSize) / 2);
      iy = Math.round(cy - iconSize / 2);
      textTop = Math.round(cy + dia / 2 + 3);
    } else {
      iconSize = snap(Math.min(w, h * (1 - lineRoom)) * (latin ? 0.62 : 0.66));
      ix = Math.round((w - iconSize) / 2);
      iy = latin ? Math.round(h * 0.08) + (layout === 'label' ? 4 : 0) : Math.round((h - iconSize) / 2);
      textTop = iy + iconSize + Math.round(h * 0.03);
    }
    if (layout === 'split') c.split(accent, diagonal);
    if (layout === 'frame') c.frame(0, Math.max(3, Math.round(w / 40)), accent);
    if (layout === 'label') {
      c.frame(0, Math.max(3, Math.round(w / 48)), accent);
      c.frame(Math.max(3, Math.round(w / 48)) + 2, 1, ink);
    }
    const iconInk = layout === 'badge' ? paper : layout === 'split' ? (dark ? WHITE : BLACK) : ink;
    c.icon(await iconPixels(d.iconKey, iconSize, d.colour), ix, iy, iconInk);

    if (latin) {
      const margin = layout === 'label' || layout === 'frame' ? 10 : 6;
      const room = inline ? w - (ix + iconSize) - 10 : w - 2 * margin;
      const lines: Line[] = [];
      const fitted = fit(latin, room, [20, 16, 13]);
      text = fitted.text;
      if (text) lines.push(await setLine(text, fitted.size));
      // The Devanagari says what the Latin line says, words the room dropped left out of both.
      const hi = hindi && text ? fit(toDevanagari(text), room, [16, 13]) : null;
      if (hi?.text) lines.push(await setLine(hi.text, hi.size));
      const heights = lines.map((l) => l.ascent + l.descent);
      const total = heights.reduce((a, b) => a + b, 0);
      let y = inline ? Math.round((h - total) / 2) : Math.min(h - total - (layout === 'label' ? 6 : 2), textTop);
      for (const [k, l] of lines.entries()) {
        const x = inline ? ix + iconSize + 6 + Math.max(0, Math.floor((room - l.width) / 2)) : Math.floor((w - l.width) / 2);
        // On a label, the name stands on a band of the accent colour.
        if (layout === 'label' && k === 0) c.band(y - 1, y + heights[k] + 1, 8, accent);
        c.line(l, x, y + l.ascent, layout === 'label' && k === 0 ? onColour(accent) : ink);
        y += heights[k];
      }
    }
    return { png: await png(c), text };
  }

  /** A seal: a ring of the accent colour with the Latin words round its top and the Devanagari round its foot. */
  private async seal(d: LogoDesign, c: Canvas, latin: string, hindi: string): Promise<Logo> {
    const { w, h } = d;
    const cx = w / 2;
    const cy = h / 2;
    const R = Math.min(w, h) / 2 - 3;
    const ring = R * 0.3;
    c.disc(cx, cy, R, d.accent);
    c.disc(cx, cy, R - ring, d.paper);
    c.disc(cx, cy, R - ring - 2, d.accent);
    c.disc(cx, cy, R - ring - 3, d.paper);
    const iconSize = snap((R - ring - 3) * 1.3);
    c.icon(await iconPixels(d.iconKey, iconSize, d.colour), Math.round(cx - iconSize / 2), Math.round(cy - iconSize / 2), d.ink);
    const size = Math.max(9, Math.round(ring * 0.62));
    const r = R - ring / 2;
    const arc = Math.PI * r * 0.8;
    const top = fit(latin, arc, [size, size - 2, size - 4]);
    const foot = hindi && top.text ? fit(toDevanagari(top.text), arc, [size, size - 2, size - 4]) : null;
    const on = onColour(d.accent);
    if (top.text) c.arc(await setLine(top.text, top.size), cx, cy, r - top.size * 0.3, true, on);
    if (foot?.text) c.arc(await setLine(foot.text, foot.size), cx, cy, r + foot.size * 0.35, false, on);
    return { png: await png(c), text: top.text };
  }
}

/** White or black, whichever reads on `bg`. */
function onColour(bg: Rgb): Rgb {
  return 0.299 * bg[0] + 0.587 * bg[1] + 0.114 * bg[2] < 150 ? WHITE : BLACK;
}

function png(c: Canvas): Promise<Buffer> {
  return sharp(c.px, { raw: { width: c.w, height: c.h, channels: 3 } })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}

/** The mask's alpha at (u, v), bilinear; 0 outside. */
function sample(m: Mask, u: number, v: number): number {
  if (u <= -1 || v <= -1 || u >= m.w || v >= m.h) return 0;
  const x = Math.floor(u);
  const y = Math.floor(v);
  const fx = u - x;
  const fy = v - y;
  const at = (i: number, j: number) => (i < 0 || j < 0 || i >= m.w || j >= m.h ? 0 : m.a[j * m.w + i]);
  const top = at(x, y) * (1 - fx) + at(x + 1, y) * fx;
  const bottom = at(x, y + 1) * (1 - fx) + at(x + 1, y + 1) * fx;
  return Math.round(top * (1 - fy) + bottom * fy);
}

/** Few distinct icon sizes, so each icon is rasterised only a handful of times. */
function snap(size: number): number {
  const s = Math.round(size);
  return Math.max(32, s - (s % 16));
}

/** The largest size that fits `room`, dropping trailing words (then letters) at the smallest when none does. */
function fit(text: string, room: number, sizes: number[]): { size: number; text: string } {
  let t = text.trim();
  for (const size of sizes) if (lineWidth(t, size) <= room) return { size, text: t };
  const size = sizes[sizes.length - 1];
  while (t && lineWidth(t, size) > room) t = t.includes(' ') ? t.slice(0, t.lastIndexOf(' ')) : [...t].slice(0, -1).join('');
  return { size, text: t.trim() };
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
      // Only the row's span inside the circle (and its edge pixel) is looked at.
      const dy = y + 0.5 - cy;
      const half = Math.sqrt(Math.max(0, r * r - dy * dy)) + 1;
      for (let x = Math.floor(cx - half); x <= cx + half; x++) {
        const d = r - Math.hypot(x + 0.5 - cx, dy);
        if (d > 0) this.set(x, y, c, d >= 1 ? 255 : Math.round(d * 255));
      }
    }
  }

  /** An icon: a mask in `ink`, or colour pixels as they are. */
  icon(p: IconPixels, x0: number, y0: number, ink: Rgb): void {
    if ('mask' in p) {
      this.blit(p.mask, x0, y0, ink);
      return;
    }
    const { w, h, px } = p.rgba;
    const out = this.px;
    for (let y = Math.max(0, -y0); y < h && y0 + y < this.h; y++) {
      for (let x = Math.max(0, -x0); x < w && x0 + x < this.w; x++) {
        const q = (y * w + x) * 4;
        const a = px[q + 3];
        if (a === 0) continue;
        const o = ((y0 + y) * this.w + x0 + x) * 3;
        out[o] = (out[o] * (255 - a) + px[q] * a) / 255;
        out[o + 1] = (out[o + 1] * (255 - a) + px[q + 1] * a) / 255;
        out[o + 2] = (out[o + 2] * (255 - a) + px[q + 2] * a) / 255;
      }
    }
  }

  band(y0: number, y1: number, inset: number, c: Rgb): void {
    for (let y = Math.max(0, y0); y < Math.min(this.h, y1); y++) for (let x = inset; x < this.w - inset; x++) this.set(x, y, c, 255);
  }

  line(l: Line, x: number, baseline: number, c: Rgb): void {
    for (const g of l.glyphs) this.blit(g.mask, x + g.dx, baseline + g.dy, c);
  }

  /**
   * A line round a circle of radius `r` about (cx, cy), centred on its top (`top`) or its foot, upright and
   * reading left to right either way; the baseline is on the circle (the glyphs inside it at the top,
   * outside at the foot). Each glyph is turned about its baseline's middle and sampled bilinearly.
   */
  arc(l: Line, cx: number, cy: number, r: number, top: boolean, colour: Rgb): void {
    const half = l.width / 2;
    for (const g of l.glyphs) {
      const along = g.centre - half;
      const a = top ? along / r : Math.PI - along / r;
      const ox = cx + r * Math.sin(a);
      const oy = cy - r * Math.cos(a);
      const turn = top ? a : a - Math.PI;
      const cos = Math.cos(turn);
      const sin = Math.sin(turn);
      // The glyph's box in its own frame (origin at its baseline's middle), and where that box lands.
      const u0 = g.dx - g.centre;
      const v0 = g.dy;
      const m = g.mask;
      const reach = Math.hypot(Math.max(Math.abs(u0), Math.abs(u0 + m.w)), Math.max(Math.abs(v0), Math.abs(v0 + m.h))) + 1;
      for (let y = Math.floor(oy - reach); y <= oy + reach; y++) {
        for (let x = Math.floor(ox - reach); x <= ox + reach; x++) {
          const dx = x + 0.5 - ox;
          const dy = y + 0.5 - oy;
          const u = dx * cos + dy * sin - u0 - 0.5;
          const v = -dx * sin + dy * cos - v0 - 0.5;
          const a8 = sample(m, u, v);
          if (a8 > 0) this.set(x, y, colour, a8);
        }
      }
    }
  }

  split(c: Rgb, diagonal: boolean): void {
    for (let y = 0; y < this.h; y++)
      for (let x = 0; x < this.w; x++) if (diagonal ? x / this.w + y / this.h > 1 : y > this.h / 2) this.set(x, y, c, 255);
  }

  /** A border `t` wide, `inset` pixels in from the edge. */
  frame(inset: number, t: number, c: Rgb): void {
    for (let y = inset; y < this.h - inset; y++) {
      for (let x = inset; x < this.w - inset; x++) {
        if (x < inset + t || y < inset + t || x >= this.w - inset - t || y >= this.h - inset - t) this.set(x, y, c, 255);
      }
    }
  }
}
