// The benchmark's query classes, drawn from a sample of the register so they hit what is there:
// words by how common they are, short prefixes, runs of words, compounds, misspellings and
// respellings, a class filter, and whole marks for EXACT. Seeded: every run asks the same queries.
import pg from 'pg';
import { normaliseMark } from '../src/search/normalise.ts';
import type { MatchType } from '../src/search/query.ts';

export interface BenchQuery {
  text: string;
  mode: MatchType;
  classes: number[] | null;
}

class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (Math.imul(this.s, 1664525) + 1013904223) >>> 0;
    return this.s / 2 ** 32;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: T[]): T {
    return xs[this.int(xs.length)];
  }
}

const VOWELS = 'AEIOU';
// Respellings people use for the same sound (the engine folds these; the query does not).
const RESPELL: [string, string][] = [
  ['EE', 'I'],
  ['I', 'EE'],
  ['OO', 'U'],
  ['U', 'OO'],
  ['PH', 'F'],
  ['F', 'PH'],
  ['SH', 'S'],
  ['W', 'V'],
  ['V', 'W'],
  ['KH', 'K'],
  ['CK', 'K'],
  ['Q', 'K'],
  ['AA', 'A'],
  ['TH', 'T'],
  ['BH', 'B'],
  ['X', 'KS'],
  ['Z', 'J'],
];

function misspell(w: string, rng: Rng): string {
  const at = 1 + rng.int(w.length - 2);
  switch (rng.int(4)) {
    case 0:
      return w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2); // swapped neighbours
    case 1:
      return w.slice(0, at) + w.slice(at + 1); // dropped letter
    case 2:
      return w.slice(0, at) + w[at] + w.slice(at); // doubled letter
    default: {
      const v = [...w].findIndex((c, i) => i > 0 && VOWELS.includes(c));
      return v < 0
        ? w.slice(0, at) + w.slice(at + 1)
        : w.slice(0, v) + VOWELS[(VOWELS.indexOf(w[v]) + 1 + rng.int(4)) % 5] + w.slice(v + 1);
    }
  }
}

export async function queryClasses(url: string, n: number): Promise<Record<string, BenchQuery[]>> {
  const c = new pg.Client(url);
  await c.connect();
  const rows = (await c.query(`select word_mark from trademarks tablesample system (1) repeatable (7) where word_mark <> ''`)).rows;
  await c.end();
  const rng = new Rng(7);
  const marks = rows.map((r) => ({ raw: r.word_mark as string, n: normaliseMark(r.word_mark as string) })).filter((m) => m.n);
  const freq = new Map<string, number>();
  for (const m of marks) for (const w of new Set(m.n.split(' '))) freq.set(w, (freq.get(w) ?? 0) + 1);
  const byFreq = [...freq]
    .filter(([w]) => /^[A-Z]{3,}$/.test(w))
    .sort((x, y) => y[1] - x[1])
    .map(([w]) => w);
  const common = byFreq.slice(0, 20);
  const medium = byFreq.slice(200, 3000);
  const rare = byFreq.filter((w) => freq.get(w) === 1 && w.length >= 7);
  const multi = marks.filter((m) => m.n.includes(' ')).map((m) => m.n.split(' '));
  const uncommon = medium.concat(rare);
  const longUncommon = uncommon.filter((w) => w.length >= 5);
  const take = (make: () => string | null, mode: MatchType = 'SMART', classes: () => number[] | null = () => null): BenchQuery[] => {
    const out: BenchQuery[] = [];
    for (let tries = 0; out.length < n && tries < n * 1000; tries++) {
      const text = make();
      if (text) out.push({ text, mode, classes: classes() });
    }
    return out;
  };
  const run = () => {
    const ws = rng.pick(multi);
    const at = rng.int(ws.length - 1);
    return [ws[at], ws[at + 1]];
  };
  const split = () => {
    const w = rng.pick(uncommon);
    for (let i = 3; i <= w.length - 3; i++)
      if ((freq.get(w.slice(0, i)) ?? 0) >= 3 && (freq.get(w.slice(i)) ?? 0) >= 3) return `${w.slice(0, i)} ${w.slice(i)}`;
    return null;
  };
  const respell = () => {
    const w = rng.pick(medium);
    const options = RESPELL.filter(([from]) => w.slice(1).includes(from));
    if (!options.length) return null;
    const [from, to] = rng.pick(options);
    const at = w.indexOf(from, 1);
    return w.slice(0, at) + to + w.slice(at + from.length);
  };
  const mixedText = () => (rng.int(2) ? rng.pick(medium) : run().join(' '));
  return {
    common: take(() => common[rng.int(common.length)]),
    medium: take(() => rng.pick(medium)),
    rare_coined: take(() => rng.pick(rare)),
    one_two_letters: take(() => rng.pick(byFreq.slice(0, 500)).slice(0, 1 + rng.int(2))),
    multi_word: take(() => run().join(' ')),
    compound_join: take(() => run().join('')),
    compound_split: take(split),
    misspelling: take(() => misspell(rng.pick(longUncommon), rng)),
    sound_alike: take(respell),
    class_filter: take(mixedText, 'SMART', () => (rng.int(2) ? [1 + rng.int(45)] : [1 + rng.int(15), 16 + rng.int(15), 31 + rng.int(15)])),
    exact: take(() => rng.pick(marks).raw, 'EXACT'),
  };
}
