import sharp from 'sharp';
import type { Icon } from '../../models/train/iconSet.ts';
import { iconMask } from '../../src/ingest/generator/raster.ts';
import { mulberry32 } from '../../test/helpers/mulberry32.ts';

// Uploads as a trade mark professional has them (issue 44): a held-out icon softened by blur, saved as a poor JPEG,
// framed in a thick border, shrunk to a thumbnail, small on a busy page, crossed by a rule and a line of words, seen at
// an angle, under uneven light, cut, mirrored, inverted, faded, photographed with a phone; and two kinds that no
// training draws: printed on a product, and set inside a second, unrelated logo. Every query draws its own parameters
// from wide ranges (a seed per icon, kind and --wild-seed), never one setting, with sharp and plain pixel loops written
// apart from the training script's augmentations (models/train/train.py); words in DejaVu, a face training never saw.

export const WILD = [
  'blur',
  'jpeg_low',
  'border',
  'thumbnail',
  'busy_page',
  'rule_text',
  'tilt',
  'uneven_light',
  'cut',
  'mirrored',
  'inverted',
  'faded',
  'phone_photo',
] as const;
/** Kinds nothing is trained on: they show whether robustness carries over. */
export const UNTRAINED = ['product_shot', 'logo_in_logo'] as const;
export type Wild = (typeof WILD)[number] | (typeof UNTRAINED)[number];

type RGB = [number, number, number];
interface Img {
  px: Buffer;
  w: number;
  h: number;
}

const WORDS = [
  'Sunrise Foods',
  'Royal Traders & Co',
  'Shree Balaji',
  'Golden Harvest',
  'Nova Labs',
  'Kiran & Sons',
  'Metro Mart',
  'Anand Dairy',
];
// Faces training never writes in (its lines are DejaVu Sans and Sans Mono: models/train/prepare.ts).
const FONTS = ['DejaVu Serif', 'DejaVu Serif Condensed'];

const rng = mulberry32;
const hashOf = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 2166136261);

const rgbOf = (hex: string): RGB => [0, 2, 4].map((k) => parseInt(hex.slice(k, k + 2), 16)) as RGB;
const lum = (c: RGB) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
const css = (c: RGB) => `rgb(${c.map(Math.round).join(',')})`;
const esc = (s: string) => s.replace(/&/g, '&amp;');

/** A canvas of `paper` with the icon at (x, y), `size` px, in `ink`. */
async function draw(icon: Icon, o: { w: number; h: number; size: number; x: number; y: number; ink: RGB; paper: RGB }): Promise<Img> {
  const px = Buffer.alloc(o.w * o.h * 3);
  for (let p = 0; p < o.w * o.h; p++) px.set(o.paper, p * 3);
  await stamp({ px, w: o.w, h: o.h }, icon, o.size, o.x, o.y, o.ink);
  return { px, w: o.w, h: o.h };
}

async function stamp(img: Img, icon: Icon, size: number, x0: number, y0: number, ink: RGB): Promise<void> {
  const m = await iconMask(icon.slug, Math.max(8, Math.round(size)));
  for (let y = 0; y < m.h; y++)
    for (let x = 0; x < m.w; x++) {
      const a = m.a[y * m.w + x];
      const X = Math.round(x0) + x;
      const Y = Math.round(y0) + y;
      if (!a || X < 0 || Y < 0 || X >= img.w || Y >= img.h) continue;
      const p = (Y * img.w + X) * 3;
      for (let c = 0; c < 3; c++) img.px[p + c] = (img.px[p + c] * (255 - a) + ink[c] * a) / 255;
    }
}

const raw = (i: Img) => sharp(i.px, { raw: { width: i.w, height: i.h, channels: 3 } });
const png = (i: Img) => raw(i).png().toBuffer();

async function decode(buf: Buffer): Promise<Img> {
  const { data, info } = await sharp(buf).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { px: data, w: info.width, h: info.height };
}

/** Bilinear sample of an image at (x, y), `fill` outside. */
function sample(src: Img, x: number, y: number, fill: RGB, out: Buffer, o: number): void {
  if (x < 0 || y < 0 || x > src.w - 1 || y > src.h - 1) {
    out.set(fill, o);
    return;
  }
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(src.w - 1, x0 + 1);
  const y1 = Math.min(src.h - 1, y0 + 1);
  const fx = x - x0;
  const fy = y - y0;
  for (let c = 0; c < 3; c++) {
    const a = src.px[(y0 * src.w + x0) * 3 + c] * (1 - fx) + src.px[(y0 * src.w + x1) * 3 + c] * fx;
    const b = src.px[(y1 * src.w + x0) * 3 + c] * (1 - fx) + src.px[(y1 * src.w + x1) * 3 + c] * fx;
    out[o + c] = a * (1 - fy) + b * fy;
  }
}

/** The homography taking the unit square's corners to `to` (x, y pairs: top-left, top-right, bottom-right, bottom-left). */
function homography(to: number[]): number[] {
  const from = [0, 0, 1, 0, 1, 1, 0, 1];
  const A: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y, u, v] = [from[2 * i], from[2 * i + 1], to[2 * i], to[2 * i + 1]];
    A.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    A.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  // Gaussian elimination with partial pivoting.
  for (let c = 0; c < 8; c++) {
    let p = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(A[r][c]) > Math.abs(A[p][c])) p = r;
    [A[c], A[p]] = [A[p], A[c]];
    [b[c], b[p]] = [b[p], b[c]];
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const f = A[r][c] / A[c][c];
      for (let k = c; k < 8; k++) A[r][k] -= f * A[c][k];
      b[r] -= f * b[c];
    }
  }
  return [...b.map((v, i) => v / A[i][i]), 1];
}

/** The image seen at an angle: each corner moved by up to `amount` of the side, inversely mapped. */
function tilt(src: Img, r: () => number, amount: number, fill: RGB): Img {
  const corners = [0, 0, 1, 0, 1, 1, 0, 1].map((v) => v + (r() * 2 - 1) * amount);
  const H = homography(corners);
  // Invert the 3x3 matrix.
  const [a, b, c, d, e, f, g, h, i] = H;
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  const inv = [
    e * i - f * h,
    c * h - b * i,
    b * f - c * e,
    f * g - d * i,
    a * i - c * g,
    c * d - a * f,
    d * h - e * g,
    b * g - a * h,
    a * e - b * d,
  ].map((v) => v / det);
  const out = Buffer.alloc(src.w * src.h * 3);
  for (let y = 0; y < src.h; y++)
    for (let x = 0; x < src.w; x++) {
      const u = x / (src.w - 1);
      const v = y / (src.h - 1);
      const wz = inv[6] * u + inv[7] * v + inv[8];
      const sx = ((inv[0] * u + inv[1] * v + inv[2]) / wz) * (src.w - 1);
      const sy = ((inv[3] * u + inv[4] * v + inv[5]) / wz) * (src.h - 1);
      sample(src, sx, sy, fill, out, (y * src.w + x) * 3);
    }
  return { px: out, w: src.w, h: src.h };
}

/** Light falling unevenly: a gradient (or a vignette) from `low` to full, and a colour cast. */
function light(src: Img, r: () => number, low: number): Img {
  const out = Buffer.alloc(src.px.length);
  const angle = r() * Math.PI * 2;
  const radial = r() < 0.4;
  const cast = [0, 1, 2].map(() => 0.88 + r() * 0.2);
  const [cx, cy] = [r(), r()];
  for (let y = 0; y < src.h; y++)
    for (let x = 0; x < src.w; x++) {
      const u = x / src.w;
      const v = y / src.h;
      const t = radial
        ? Math.min(1, Math.hypot(u - cx, v - cy) / 0.9)
        : Math.min(1, Math.max(0, 0.5 + (u - 0.5) * Math.cos(angle) + (v - 0.5) * Math.sin(angle)));
      const k = 1 - (1 - low) * t;
      const p = (y * src.w + x) * 3;
      for (let c = 0; c < 3; c++) out[p + c] = Math.max(0, Math.min(255, src.px[p + c] * k * cast[c]));
    }
  return { px: out, w: src.w, h: src.h };
}

function noise(src: Img, r: () => number, amount: number): Img {
  const out = Buffer.from(src.px);
  for (let i = 0; i < out.length; i++) out[i] = Math.max(0, Math.min(255, out[i] + (r() + r() + r() - 1.5) * amount));
  return { px: out, w: src.w, h: src.h };
}

/** SVG overlay: shapes, lines and words, in the canvas's pixels. */
const svg = (w: number, h: number, body: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`);
const text = (x: number, y: number, size: number, words: string, colour: RGB, font: string, angle = 0) =>
  `<text x="${x}" y="${y}" font-family="${font}" font-weight="bold" font-style="${size % 2 ? 'italic' : 'normal'}" ` +
  `font-size="${size}" fill="${css(colour)}" ` +
  `transform="rotate(${angle} ${x} ${y})">${esc(words)}</text>`;

const line = (x1: number, y1: number, x2: number, y2: number, colour: RGB, width: number) =>
  `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${css(colour)}" stroke-width="${width}"/>`;

/** The query image of one held-out icon for one kind, its parameters drawn for it (seed: icon, kind, round). */
export async function wild(
  icon: Icon,
  kind: Wild,
  round = 1,
  others: Icon[] = [],
  /** Filled with where the logo is on a busy page (its box in the page's pixels), for looking into region finding. */
  where: { box?: { left: number; top: number; width: number; height: number } } = {},
): Promise<Buffer> {
  const r = rng(hashOf(`${icon.slug}|${kind}|${round}`));
  const between = (lo: number, hi: number) => lo + (hi - lo) * r();
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const colour = (): RGB => [r() * 255, r() * 255, r() * 255];
  const brand = rgbOf(icon.hex);
  const ink: RGB = lum(brand) > 200 ? [0, 0, 0] : brand;
  const light1: RGB = [230 + r() * 25, 230 + r() * 25, 230 + r() * 25];
  const square = async (side: number, margin: number, paper: RGB = [255, 255, 255], fg: RGB = ink) =>
    draw(icon, { w: side, h: side, size: side * (1 - 2 * margin), x: side * margin, y: side * margin, ink: fg, paper });

  switch (kind) {
    case 'blur': {
      const side = Math.round(between(100, 240));
      const sigma = between(1.2, 5) * (side / 160);
      return raw(await square(side, between(0.05, 0.25)))
        .blur(sigma)
        .png()
        .toBuffer();
    }
    case 'jpeg_low': {
      const side = Math.round(between(90, 220));
      return raw(await square(side, between(0.05, 0.2), light1))
        .jpeg({ quality: Math.round(between(5, 20)) })
        .toBuffer();
    }
    case 'border': {
      const side = Math.round(between(110, 200));
      const width = Math.round(side * between(0.04, 0.3));
      const inner = await raw(await square(side, between(0.04, 0.15)))
        .extend({ top: width, bottom: width, left: width, right: width, background: css(colour()) })
        .png()
        .toBuffer();
      if (r() < 0.5) return inner;
      const second = Math.round(side * between(0.02, 0.12));
      return sharp(inner)
        .extend({ top: second, bottom: second, left: second, right: second, background: css(colour()) })
        .png()
        .toBuffer();
    }
    case 'thumbnail': {
      const to = Math.round(between(40, 64));
      const img = raw(await square(Math.round(between(140, 260)), between(0.03, 0.15))).resize(to, to, {
        kernel: pick(['nearest', 'cubic', 'lanczos3'] as const),
      });
      return r() < 0.4 ? img.jpeg({ quality: Math.round(between(50, 85)) }).toBuffer() : img.png().toBuffer();
    }
    case 'busy_page': {
      const W = Math.round(between(480, 900));
      const H = Math.round(W * between(0.6, 1));
      const size = Math.round(W * between(0.12, 0.25));
      const x = Math.round(between(0.03, 0.97) * (W - size));
      const y = Math.round(between(0.03, 0.97) * (H - size));
      where.box = { left: x, top: y, width: size, height: size };
      const shapes: string[] = [];
      for (let k = Math.round(between(4, 12)); k > 0; k--) {
        const [sx, sy, sw, sh] = [r() * W, r() * H, between(0.05, 0.3) * W, between(0.03, 0.25) * H];
        const c = css(colour());
        const o = between(0.3, 1).toFixed(2);
        shapes.push(
          pick([
            `<rect x="${sx}" y="${sy}" width="${sw}" height="${sh}" fill="${c}" opacity="${o}"/>`,
            `<ellipse cx="${sx}" cy="${sy}" rx="${sw / 3}" ry="${sh / 3}" fill="${c}" opacity="${o}"/>`,
            `<line x1="${sx}" y1="${sy}" x2="${r() * W}" y2="${r() * H}" stroke="${c}" stroke-width="${between(1, 5)}"/>`,
            `<polygon points="${sx},${sy} ${sx + sw},${sy + sh / 2} ${sx},${sy + sh}" fill="${c}" opacity="${o}"/>`,
          ]),
        );
      }
      // The logo's own place is left clear of the larger shapes, as on a page; the rule and the words may cross it.
      shapes.push(
        `<rect x="${x - size * 0.05}" y="${y - size * 0.05}" width="${size * 1.1}" height="${size * 1.1}" fill="${css(light1)}"/>`,
      );
      const over: string[] = [];
      for (let k = Math.round(between(1, 4)); k > 0; k--)
        over.push(text(r() * W * 0.6, r() * H, Math.round(between(12, 36)), pick(WORDS), colour(), pick(FONTS)));
      if (r() < 0.7) {
        const ry = y + size * between(0.2, 0.8);
        over.push(line(0, ry, W, ry + between(-0.2, 0.2) * H, colour(), between(1, 4)));
      }
      // The clutter below the page's ink: the shapes first, then the logo stamped again on its clear place.
      const under = await sharp({ create: { width: W, height: H, channels: 3, background: css(light1) } })
        .composite([{ input: svg(W, H, shapes.join('')) }])
        .png()
        .toBuffer();
      const withLogo = await decode(under);
      await stamp(withLogo, icon, size, x, y, ink);
      return raw(noise(withLogo, r, between(2, 8)))
        .composite([{ input: svg(W, H, over.join('')) }])
        .jpeg({ quality: Math.round(between(60, 92)) })
        .toBuffer();
    }
    case 'rule_text': {
      const side = Math.round(between(140, 240));
      const img = await square(side, between(0.05, 0.15));
      const over: string[] = [];
      const ty = side * between(0.3, 0.85);
      over.push(text(side * between(0, 0.3), ty, Math.round(side * between(0.1, 0.22)), pick(WORDS), colour(), pick(FONTS)));
      const ry = side * between(0.2, 0.8);
      over.push(line(0, ry, side, ry + between(-0.3, 0.3) * side, colour(), between(1, 6)));
      return raw(img)
        .composite([{ input: svg(side, side, over.join('')) }])
        .png()
        .toBuffer();
    }
    case 'tilt': {
      const side = Math.round(between(140, 220));
      return png(tilt(await square(side, between(0.12, 0.22)), r, between(0.08, 0.22), [255, 255, 255]));
    }
    case 'uneven_light': {
      const side = Math.round(between(130, 220));
      return png(noise(light(await square(side, between(0.05, 0.2), light1), r, between(0.3, 0.7)), r, between(0, 6)));
    }
    case 'cut': {
      const side = Math.round(between(140, 220));
      const img = await square(side, 0);
      let [left, top, right, bottom] = [0, 0, 0, 0];
      const one = () => Math.round(side * between(0.1, 0.35));
      const sides = r() < 0.6 ? 1 : 2;
      for (let k = 0; k < sides; k++) {
        const s = Math.floor(r() * 4);
        const cut = sides === 1 ? one() : Math.round(side * between(0.08, 0.22));
        if (s === 0) left = cut;
        else if (s === 1) top = cut;
        else if (s === 2) right = cut;
        else bottom = cut;
      }
      return raw(img)
        .extract({ left, top, width: side - left - right, height: side - top - bottom })
        .png()
        .toBuffer();
    }
    case 'mirrored':
      return raw(await square(Math.round(between(120, 220)), between(0.05, 0.2), [255, 255, 255], r() < 0.5 ? ink : colour()))
        .flop()
        .png()
        .toBuffer();
    case 'inverted': {
      const img = await square(Math.round(between(120, 220)), between(0.05, 0.2), [255, 255, 255], r() < 0.5 ? ink : [0, 0, 0]);
      for (let i = 0; i < img.px.length; i++) img.px[i] = 255 - img.px[i];
      return png(img);
    }
    case 'faded': {
      // Grey, and low in contrast: ink and paper between 25 and 90 levels of grey apart.
      const paper = between(150, 245);
      const gap = between(25, 90);
      const g = (v: number): RGB => [v, v, v];
      return raw(await square(Math.round(between(120, 220)), between(0.05, 0.2), g(paper), g(paper - gap)))
        .png()
        .toBuffer();
    }
    case 'phone_photo': {
      const side = Math.round(between(200, 360));
      let img = await square(side, between(0.15, 0.3), light1);
      img = light(tilt(img, r, between(0.03, 0.12), light1), r, between(0.45, 0.85));
      const blurred = await raw(noise(img, r, between(3, 10)))
        .blur(between(0.6, 2.5) * (side / 200))
        .jpeg({ quality: Math.round(between(35, 70)) })
        .toBuffer();
      return blurred;
    }
    case 'product_shot': {
      // The logo printed on a bottle or a box standing on a table: wrapped round a cylinder or set square on a
      // box's face, shaded, with the table and the wall behind it.
      const W = Math.round(between(320, 520));
      const H = Math.round(W * between(0.75, 1.1));
      const wall: RGB = [between(120, 240), between(120, 240), between(120, 240)];
      const table: RGB = wall.map((c) => c * between(0.5, 0.85)) as RGB;
      const body: RGB = r() < 0.5 ? [250, 250, 250] : colour();
      const pw = Math.round(W * between(0.3, 0.45));
      const ph = Math.round(H * between(0.5, 0.75));
      const px0 = Math.round((W - pw) / 2 + between(-0.2, 0.2) * W);
      const py0 = Math.round(H * 0.82 - ph);
      const label = await square(Math.round(pw * between(0.7, 0.9)), between(0.04, 0.1), body, lum(body) > 128 ? ink : [255, 255, 255]);
      const cylinder = r() < 0.6;
      const out = Buffer.alloc(W * H * 3);
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          const o = (y * W + x) * 3;
          const base = y < H * 0.78 ? wall : table;
          out.set(base.map((c) => c * (0.85 + 0.15 * (1 - y / H))) as RGB, o);
          if (x < px0 || x >= px0 + pw || y < py0 || y >= py0 + ph) continue;
          const u = (x - px0) / pw;
          const shade = cylinder ? 0.55 + 0.45 * Math.sin(Math.PI * u) : 0.9;
          const ly = (y - py0 - (ph - label.h) / 2) / label.h;
          // Round a cylinder the label's columns crowd towards its edges.
          const lu = cylinder ? (1 - Math.cos(Math.PI * u)) / 2 : u;
          const lx = ((lu - 0.5) * pw) / label.w + 0.5;
          if (ly >= 0 && ly < 1 && lx >= 0 && lx < 1) sample(label, lx * (label.w - 1), ly * (label.h - 1), body, out, o);
          else out.set(body, o);
          for (let c = 0; c < 3; c++) out[o + c] *= shade;
        }
      return raw(tilt({ px: out, w: W, h: H }, r, between(0, 0.06), wall))
        .blur(between(0.3, 1.2))
        .jpeg({ quality: Math.round(between(55, 85)) })
        .toBuffer();
    }
    case 'logo_in_logo': {
      // Inside another, unrelated logo drawn large and pale around it: a badge of someone else's mark.
      const other = others.length ? others[Math.floor(r() * others.length)] : icon;
      const side = Math.round(between(180, 280));
      const pale: RGB = [between(150, 230), between(150, 230), between(150, 230)];
      const img = await draw(other, {
        w: side,
        h: side,
        size: side * 0.96,
        x: side * 0.02,
        y: side * 0.02,
        ink: pale,
        paper: [255, 255, 255],
      });
      const s = side * between(0.35, 0.55);
      const at = (side - s) / 2 + between(-0.08, 0.08) * side;
      await stamp(img, icon, s, at, (side - s) / 2 + between(-0.08, 0.08) * side, ink);
      return png(img);
    }
  }
}
