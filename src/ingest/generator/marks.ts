import { AS_OF, DELTA_DAY, FIRST_DAY } from './dates.ts';
import { Rng, unit, Weighted } from './rng.ts';
import { normaliseTokens, similarTokens, variantOf } from './variants.ts';
import { genericWords, PREFIXES, rootName } from './words.ts';

// The identity of mark i: its type, class, word mark, filing date and application number, and the
// earlier mark it imitates, if any. All are pure functions of (seed, i), cheap enough to recompute
// whenever another mark, a shard or the delta needs them.

export type TmType = 'WORD' | 'DEVICE' | 'COMPOSITE' | '3D' | 'SOUND' | 'COLOUR';
const TYPES: TmType[] = ['WORD', 'COMPOSITE', 'DEVICE', '3D', 'SOUND', 'COLOUR'];
const TYPE_CUM = cumulative([0.565, 0.31, 0.1, 0.015, 0.004, 0.006]);

// Filing share per Nice class: goods for daily life and "business services" dominate Indian filings.
const CLASS_WEIGHT = [
  0, 2.0, 1.0, 5.5, 0.8, 9.0, 1.3, 3.0, 1.0, 8.0, 1.5, 3.0, 1.8, 0.15, 1.5, 0.25, 2.8, 0.8, 1.5, 1.5, 2.0, 1.6, 0.5, 0.3, 1.6, 7.0, 0.5,
  0.4, 1.0, 6.0, 8.5, 2.5, 2.5, 1.0, 0.8, 10.0, 1.5, 1.5, 0.8, 1.0, 0.8, 3.5, 3.5, 2.5, 2.5, 0.6,
];
// Cognate classes: an examiner cites across these, and a copier drifts between them.
export const CLASS_GROUPS = [
  [29, 30, 31, 32, 33, 43],
  [3, 5, 10, 44],
  [9, 38, 42],
  [14, 18, 24, 25, 26],
  [35, 36, 37, 39, 40, 41, 45],
  [1, 2, 4, 17, 19],
  [6, 7, 8, 11, 12, 13],
  [15, 16, 20, 21, 22, 23, 27, 28, 34],
];
const classDraw = new Weighted(
  Array.from({ length: 45 }, (_, k) => k + 1),
  CLASS_WEIGHT.slice(1),
);
const GROUP_OF: number[][] = [];
for (const g of CLASS_GROUPS) for (const c of g) GROUP_OF[c] = g;
const groupDraw = new Map(
  CLASS_GROUPS.map((g) => [
    g,
    new Weighted(
      g,
      g.map((c) => CLASS_WEIGHT[c]),
    ),
  ]),
);

export function relatedClasses(a: number, b: number): boolean {
  return GROUP_OF[a] === GROUP_OF[b];
}

const WEAK = new Set([...genericWords(), ...PREFIXES].flatMap((w) => normaliseTokens(w)));

function tokensOf(c: Core): string[] {
  return c.norm ?? (c.norm = normaliseTokens(c.word));
}

function cumulative(ws: number[]): number[] {
  let s = 0;
  return ws.map((w) => (s += w));
}

// Streams: independent uniform draws per aspect of a mark.
const S_TYPE = 1,
  S_3D = 2,
  S_VARIANT = 3,
  S_PARENT = 4,
  S_CORE = 5;
const VARIANT_SHARE = 0.35;
// Filing volume doubles about every eight years, so most of the register is recent.
const GROWTH = Math.LN2 / (8 * 365.25);

export interface Core {
  word: string;
  cls: number;
  parent: number; // -1 for an original mark
  norm: string[] | null; // normalised tokens, computed on first comparison
}

export class Marks {
  private readonly rng = new Rng();
  private readonly cacheKey = new Int32Array(1 << 16).fill(-1);
  private readonly cacheVal: Core[] = new Array(1 << 16);
  private readonly span: number;
  private readonly growthSpan: number;

  /** `n` is the baseline size; indices from n on are marks filed on the delta day. */
  constructor(
    readonly seed: number,
    readonly n: number,
  ) {
    this.span = AS_OF - FIRST_DAY;
    this.growthSpan = Math.expm1(GROWTH * this.span);
  }

  type(i: number): TmType {
    const u = unit(this.seed, i, S_TYPE);
    let k = 0;
    while (k < TYPE_CUM.length - 1 && u >= TYPE_CUM[k]) k++;
    return TYPES[k];
  }

  hasWords(i: number): boolean {
    const t = this.type(i);
    return t === 'WORD' || t === 'COMPOSITE' || (t === '3D' && unit(this.seed, i, S_3D) < 0.5);
  }

  /** Application numbers rise with filing date and leave a gap now and then, like the register's. */
  appNo(i: number): string {
    return String(1_000_000 + i + Math.floor(i / 9));
  }

  /** Filing day: monotone in i, so a lower index is always an earlier (or same-day) application. */
  day(i: number): number {
    if (i >= this.n) return DELTA_DAY - Math.floor(unit(this.seed, i, 9) * 3);
    const u = (i + 0.5) / this.n;
    return FIRST_DAY + Math.min(this.span, Math.floor(Math.log1p(u * this.growthSpan) / GROWTH));
  }

  core(i: number): Core {
    const slot = i & 0xffff;
    if (this.cacheKey[slot] === i) return this.cacheVal[slot];
    const c = this.compute(i);
    this.cacheKey[slot] = i;
    this.cacheVal[slot] = c;
    return c;
  }

  private compute(i: number): Core {
    const words = this.hasWords(i);
    let parent = -1;
    if (i > 0 && unit(this.seed, i, S_VARIANT) < VARIANT_SHARE) {
      for (let attempt = 0; attempt < 3 && parent < 0; attempt++) {
        const p = this.pickParent(i, unit(this.seed, i, S_PARENT + 16 * attempt), unit(this.seed, i, S_PARENT + 16 * attempt + 1));
        if (!words || this.hasWords(p)) parent = p;
      }
    }
    // Resolve the parent before touching the shared generator: core() recurses.
    const pc = parent >= 0 ? this.core(parent) : null;
    const rng = this.rng.reseed(this.seed, i, S_CORE);
    const cls = pc ? (rng.chance(0.7) ? pc.cls : groupDraw.get(GROUP_OF[pc.cls])!.draw(rng)) : classDraw.draw(rng);
    let word = '';
    if (words) word = pc?.word ? variantOf(pc.word, rng, cls) : rootName(rng, cls);
    return { word, cls, parent, norm: null };
  }

  /** Half the copies imitate an established (early) mark, half a recent one. */
  private pickParent(i: number, u: number, v: number): number {
    const lim = Math.min(i, this.n);
    if (u < 0.5) return Math.floor(lim * v * v);
    return Math.max(0, lim - 1 - Math.floor((lim - 1) * v * v * v));
  }

  /** Earlier marks an examiner would cite against mark i: its similar ancestors, nearest first. */
  citable(i: number, max = 3): number[] {
    const me = this.core(i);
    const out: number[] = [];
    if (!me.word) return out;
    let a = me.parent;
    for (let depth = 0; a >= 0 && depth < 5 && out.length < max; depth++) {
      const c = this.core(a);
      if (c.word && relatedClasses(c.cls, me.cls) && similarTokens(tokensOf(me), tokensOf(c), WEAK)) out.push(a);
      a = c.parent;
    }
    return out;
  }
}
