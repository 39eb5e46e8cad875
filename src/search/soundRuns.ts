import type { Bitset } from './bitset.ts';
import { distanceFrom } from './editDistance.ts';
import { Growable } from './gather.ts';
import { partitionPoint, radixSortPairs } from './hash.ts';
import { maxEdits, phoneticCodes, romanise } from './normalise.ts';
import { shared, type Triples } from './strategies.ts';
import type { Vocabulary } from './vocabulary.ts';

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

/**
 * The words' codes and first and last letters in typed arrays, for hashing every run of the register
 * (codeHash(joinedCode(...)) without building a string): read from the vocabulary's strings, each a
 * cache miss or two away, they were most of the time the build took. A code of up to four letters is
 * packed in one number; a longer one (rare) is read from its string.
 */
class RunHasher {
  private readonly packed: Uint32Array;
  private readonly length: Uint8Array;
  private readonly firstChar: Uint16Array;
  private readonly lastChar: Uint16Array;

  constructor(private readonly v: Vocabulary) {
    const n = v.size;
    this.packed = new Uint32Array(n);
    this.length = new Uint8Array(n);
    this.firstChar = new Uint16Array(n);
    this.lastChar = new Uint16Array(n);
    for (let id = 0; id < n; id++) {
      const p = v.code(id);
      const t = v.words.at(id);
      this.firstChar[id] = t.charCodeAt(0);
      this.lastChar[id] = t.charCodeAt(t.length - 1);
      let x = 0;
      let fits = p.length <= 4;
      for (let j = 0; j < p.length && fits; j++) {
        const c = p.charCodeAt(j);
        if (c > 255) fits = false;
        x |= c << (8 * j);
      }
      this.packed[id] = x >>> 0;
      this.length[id] = fits ? p.length : 255;
    }
  }

  /** codeHash(joinedCode(codes, texts)) of the words markWords[at, at + r). */
  hash(markWords: Uint32Array, at: number, r: number): number {
    let h = 0x811c9dc5;
    let last = -1;
    let prevEnd = -1;
    for (let i = 0; i < r; i++) {
      const id = markWords[at + i];
      const len = this.length[id];
      const p = len === 255 ? this.v.code(id) : null;
      const x = this.packed[id];
      const n = p ? p.length : len;
      const c0 = n ? (p ? p.charCodeAt(0) : x & 255) : NaN;
      const from = i > 0 && (c0 === 65 || (prevEnd === this.firstChar[id] && last === c0)) ? 1 : 0;
      for (let j = from; j < n; j++) {
        const c = p ? p.charCodeAt(j) : (x >>> (8 * j)) & 255;
        h ^= c;
        h = Math.imul(h, 0x01000193);
        last = c;
      }
      prevEnd = this.lastChar[id];
    }
    return h >>> 0;
  }
}

export function codeHash(code: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < code.length; i++) {
    h ^= code.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The table: every distinct run of two or three words (its first word's place in markWords, bit 31
 * set for three words), sorted by the hash of its joined code, with the marks holding it (ascending)
 * and where in each mark it starts. A query's codes are then judged once per distinct run, and marks
 * are read only from this table: runs are shared by many marks (SAI SUPARI by hundreds), and reading a
 * mark's words is a cache miss or two.
 */
export interface RunTable {
  runHashes: Uint32Array;
  runFirst: Uint32Array;
  runOffsets: Uint32Array;
  runMarks: Uint32Array;
  runStarts: Uint16Array;
}

const THREE = 0x80000000;

export function buildRuns(v: Vocabulary, wordOffsets: Uint32Array, markWords: Uint32Array): RunTable {
  const n = wordOffsets.length - 1;
  let total = 0;
  for (let m = 0; m < n; m++) {
    const k = wordOffsets[m + 1] - wordOffsets[m];
    for (const r of RUN_WORDS) if (k >= r) total += k - r + 1;
  }
  // Every occurrence: its hash, its words (the third 0 for two: ids are stored plus one), where its
  // words start (bit 31: three words); marks ascending.
  const hashes = new Uint32Array(total);
  const firsts = new Uint32Array(total);
  const occMarks = new Uint32Array(total);
  const w = [new Uint32Array(total), new Uint32Array(total), new Uint32Array(total)];
  const hasher = new RunHasher(v);
  let at = 0;
  for (let m = 0; m < n; m++) {
    const start = wordOffsets[m];
    const k = wordOffsets[m + 1] - start;
    for (const r of RUN_WORDS) {
      for (let s = 0; s + r <= k; s++) {
        for (let i = 0; i < r; i++) w[i][at] = markWords[start + s + i] + 1;
        hashes[at] = hasher.hash(markWords, start + s, r);
        firsts[at] = (start + s) | (r === 3 ? THREE : 0);
        occMarks[at++] = m;
      }
    }
  }
  const [w0, w1, w2] = w;
  const same = (x: number, y: number) => w0[x] === w0[y] && w1[x] === w1[y] && w2[x] === w2[y];
  const before = (x: number, y: number) => w0[x] - w0[y] || w1[x] - w1[y] || w2[x] - w2[y] || x - y;
  // By hash (stable: marks stay ascending), then, within a hash, the runs of the same words together
  // (a hash of one run, repeated in many marks, needs no sorting).
  const index = new Uint32Array(total);
  for (let i = 0; i < total; i++) index[i] = i;
  const sorted = radixSortPairs(hashes.slice(), index);
  const order = sorted.values;
  const sortedHashes = sorted.keys;
  const runHashes = new Uint32Array(total);
  const runFirst = new Uint32Array(total);
  const offsets = new Uint32Array(total + 1);
  let runs = 0;
  const open = (k: number) => {
    runHashes[runs] = sortedHashes[k];
    runFirst[runs] = firsts[order[k]];
    offsets[runs++] = k;
  };
  for (let lo = 0; lo < total; ) {
    const h = sortedHashes[lo];
    let hi = lo + 1;
    let mixed = false;
    while (hi < total && sortedHashes[hi] === h) {
      if (!mixed && !same(order[hi], order[lo])) mixed = true;
      hi++;
    }
    open(lo);
    if (mixed) {
      const group = order.subarray(lo, hi);
      if (group.length <= 16) {
        for (let i = 1; i < group.length; i++) {
          const x = group[i];
          let j = i - 1;
          for (; j >= 0 && before(group[j], x) > 0; j--) group[j + 1] = group[j];
          group[j + 1] = x;
        }
      } else {
        group.sort(before);
      }
      for (let k = lo + 1; k < hi; k++) if (!same(order[k], order[k - 1])) open(k);
    }
    lo = hi;
  }
  const runMarks = new Uint32Array(total);
  const runStarts = new Uint16Array(total);
  for (let k = 0; k < total; k++) {
    const i = order[k];
    runMarks[k] = occMarks[i];
    runStarts[k] = (firsts[i] & ~THREE) - wordOffsets[occMarks[i]];
  }
  offsets[runs] = total;
  return {
    runHashes: runHashes.slice(0, runs),
    runFirst: runFirst.slice(0, runs),
    runOffsets: offsets.slice(0, runs + 1),
    runMarks,
    runStarts,
  };
}

/**
 * Marks holding a run that sounds like the query, with the spelling distance from the query run
 * together to the closest such run (`spelled`, at most 4) and the same after romanisation
 * (`sounded`). Kept in a search's scratch from search to search.
 */
export class RunHits {
  n = 0;
  private readonly m = new Growable();
  private readonly d = new Growable();

  push(m: number, spelled: number, sounded: number, shared: number): void {
    this.m.room(this.n + 1)[this.n] = m;
    this.d.room(this.n + 1)[this.n++] = (shared << 16) | (spelled << 8) | sounded;
  }

  get marks(): Uint32Array {
    return this.m.a;
  }

  spelled(i: number): number {
    return (this.d.a[i] >>> 8) & 255;
  }

  /** The letter triples the run's words share with the query's (for its place in a tie: missSteps). */
  shared(i: number): number {
    return this.d.a[i] >>> 16;
  }

  sounded(i: number): number {
    return this.d.a[i] & 255;
  }
}
/** What soundRuns works in, kept by a search's scratch: its answer, and one code's findings. */
export class RunScratch {
  readonly hits = new RunHits();
  // One code's findings, one per mark: mark, (spelled << 8 | sounded), and which of the mark's runs it
  // came from (two-word runs first, then by where they start), which decides between runs as close.
  readonly m = new Growable();
  readonly d = new Growable();
  readonly t = new Growable();
}

/**
 * Marks holding a run of words that, run together, sounds like `compact` (coded `codes`), with the
 * spelling distance of the closest such run (the first of the mark's runs, two-word runs first, when
 * several are as close). `done` (cleared) records the marks found; `inCode` (cleared, and left so) and
 * `scratch` are scratch; `skip` leaves out marks the search has no use for.
 */
export function soundRuns(
  v: Vocabulary,
  t: RunTable,
  markWords: Uint32Array,
  compact: string,
  codes: string[],
  done: Bitset,
  inCode: Bitset,
  skip: (m: number) => boolean,
  scratch: RunScratch,
  query: Triples,
): RunHits {
  const found = scratch;
  const hits = scratch.hits;
  const spelling = distanceFrom(compact);
  let sounding: ((b: string, max: number) => number) | null = null;
  hits.n = 0;
  const parts: string[] = [];
  const texts: string[] = [];
  const { runHashes, runFirst, runOffsets, runMarks, runStarts } = t;
  for (const code of codes) {
    const h = codeHash(code);
    const lo = partitionPoint(0, runHashes.length, (i) => runHashes[i] < h);
    const hi = partitionPoint(lo, runHashes.length, (i) => runHashes[i] === h);
    if (runOffsets[hi] - runOffsets[lo] > RUN_CAP) continue;
    let n = 0;
    for (let i = lo; i < hi; i++) {
      const three = (runFirst[i] & THREE) !== 0;
      const at = runFirst[i] & ~THREE;
      const r = three ? 3 : 2;
      parts.length = 0;
      texts.length = 0;
      for (let j = 0; j < r; j++) {
        parts.push(v.code(markWords[at + j]));
        texts.push(v.words.at(markWords[at + j]));
      }
      if (joinedCode(parts, texts) !== code) continue;
      const text = texts.join('');
      const spelled = spelling(text, 3);
      // Romanised only when it decides anything: past the spelling reach, as a sound-alike.
      const sounded = spelled <= maxEdits(compact.length) ? spelled : (sounding ??= distanceFrom(romanise(compact)))(romanise(text), 3);
      // Counted once per run, not per mark holding it: a common run is held by thousands.
      let both = 0;
      for (const x of texts) both += shared(query, x) & 0xffff;
      const d = (Math.min(both, 255) << 16) | (spelled << 8) | sounded;
      for (let p = runOffsets[i]; p < runOffsets[i + 1]; p++) {
        const m = runMarks[p];
        if (done.has(m) || skip(m)) continue;
        const tb = (three ? 0x10000 : 0) | runStarts[p];
        if (inCode.has(m)) {
          // A second run of the mark under this code (rare): the closer, or the first of the mark's runs.
          const fm = found.m.a;
          let j = 0;
          while (fm[j] !== m) j++;
          const fs = (found.d.a[j] >>> 8) & 255;
          if (spelled < fs || (spelled === fs && tb < found.t.a[j])) {
            found.d.a[j] = d;
            found.t.a[j] = tb;
          }
          continue;
        }
        inCode.add(m);
        found.m.room(n + 1)[n] = m;
        found.d.room(n + 1)[n] = d;
        found.t.room(n + 1)[n++] = tb;
      }
    }
    const fm = found.m.a;
    const fd = found.d.a;
    for (let i = 0; i < n; i++) {
      inCode.remove(fm[i]);
      done.add(fm[i]);
      hits.push(fm[i], (fd[i] >>> 8) & 255, fd[i] & 255, fd[i] >>> 16);
    }
  }
  return hits;
}
