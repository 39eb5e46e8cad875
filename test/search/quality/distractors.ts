import { Marks } from '../../../src/ingest/generator/marks.ts';
import { editDistance, normaliseTokens, similarTokens } from '../../../src/ingest/generator/variants.ts';
import { DIGIT_WORDS, genericWords, PREFIXES } from '../../../src/ingest/generator/words.ts';
import type { Target } from './register.ts';

// The rest of the register: marks from the project's synthetic generator (src/ingest/generator,
// fixed seed), so that every hand-written target competes with tens of thousands of Indian-style
// marks built from the same popular words (SHREE, GOLD, STAR, KRISHNA, ...), their coinages and
// their generated look-alikes.
//
// A generated mark that is itself a copy of a target (GANESH MAHALAXMI beside SHREE GANESH, GOLD
// STAR TEA beside GOLD STAR) is a relevant answer nobody labelled: left in, it would push the
// labelled marks down for being right, and the score would measure the generator's popularity of
// words, not the search. Such marks are left out; marks sharing only part of a target (GOLD TEA)
// stay in as the competition. "A copy" is judged on the generator's own folded spelling
// (normaliseTokens: digits to words, PH/F, SH/S, EE/I, ... unified), not on the search engine's.

export const DISTRACTOR_SEED = 20_240_601;
export const DISTRACTOR_COUNT = 30_000;

const STATUSES = ['Registered', 'Registered', 'Registered', 'Objected', 'Accepted & Advertised', 'Abandoned', 'Refused', 'Marked for Exam'];

// Words that cannot make two marks similar on their own: the generator's generic and prefix words,
// and numbers.
const WEAK = new Set([...genericWords(), ...PREFIXES, ...DIGIT_WORDS, 'THE', 'OF', 'AND'].flatMap((w) => normaliseTokens(w)));

interface Shape {
  tokens: string[];
  /** The tokens that make the mark what it is (all of them when none is distinctive). */
  key: string[];
  compact: string;
}

function shape(text: string): Shape {
  const tokens = normaliseTokens(text);
  const strong = tokens.filter((t) => !WEAK.has(t));
  return { tokens, key: strong.length ? strong : tokens, compact: tokens.join('') };
}

// Spelling slack by length, as an examiner reads it: short words must match, long ones may be one
// letter off (GANEESH for GANESH, once folded).
const sameWord = (a: string, b: string) => a === b || (Math.min(a.length, b.length) >= 5 && editDistance(a, b, 1) <= 1);

/** Whether generated mark `d` copies target `t`: all its distinctive words, or the whole of it run together. */
function copies(d: Shape, t: Shape): boolean {
  if (t.key.every((k) => d.tokens.some((w) => sameWord(w, k) || (t.key.length === 1 && k.length >= 3 && w.includes(k))))) return true;
  if (t.compact.length >= 4 && d.compact.includes(t.compact)) return true;
  const slack = t.compact.length >= 8 ? 2 : t.compact.length >= 5 ? 1 : 0;
  return slack > 0 && editDistance(d.compact, t.compact, slack) <= slack;
}

export interface Distractor {
  appNo: number;
  mark: string;
  cls: number;
  status: string;
}

/**
 * The first DISTRACTOR_COUNT generated word marks that copy no target, and how many copies were
 * left out on the way. Application numbers are the generator's own (from 1_000_000).
 */
export function distractors(targets: readonly Target[], count = DISTRACTOR_COUNT): { marks: Distractor[]; skipped: number } {
  const shapes = targets.map((t) => shape(t[1]));
  // A copy shares at least a run of three letters with what it copies (LXMI with LAKSMI, LAXMI
  // folded); comparing only with the targets sharing one keeps the comparisons few.
  const byGram = new Map<string, Shape[]>();
  for (const s of shapes) {
    for (const g of grams(s.compact)) byGram.set(g, [...(byGram.get(g) ?? []), s]);
  }
  const nearTargets = (d: Shape) => {
    const near = new Set<Shape>();
    for (const g of grams(d.compact)) for (const t of byGram.get(g) ?? []) near.add(t);
    return [...near];
  };
  const gen = new Marks(DISTRACTOR_SEED, count * 4);
  const marks: Distractor[] = [];
  let skipped = 0;
  for (let i = 0; marks.length < count; i++) {
    if (i >= count * 4) throw new Error(`only ${marks.length} distractors from ${count * 4} generated marks`);
    if (!gen.hasWords(i)) continue;
    const core = gen.core(i);
    if (!core.word) continue;
    const d = shape(core.word);
    if (!d.tokens.length) continue;
    if (lineage(gen, i, d).some((a) => nearTargets(a).some((t) => copies(a, t)))) {
      skipped++;
      continue;
    }
    marks.push({ appNo: Number(gen.appNo(i)), mark: core.word, cls: core.cls, status: STATUSES[i % STATUSES.length] });
  }
  return { marks, skipped };
}

/**
 * The mark and the earlier marks it descends from through the generator's look-alikes, as long as
 * each still resembles the next by the generator's own test (similarTokens): LXAMI, made from LAXMI,
 * copies the target LAXMI even where the spelling slack of copies() does not reach.
 */
function lineage(gen: Marks, i: number, d: Shape): Shape[] {
  const out = [d];
  let child = d;
  for (let p = gen.core(i).parent, depth = 0; p >= 0 && depth < 5; p = gen.core(p).parent, depth++) {
    const word = gen.core(p).word;
    if (!word) break;
    const s = shape(word);
    if (!similarTokens(child.tokens, s.tokens, WEAK)) break;
    out.push(s);
    child = s;
  }
  return out;
}

/** The runs of three characters of `s` (or `s` itself when shorter). */
function grams(s: string): Set<string> {
  if (s.length < 3) return new Set([s]);
  const out = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return out;
}
