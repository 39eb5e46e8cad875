// Seeded randomness. Every value in the output comes from a generator keyed by (seed, mark index,
// stream), never from shared sequential state, so any mark can be regenerated on its own: a worker
// shard, the delta and a variant looking up its parent all see the same mark.

/** murmur3's finaliser: a cheap, well-mixed 32-bit hash step. */
export function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function hash3(a: number, b: number, c: number): number {
  return fmix(Math.imul(fmix(Math.imul(fmix(a ^ 0x9e3779b9), 0x01000193) ^ b), 0x01000193) ^ c);
}

/** A uniform [0, 1) value for (seed, index, stream) without touching a generator. */
export function unit(seed: number, index: number, stream: number): number {
  return hash3(seed, index, stream) / 4294967296;
}

/** sfc32: fast, small state, passes PractRand far beyond what a mark needs. Reseeded per mark. */
export class Rng {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 1;

  constructor(seed = 0, index = 0, stream = 0) {
    this.reseed(seed, index, stream);
  }

  reseed(seed: number, index: number, stream: number): this {
    const h = hash3(seed, index, stream);
    this.a = h;
    this.b = fmix(h ^ 0x6a09e667);
    this.c = fmix(h ^ 0xbb67ae85);
    this.d = 1;
    // A few rounds so that neighbouring indices do not start with correlated outputs.
    for (let i = 0; i < 6; i++) this.u32();
    return this;
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  float(): number {
    return this.u32() / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Integer in [lo, hi] inclusive. */
  range(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(arr: readonly T[]): T {
    return arr[Math.floor(this.float() * arr.length)];
  }
}

/**
 * Walker's alias table: O(1) draws from a fixed discrete distribution, which matters when the
 * vocabulary and class draws run tens of millions of times.
 */
export class Weighted<T> {
  private readonly prob: Float64Array;
  private readonly alias: Int32Array;

  constructor(
    readonly items: readonly T[],
    weights: readonly number[],
  ) {
    const n = items.length;
    if (n === 0 || weights.length !== n) throw new Error('Weighted: items and weights must be non-empty and equal length');
    const total = weights.reduce((s, w) => s + w, 0);
    const scaled = weights.map((w) => (w * n) / total);
    this.prob = new Float64Array(n);
    this.alias = new Int32Array(n);
    const small: number[] = [];
    const large: number[] = [];
    scaled.forEach((p, i) => (p < 1 ? small : large).push(i));
    while (small.length && large.length) {
      const s = small.pop()!;
      const l = large.pop()!;
      this.prob[s] = scaled[s];
      this.alias[s] = l;
      scaled[l] = scaled[l] + scaled[s] - 1;
      (scaled[l] < 1 ? small : large).push(l);
    }
    for (const i of large) this.prob[i] = 1;
    for (const i of small) this.prob[i] = 1;
  }

  draw(rng: Rng): T {
    return this.items[this.index(rng.float())];
  }

  /** Index for a uniform u in [0, 1): lets callers draw without a generator (see `unit`). */
  index(u: number): number {
    const x = u * this.items.length;
    const i = Math.floor(x);
    return x - i < this.prob[i] ? i : this.alias[i];
  }
}

/** Zipf weights 1/(rank + q)^s: a long tail with a heavy head, like real brand vocabularies. */
export function zipf(n: number, s = 1, q = 2.7): number[] {
  const w = new Array<number>(n);
  for (let r = 0; r < n; r++) w[r] = 1 / (r + 1 + q) ** s;
  return w;
}
