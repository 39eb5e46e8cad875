import { Bitset, bitmapWords } from './bitset.ts';
import type { Part, ReadyAnswer } from './ready.ts';
import type { ReadyData, SavedAnswer } from './types.ts';

// The answers an index keeps ready (short prefixes, common words searched alone: src/search/ready.ts) and the
// bitmaps of its common words (src/search/wordSets.ts), packed into a few flat arrays so that the snapshot holds
// them: made once when the snapshot is saved instead of in every process that loads it, and, with the snapshot
// mapped, one copy of their pages for the whole machine. Counts change as marks go away (tally); in a mapped
// snapshot a process writing them gets its own copy of those pages only.

/** The counts of one answer, side by side: by class, class and status, type and filing mode per class, state per class. */
const COUNTS = [64, 1 << 14, 64 * 1024, 64 * 256] as const;
const COUNTS_LENGTH = COUNTS.reduce((a, b) => a + b, 0);

/** The flat arrays' names, as the snapshot stores them. */
export const READY_ARRAYS = ['marks', 'keys', 'info', 'counts', 'holds', 'setWords', 'sets'] as const;

export interface ReadyEntries {
  prefixes: Map<string, ReadyAnswer>;
  words: Map<number, { answer: ReadyAnswer; holds: Bitset }>;
  sets: Map<number, Bitset>;
}

/** Packs an index's ready answers and word bitmaps (of an index of n marks). */
export function packReady(n: number, e: ReadyEntries, bitmapFrom: number): ReadyData {
  const all: { answer: ReadyAnswer; prefix?: string; word?: number; holds?: Bitset }[] = [
    ...[...e.prefixes].map(([prefix, answer]) => ({ answer, prefix })),
    ...[...e.words].map(([word, w]) => ({ answer: w.answer, word, holds: w.holds })),
  ];
  const total = all.reduce((s, a) => s + a.answer.parts.reduce((t, p) => t + p.marks.length, 0), 0);
  const words = bitmapWords(n);
  const d: ReadyData = {
    answers: [],
    bitmapFrom,
    marks: new Uint32Array(total),
    keys: new Uint16Array(total),
    info: new Uint32Array(total),
    counts: new Uint32Array(all.length * COUNTS_LENGTH),
    holds: new Int32Array(e.words.size * words),
    setWords: Uint32Array.from([...e.sets.keys()].sort((a, b) => a - b)),
    sets: new Int32Array(e.sets.size * words),
  };
  let at = 0;
  let held = 0;
  all.forEach((a, i) => {
    const parts: [number, number][] = a.answer.parts.map((p) => {
      d.marks.set(p.marks, at);
      d.keys.set(p.keys, at);
      d.info.set(p.info, at);
      at += p.marks.length;
      return [at - p.marks.length, p.marks.length];
    });
    const counts = i * COUNTS_LENGTH;
    let o = counts;
    for (const t of [a.answer.byClass, a.answer.classStatus, a.answer.typeMode, a.answer.state]) {
      d.counts.set(t, o);
      o += t.length;
    }
    const saved: SavedAnswer = { parts, counts };
    if (a.prefix !== undefined) saved.prefix = a.prefix;
    if (a.word !== undefined && a.holds) {
      saved.word = a.word;
      saved.holds = held * words;
      d.holds.set(a.holds.words, held++ * words);
    }
    d.answers.push(saved);
  });
  d.setWords.forEach((w, i) => d.sets.set(e.sets.get(w)!.words, i * words));
  return d;
}

/** The entries packed in `d`, as views of its arrays (nothing is copied). */
export function unpackReady(n: number, d: ReadyData): ReadyEntries {
  const words = bitmapWords(n);
  const out: ReadyEntries = { prefixes: new Map(), words: new Map(), sets: new Map() };
  for (const a of d.answers) {
    const parts: Part[] = a.parts.map(([o, len]) => ({
      marks: d.marks.subarray(o, o + len),
      keys: d.keys.subarray(o, o + len),
      info: d.info.subarray(o, o + len),
    }));
    const at = [a.counts];
    for (const len of COUNTS) at.push(at[at.length - 1] + len);
    const answer: ReadyAnswer = {
      parts,
      byClass: d.counts.subarray(at[0], at[1]),
      classStatus: d.counts.subarray(at[1], at[2]),
      typeMode: d.counts.subarray(at[2], at[3]),
      state: d.counts.subarray(at[3], at[4]),
    };
    if (a.prefix !== undefined) out.prefixes.set(a.prefix, answer);
    else if (a.word !== undefined && a.holds !== undefined) {
      out.words.set(a.word, { answer, holds: new Bitset(n, d.holds.subarray(a.holds, a.holds + words)) });
    }
  }
  d.setWords.forEach((w, i) => out.sets.set(w, new Bitset(n, d.sets.subarray(i * words, (i + 1) * words))));
  return out;
}
