// Sets of marks as bitmaps: 7.7M marks fit in under 1 MB, which stays in the processor's cache while
// postings are poured in, where an array of a byte per mark would not.

/** Int32 words in a bitmap of `size` marks. */
export function bitmapWords(size: number): number {
  return (size >>> 5) + 1;
}

export class Bitset {
  readonly words: Int32Array;

  /** `words`: an existing bitmap of `size` marks to read (a snapshot's, src/search/readyData.ts), or a new empty one. */
  constructor(
    readonly size: number,
    words?: Int32Array,
  ) {
    this.words = words ?? new Int32Array(bitmapWords(size));
  }

  has(m: number): boolean {
    return (this.words[m >>> 5] & (1 << (m & 31))) !== 0;
  }

  add(m: number): void {
    this.words[m >>> 5] |= 1 << (m & 31);
  }

  remove(m: number): void {
    this.words[m >>> 5] &= ~(1 << (m & 31));
  }

  clear(): void {
    this.words.fill(0);
  }

  /** Sets the marks of postings[from, to). */
  addAll(marks: Uint32Array, from: number, to: number): void {
    const w = this.words;
    for (let p = from; p < to; p++) {
      const m = marks[p];
      w[m >>> 5] |= 1 << (m & 31);
    }
  }

  /** How many marks are in this set and not in `other`, counted up to `limit` at most. */
  countWithout(other: Bitset, limit = Infinity): number {
    const a = this.words;
    const b = other.words;
    let n = 0;
    for (let i = 0; i < a.length && n < limit; i++) {
      let x = a[i] & ~b[i];
      if (x === 0) continue;
      x -= (x >>> 1) & 0x55555555;
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
      n += Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
    }
    return n;
  }

  /** this = other: a native copy, several times faster than clearing and OR-ing word by word. */
  copy(other: Bitset): void {
    this.words.set(other.words);
  }

  /** this = this OR other. */
  or(other: Bitset): void {
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i++) a[i] |= b[i];
  }

  /** this = this AND other. */
  and(other: Bitset): void {
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i++) a[i] &= b[i];
  }
}
