// A list of strings kept as UTF-8 bytes, one per line, decoded only when read: for the index's long lists that are
// read a few entries at a time (by binary search, or one mark's entry), so that the bytes can stay in the mapped
// snapshot, one copy for the machine, instead of a JavaScript string each in every process's heap (docs/architecture.md,
// "One index per machine").

const NEWLINE = 0x0a;

export class TextList {
  /** Where each entry begins in `bytes`, and one past the last entry's end. */
  private readonly starts: Uint32Array;

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
  }

  static of(list: readonly string[]): TextList {
    if (list.some((s) => s.includes('\n'))) throw new Error('a text list entry cannot hold a newline');
    return new TextList(Buffer.from(list.join('\n'), 'utf8'), list.length);
  }

  get length(): number {
    return this.starts.length - 1;
  }

  at(i: number): string {
    return this.bytes.toString('utf8', this.starts[i], this.starts[i + 1] - 1);
  }
}
