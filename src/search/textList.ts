// A list of strings kept as UTF-8 bytes, one per line, decoded only when read: for the index's long lists that are
// read a few entries at a time (by binary search, or one mark's entry), so that the bytes can stay in the mapped
// snapshot, one copy for the machine, instead of a JavaScript string each in every process's heap (docs/architecture.md,
// "One index per machine").

import { isAscii } from 'node:buffer';

const NEWLINE = 0x0a;

export class TextList {
  /** Where each entry begins in `bytes`, and one past the last entry's end. */
  private readonly starts: Uint32Array;
  /** Every entry ASCII (the vocabulary's words are): a character is a byte, and Latin-1 reads them fastest. */
  private readonly ascii: boolean;

  /**
   * `bytes`: the `count` entries joined by "\n" (UTF-8 never has that byte inside a character); no entry holds a
   * newline. The count tells no entries from one empty entry, whose bytes are alike.
   */
  constructor(
    readonly bytes: Buffer,
    count: number,
  ) {
    this.starts = new Uint32Array(count + 1);
    let at = 0;
    for (let k = 0; k < count; k++) {
      this.starts[k] = at;
      const end = bytes.indexOf(NEWLINE, at);
      if (end < 0 && k < count - 1) throw new Error(`a text list of ${count} entries holds ${k + 1}`);
      at = end < 0 ? bytes.length + 1 : end + 1;
    }
    if (count && at !== bytes.length + 1) throw new Error(`a text list of ${count} entries holds more`);
    this.starts[count] = count ? bytes.length + 1 : 0;
    this.ascii = isAscii(bytes);
  }

  static of(list: readonly string[]): TextList {
    if (list.some((s) => s.includes('\n'))) throw new Error('a text list entry cannot hold a newline');
    return new TextList(Buffer.from(list.join('\n'), 'utf8'), list.length);
  }

  get length(): number {
    return this.starts.length - 1;
  }

  at(i: number): string {
    return this.bytes.toString(this.ascii ? 'latin1' : 'utf8', this.starts[i], this.starts[i + 1] - 1);
  }

  /** The length of entry i as a string's (UTF-16 units), without making the string where it can. */
  lengthOf(i: number): number {
    return this.ascii ? this.starts[i + 1] - 1 - this.starts[i] : this.at(i).length;
  }

  // Comparisons without making the entry's string, for lookups that read many entries (a binary search, a trigram's
  // words): on an ASCII list a byte is a UTF-16 unit, and strings compare by those.

  /** Entry i against `s` as strings compare: negative, 0 or positive. */
  compareAt(i: number, s: string): number {
    if (!this.ascii) {
      const t = this.at(i);
      return t < s ? -1 : t > s ? 1 : 0;
    }
    const { bytes } = this;
    const a = this.starts[i];
    const n = this.starts[i + 1] - 1 - a;
    const m = Math.min(n, s.length);
    for (let k = 0; k < m; k++) {
      const d = bytes[a + k] - s.charCodeAt(k);
      if (d) return d;
    }
    return n - s.length;
  }

  /** Entry i spelled backwards against `r` as strings compare (for a list of words ordered by their ends). */
  compareReversedAt(i: number, r: string): number {
    if (!this.ascii) {
      const t = this.at(i).split('').reverse().join('');
      return t < r ? -1 : t > r ? 1 : 0;
    }
    const { bytes } = this;
    const end = this.starts[i + 1] - 2;
    const n = end + 1 - this.starts[i];
    const m = Math.min(n, r.length);
    for (let k = 0; k < m; k++) {
      const d = bytes[end - k] - r.charCodeAt(k);
      if (d) return d;
    }
    return n - r.length;
  }

  startsWithAt(i: number, p: string): boolean {
    if (!this.ascii) return this.at(i).startsWith(p);
    const a = this.starts[i];
    if (this.starts[i + 1] - 1 - a < p.length) return false;
    for (let k = 0; k < p.length; k++) if (this.bytes[a + k] !== p.charCodeAt(k)) return false;
    return true;
  }

  endsWithAt(i: number, s: string): boolean {
    if (!this.ascii) return this.at(i).endsWith(s);
    const end = this.starts[i + 1] - 1;
    if (end - this.starts[i] < s.length) return false;
    for (let k = 1; k <= s.length; k++) if (this.bytes[end - k] !== s.charCodeAt(s.length - k)) return false;
    return true;
  }

  includesAt(i: number, s: string): boolean {
    if (!this.ascii) return this.at(i).includes(s);
    const { bytes } = this;
    const a = this.starts[i];
    const last = this.starts[i + 1] - 1 - s.length;
    for (let p = a; p <= last; p++) {
      let k = 0;
      while (k < s.length && bytes[p + k] === s.charCodeAt(k)) k++;
      if (k === s.length) return true;
    }
    return false;
  }

  /** Every entry, as strings: for building, never for a loaded index's lists (whose point is not to). */
  toArray(): string[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }
}
