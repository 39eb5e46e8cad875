import { partitionPoint, radixSortPairs } from './hash.ts';
import type { Bitset } from './bitset.ts';
import { Scratch } from './gather.ts';
import { distanceFrom } from './editDistance.ts';
import type { Vocabulary } from './vocabulary.ts';
import { maxEdits, phoneticCodes, romanise } from './normalise.ts';

// Sound-alikes across word boundaries: BIKANERWALLA for BIKANER VALA, SRIRAM FINANCE for SHRI RAM
// FINANCE. Every run of two or three consecutive words of a mark is keyed by the hash of its words'
// phonetic codes joined (joinedCode). A query is run together and cut in every way into one, two
// or three pieces; each cut's pieces are coded and joined by the same rule and looked up, so both
// sides are coded alike whatever the spacing (coding the run together whole would differ: Double
// Metaphone codes AJ TAK and AAJTAK differently). Candidates are checked by recomputing their runs'
// codes. The words' codes come from the vocabulary, so building the table codes nothing again.

export const RUN_WORDS = [2, 3];
// A code shorter than this (SHREE SAI: SRS) sounds like too much of the register to mean anything;
// a code shared by more runs than RUN_CAP is as unselective. Both are left to the word strategies.
const MIN_CODE = 3;
const RUN_CAP = 20_000;
// Longer queries are cut in two at most: three-way cuts grow with the square of the length.
const THREE_WAY_UP_TO = 16;

/**
 * The codes of consecutive words joined as one word is coded: a later word's leading vowel (A) is
 * silent, and a letter doubled across the join (EVER READY) is said once.
 */
export function joinedCode(codes: string[], texts: string[]): string {
  let out = '';
  for (let i = 0; i < codes.length; i++) {
    let p = codes[i];
    if (i > 0 && p[0] === 'A') p = p.slice(1);
    else if (i > 0 && texts[i - 1].at(-1) === texts[i][0] && out.at(-1) === p[0]) p = p.slice(1);
    out += p;
  }
  return out;
}

/** The codes a query run together is looked up by: whole, and cut into two or three pieces. */
export function queryRunCodes(compact: string): string[] {
  const memo = new Map<string, string>();
  const code = (s: string) => {
    let c = memo.get(s);
    if (c === undefined) memo.set(s, (c = phoneticCodes(s)[0] ?? ''));
    return c;
  };
  const out = new Set(phoneticCodes(compact));
  const n = compact.length;
  for (let i = 1; i < n; i++) {
    const a = compact.slice(0, i);
    const b = compact.slice(i);
    out.add(joinedCode([code(a), code(b)], [a, b]));
    if (n > THREE_WAY_UP_TO) continue;
    for (let j = i + 1; j < n; j++) {
      const b2 = compact.slice(i, j);
      const c = compact.slice(j);
      out.add(joinedCode([code(a), code(b2), code(c)], [a, b2, c]));
    }
  }
  return [...out].filter((c) => c.length >= MIN_CODE);
}

export function codeHash(code: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < code.length; i++) {
    h ^= code.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The table: hashes of every run's joined code, sorted, and the mark each belongs to. */
export function buildRuns(v: Vocabulary, wordOffsets: Uint32Array, markWords: Uint32Array): { runHashes: Uint32Array; runMarks: Uint32Array } {
  const n = wordOffsets.length - 1;
  let total = 0;
  for (let m = 0; m < n; m++) {
    const k = wordOffsets[m + 1] - wordOffsets[m];
    for (const r of RUN_WORDS) if (k >= r) total += k - r + 1;
  }
  const hashes = new Uint32Array(total);
  const marks = new Uint32Array(total);
  let at = 0;
  const parts: string[] = [];
  const texts: string[] = [];
  for (let m = 0; m < n; m++) {
    const start = wordOffsets[m];
    const k = wordOffsets[m + 1] - start;
    for (const r of RUN_WORDS) {
      for (let s = 0; s + r <= k; s++) {
        parts.length = 0;
        texts.length = 0;
        for (let i = 0; i < r; i++) {
          parts.push(v.code(markWords[start + s + i]));
          texts.push(v.words[markWords[start + s + i]]);
        }
        hashes[at] = codeHash(joinedCode(parts, texts));
        marks[at++] = m;
      }
    }
  }
  const sorted = radixSortPairs(hashes, marks);
  return { runHashes: sorted.keys, runMarks: sorted.values };
}

/**
 * Marks holding a run that sounds like the query, with the spelling distance from the query run
 * together to the closest such run (`spelled`, at most 4) and the same after romanisation
 * (`sounded`). Kept from search to search: the running search reads it before the next one.
 */
export class RunHits {
  n = 0;
  private readonly m = new Scratch();
  private readonly d = new Scratch();

  push(m: number, spelled: number, sounded: number): void {
    this.m.room(this.n + 1)[this.n] = m;
    this.d.room(this.n + 1)[this.n++] = (spelled << 8) | sounded;
  }

  get marks(): Uint32Array {
    return this.m.a;
  }

  spelled(i: number): number {
    return this.d.a[i] >>> 8;
  }

  sounded(i: number): number {
    return this.d.a[i] & 255;
  }
}
const hits = new RunHits();

type Judged = { spelled: number; sounded: number } | null;

/**
 * Marks holding a run of words that, run together, sounds like `compact` (coded `codes`), with the
 * spelling distance of the closest such run. `done` (cleared) records the marks looked at; `skip`
 * leaves out marks the search has no use for.
 */
export function soundRuns(
  v: Vocabulary, runHashes: Uint32Array, runMarks: Uint32Array, wordOffsets: Uint32Array, markWords: Uint32Array,
  compact: string, codes: string[], done: Bitset, skip: (m: number) => boolean,
): RunHits {
  const spelling = distanceFrom(compact);
  let sounding: ((b: string, max: number) => number) | null = null;
  hits.n = 0;
  const parts: string[] = [];
  const texts: string[] = [];
  const judge = (code: string, start: number, r: number): Judged => {
    parts.length = 0;
    texts.length = 0;
    for (let i = 0; i < r; i++) {
      parts.push(v.code(markWords[start + i]));
      texts.push(v.words[markWords[start + i]]);
    }
    if (joinedCode(parts, texts) !== code) return null;
    const text = texts.join('');
    const spelled = spelling(text, 3);
    // Romanised only when it decides anything: past the spelling reach, as a sound-alike.
    const sounded = spelled <= maxEdits(compact.length) ? spelled : (sounding ??= distanceFrom(romanise(compact)))(romanise(text), 3);
    return { spelled, sounded };
  };
  const size = v.size;
  for (const code of codes) {
    // Many marks share a run (SAI SUPARI in hundreds of marks): each run of word ids is judged once per
    // code, keyed by its ids as one number (two ids in base vocabulary-size; a third takes a second level).
    const judged2 = new Map<number, Judged>();
    const judged3 = new Map<number, Map<number, Judged>>();
    const h = codeHash(code);
    const lo = partitionPoint(0, runHashes.length, (i) => runHashes[i] < h);
    const end = partitionPoint(lo, runHashes.length, (i) => runHashes[i] === h);
    if (end - lo > RUN_CAP) continue;
    for (let p = lo; p < end; p++) {
      const m = runMarks[p];
      if (done.has(m) || skip(m)) continue;
      const start = wordOffsets[m];
      const k = wordOffsets[m + 1] - start;
      let best: Judged = null;
      for (const r of RUN_WORDS) {
        for (let s = 0; s + r <= k; s++) {
          const at = start + s;
          const pair = markWords[at] * size + markWords[at + 1];
          let memo = judged2;
          let key = pair;
          if (r === 3) {
            let third = judged3.get(pair);
            if (!third) judged3.set(pair, (third = new Map()));
            memo = third;
            key = markWords[at + 2];
          }
          let hit = memo.get(key);
          if (hit === undefined) memo.set(key, (hit = judge(code, at, r)));
          if (hit && (!best || hit.spelled < best.spelled)) best = hit;
        }
      }
      if (best) {
        done.add(m);
        hits.push(m, best.spelled, best.sounded);
      }
    }
  }
  return hits;
}
