import fs from 'node:fs';
import { catalogue } from './catalogue.ts';
import { toDevanagari } from './devanagari.ts';
import { keepOnly, SET_BY_PREFIX } from './iconSets.ts';
import type { Marks } from './marks.ts';
import { iconSlugs } from './raster.ts';
import { hash3, Rng, Weighted, zipf } from './rng.ts';

// What a mark's logo shows, decided without drawing it: the icon, canvas, layout, words and colours.
// Most icons are figures of a concept of the icon catalogue (catalogue.ts: lions, suns, peacocks, deities'
// symbols, flowers, vehicles, tools… from several npm icon and emoji sets); the rest are simple-icons brand
// glyphs, abstract figures. The mark's words are set in Latin letters and, on many labels, in Devanagari too.
// The renderer (logos.ts) draws exactly this, and the builder reads the same design for the mark's
// Vienna codes (vienna.ts), so a mark's codes describe its logo whether or not the set ships its image.
// Every choice is a pure function of (seed, mark index).

const S_LOGO = 41,
  S_ICON = 42,
  S_SOURCE = 44;
/** Share of device marks whose figure is a concept of the catalogue (the rest: a brand glyph). */
const CONCEPT_SHARE = 0.8;
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
export type Layout = 'mark' | 'badge' | 'stack' | 'inline' | 'frame' | 'split' | 'seal' | 'label';

/** An icon the designer can draw: `set:name` (simple-icons glyphs as `simple-icons:slug`). */
export interface PoolIcon {
  key: string;
  /** Its concept's name (catalogue), or null for a brand glyph. */
  concept: string | null;
  /** Drawn in its own colours (emoji sets), else in the logo's ink. */
  colour: boolean;
  /** What the icon set calls it. */
  name: string;
}

export interface LogoDesign {
  /** The icon's index in the designer's `pool`, its key, name and concept. */
  icon: number;
  iconKey: string;
  iconName: string;
  concept: string | null;
  colour: boolean;
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
  /** The words again in Devanagari ('' for none), under or beside the Latin ones, or round a seal's foot. */
  hindi: string;
}

/** The characters the logo font draws: other characters of a word mark are left out of its logo. */
export const drawable = (text: string) => text.replace(/[^A-Z0-9&'.\-/ ]/g, '');

export class LogoDesigner {
  readonly pool: PoolIcon[];
  /** Pool indices of each concept's icons, by concept name. */
  private readonly byConcept = new Map<string, number[]>();
  private readonly conceptDraw: Weighted<string>;
  private readonly brandDraw: Weighted<number>;
  private readonly rng = new Rng();

  constructor(
    readonly seed: number,
    readonly marks: Marks,
  ) {
    this.pool = [];
    const concepts = catalogue().concepts.filter((c) => c.icons.length > 0);
    for (const c of concepts) {
      const ids: number[] = [];
      for (const key of c.icons) {
        ids.push(this.pool.length);
        const prefix = key.slice(0, key.indexOf(':'));
        this.pool.push({ key, concept: c.name, colour: SET_BY_PREFIX.get(prefix)?.style === 'colour', name: key.slice(prefix.length + 1) });
      }
      this.byConcept.set(c.name, ids);
    }
    keepOnly(this.pool.map((p) => p.key));
    // Concepts in the catalogue's order of popularity on Indian labels, Zipf-weighted (lions and suns recur).
    this.conceptDraw = new Weighted(
      concepts.map((c) => c.name),
      zipf(concepts.length, 0.9, 3),
    );
    // Brand glyphs: popularity Zipf-shaped too, which glyphs are popular shuffled by seed.
    const names = iconNames();
    const slugs = iconSlugs();
    const first = this.pool.length;
    for (const slug of slugs) this.pool.push({ key: `simple-icons:${slug}`, concept: null, colour: false, name: names.get(slug) ?? slug });
    const order = slugs.map((_, k) => first + k).sort((a, b) => hash3(seed, a - first, 7) - hash3(seed, b - first, 7));
    this.brandDraw = new Weighted(order, zipf(order.length, 0.8, 10));
  }

  /**
   * Icon of mark i: if it imitates a device mark, usually its parent's icon, sometimes the same concept
   * drawn by another hand (another icon of the concept: the conceptual likeness the law also weighs),
   * else its own: a concept's icon (a concept by popularity, then any of its icons) or a brand glyph.
   */
  icon(i: number): number {
    const c = this.marks.core(i);
    if (c.parent >= 0) {
      const t = this.marks.type(c.parent);
      if (t === 'DEVICE' || t === 'COMPOSITE') {
        const u = this.rng.reseed(this.seed, i, S_ICON).float();
        if (u < 0.6) return this.icon(c.parent);
        const concept = u < 0.8 ? this.pool[this.icon(c.parent)].concept : null;
        if (concept) return this.ofConcept(concept, this.rng.reseed(this.seed, i, S_ICON + 2).float());
      }
    }
    const r = this.rng.reseed(this.seed, i, S_SOURCE);
    if (r.chance(CONCEPT_SHARE)) return this.ofConcept(this.conceptDraw.draw(r), r.float());
    return this.brandDraw.items[this.brandDraw.index(this.rng.reseed(this.seed, i, S_ICON + 1).float())];
  }

  private ofConcept(concept: string, u: number): number {
    const ids = this.byConcept.get(concept) as number[];
    return ids[Math.floor(u * ids.length)];
  }

  /** The design of mark i's logo. */
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
        ? r.pick<Layout>(['inline', 'inline', 'stack', 'label'])
        : r.pick<Layout>(['stack', 'stack', 'frame', 'badge', 'seal', 'seal', 'label'])
      : r.pick<Layout>(['mark', 'badge', 'split', 'frame']);
    const paper = r.pick(PAPER);
    const dark = paper[0] + paper[1] + paper[2] < 300;
    let ink = r.pick(INK);
    if (dark) ink = [255 - (ink[0] >> 2), 230 - (ink[1] >> 3), 200 - (ink[2] >> 3)];
    const accent = r.pick(INK);
    const diagonal = layout === 'split' && r.chance(0.5);
    // Words (not a monogram) are often printed in Devanagari as well; a seal always carries both.
    const hindi = text && !monogram && (layout === 'seal' || r.chance(0.5)) ? toDevanagari(text) : '';
    const p = this.pool[icon];
    return {
      icon,
      iconKey: p.key,
      iconName: p.name,
      concept: p.concept,
      colour: p.colour,
      w,
      h,
      layout,
      text,
      monogram,
      paper,
      dark,
      ink,
      accent,
      diagonal,
      hindi,
    };
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
