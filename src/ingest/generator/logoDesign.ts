import fs from 'node:fs';
import type { Marks } from './marks.ts';
import { iconSlugs } from './raster.ts';
import { hash3, Rng, Weighted, zipf } from './rng.ts';

// What a mark's logo shows, decided without drawing it: the icon, canvas, layout, words and colours.
// The renderer (logos.ts) draws exactly this, and the builder reads the same design for the mark's
// Vienna codes (vienna.ts), so a mark's codes describe its logo whether or not the set ships its image.
// Every choice is a pure function of (seed, mark index).

const S_LOGO = 41,
  S_ICON = 42;
const CANVASES: [number, number][] = [
  [128, 128],
  [160, 160],
  [192, 128],
  [192, 96],
  [144, 144],
];
export type Rgb = [number, number, number];
const INK: Rgb[] = [
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
const PAPER: Rgb[] = [
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
export type Layout = 'mark' | 'badge' | 'stack' | 'inline' | 'frame' | 'split';

export interface LogoDesign {
  /** The icon's index in the designer's `slugs`, and its name (what the icon set calls it). */
  icon: number;
  iconName: string;
  w: number;
  h: number;
  layout: Layout;
  /** The mark's words, or a monogram of one or two letters, as given ('' for none); `fit` trims them to the room. */
  text: string;
  monogram: boolean;
  paper: Rgb;
  /** On a dark paper the ink is lightened (`dark`), so words are light on dark. */
  dark: boolean;
  ink: Rgb;
  accent: Rgb;
  /** A split background divided diagonally (else horizontally). */
  diagonal: boolean;
}

/** The characters the logo font draws: other characters of a word mark are left out of its logo. */
export const drawable = (text: string) => text.replace(/[^A-Z0-9&'.\-/ ]/g, '');

export class LogoDesigner {
  readonly slugs = iconSlugs();
  private readonly names = iconNames();
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

  /** The design of mark i's logo; the draws keep the order the renderer has always made them in. */
  design(i: number): LogoDesign {
    const core = this.marks.core(i);
    const icon = this.icon(i);
    const r = new Rng(this.seed, i, S_LOGO);
    const [w, h] = r.pick(CANVASES);
    const wide = w > h;
    const monogram = !core.word && r.chance(0.2);
    const text = core.word ? core.word : monogram ? monogramOf(r) : '';
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
    const diagonal = layout === 'split' && r.chance(0.5);
    const slug = this.slugs[icon];
    return { icon, iconName: this.names.get(slug) ?? slug, w, h, layout, text, monogram, paper, dark, ink, accent, diagonal };
  }
}

function monogramOf(r: Rng): string {
  const letters = 'ABCDEGHJKMNPRSTV';
  return letters[r.int(letters.length)] + (r.chance(0.6) ? letters[r.int(letters.length)] : '');
}

// simple-icons names each icon by its title ("Apple Music"); the file name is the title folded to a slug.
const SLUG_CHARS: Record<string, string> = {
  '+': 'plus',
  '.': 'dot',
  '&': 'and',
  đ: 'd',
  ħ: 'h',
  ı: 'i',
  ĸ: 'k',
  ŀ: 'l',
  ł: 'l',
  ß: 'ss',
  ŧ: 't',
  ø: 'o',
};
const slugOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[+.&đħıĸŀłßŧø]/g, (c) => SLUG_CHARS[c])
    .normalize('NFD')
    .replace(/[^a-z0-9]/g, '');

/** Each icon's title by its slug (an icon without one is named by its slug). */
function iconNames(): Map<string, string> {
  const file = new URL('./data/simple-icons.json', import.meta.resolve('simple-icons')).pathname;
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as
    | { title: string; slug?: string }[]
    | { icons: { title: string; slug?: string }[] };
  const icons = Array.isArray(data) ? data : data.icons;
  return new Map(icons.map((x) => [x.slug ?? slugOf(x.title), x.title]));
}
