import { Bitset } from './bitset.ts';
import { type ReadyAnswer, tally } from './ready.ts';

// A query of one word answers from that word alone. The few dozen words held by READY_FROM marks or
// more (SHREE, SAI, STAR) admit over half a million marks each through every strategy, 15 to 30 ms a
// search; their answers are kept ready (src/search/ready.ts), made with the search itself on first use
// or by LiveIndex.prepare() at load, each with a bitmap of its marks so that a mark going away leaves
// the right counts.

export const READY_FROM = 32_768;

interface Entry {
  answer: ReadyAnswer;
  holds: Bitset;
}

export class ReadyWords {
  private readonly entries = new Map<number, Entry>();

  constructor(private readonly n: number) {}

  /** The ready answer of a word, made by `make` (which returns it with the marks it holds) on first use. */
  get(word: number, make: (holds: Bitset) => ReadyAnswer): ReadyAnswer {
    let e = this.entries.get(word);
    if (!e) {
      const holds = new Bitset(this.n);
      e = { answer: make(holds), holds };
      this.entries.set(word, e);
    }
    return e.answer;
  }

  /** Takes answers made earlier (a snapshot's: src/search/readyData.ts), with nothing hidden since. */
  adopt(entries: Map<number, Entry>): void {
    for (const [w, e] of entries) this.entries.set(w, e);
  }

  /** The answers made so far, by word. */
  made(): Map<number, Entry> {
    return this.entries;
  }

  /** Mark m (facets x) went away: out of the counts of every answer holding it. */
  remove(m: number, x: number): void {
    for (const e of this.entries.values()) if (e.holds.has(m)) tally(e.answer, x, -1);
  }
}
