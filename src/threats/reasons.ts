import { romanise } from '../search/normalise.ts';
import type { ClassRelation } from './classes.ts';
import type { Comparison, Evidence, MarkForm } from './compare.ts';

// Short, human-readable evidence of why two marks may be confused, written from what the scorer found
// (the comparison's Evidence, the logo cosine, the class relation) and never from a second comparison:
// a reason always names something the score counted.

/** A shared word at least this heavy (src/threats/score.ts weightFor) is distinctive; lighter ones are the trade's common words. */
export const DISTINCTIVE = 0.3;
/** Words at least this alike in sound, though spelled apart, are said alike (SHRI / SHREE). */
export const SAID_ALIKE = 0.85;
/** Words at least this alike in spelling, and not said alike, are spelled alike (SUNRISE / SUNRIZE). */
export const SPELT_ALIKE = 0.75;
/** At most this many reasons per pair, the strongest kinds first. */
const MAX_REASONS = 8;
/** Words read in a logo are quoted up to this many characters. */
const QUOTED = 40;

export interface PairFacts {
  /** The analysed words and the other mark's (or the words read in its logo, when `inLogo`). */
  ours: MarkForm;
  theirs: MarkForm;
  comparison: Comparison;
  evidence: Evidence;
  /** The other mark's words were read in its logo. */
  inLogo: boolean;
  /** The logos' cosine similarity, and the level from which the model calls two logos alike; undefined without two logos. */
  cosine?: number;
  alikeFrom: number;
  relation: ClassRelation;
  /** Goods words the marks share, when they made an unrelated class related (src/threats/goods.ts). */
  goods?: string[];
  /** The analysed class the relation is to, and the other mark's class. */
  ourClass: number;
  theirClass: number;
  live: boolean;
  status: string;
}

export function reasonsOf(f: PairFacts): string[] {
  const out = [...wordReasons(f)];
  if (f.cosine !== undefined && f.cosine >= f.alikeFrom) out.push(`logo ${f.cosine.toFixed(2)} alike`);
  if (f.inLogo) out.push(`words read in its logo: ${quote(f.theirs.normalised)}`);
  out.push(f.goods ? `related goods: ${f.goods.join(', ')} (class ${f.theirClass})` : classReason(f.relation, f.ourClass, f.theirClass));
  if (!f.live) out.push(`not live: ${f.status}`);
  return [...new Set(out)].slice(0, MAX_REASONS);
}

function* wordReasons(f: PairFacts): Generator<string> {
  let said = false;
  for (const r of wordEvidence(f)) {
    said = true;
    yield r;
  }
  if (!said) yield* closest(f);
}

/**
 * When no pair of words is alike enough to be called so, what the score still counted: a word of one mark that the
 * other's begins, ends or is held in (NIRMA, NIRMALOIL), or else the closest pair of words.
 */
function* closest(f: PairFacts): Generator<string> {
  const { ours: a, theirs: b, evidence: e } = f;
  let best = { i: -1, j: -1, s: 0 };
  for (let i = 0; i < a.words.length; i++) {
    for (const m of [e.spelt[i], e.said[i]]) if (m && m.j >= 0 && m.s > best.s) best = { i, j: m.j, s: m.s };
  }
  for (let i = 0; i < a.words.length; i++) {
    for (let j = 0; j < b.words.length; j++) {
      const [x, y] = [a.words[i], b.words[j]];
      if (Math.min(x.length, y.length) < 4 || x === y) continue;
      const theirsHolds = within(x, y);
      const oursHolds = theirsHolds ? undefined : within(y, x);
      if (!theirsHolds && !oursHolds) continue;
      yield theirsHolds ? `${shown(b, j)} ${theirsHolds} ${shown(a, i)}` : `${shown(a, i)} ${oursHolds} ${shown(b, j)}`;
      return;
    }
  }
  if (best.i >= 0) yield `closest words: ${shown(a, best.i)} / ${shown(b, best.j)}`;
}

/** How `outer` holds `inner`: begins with it, ends with it or holds it; undefined when it does not. */
function within(inner: string, outer: string): string | undefined {
  if (outer.startsWith(inner)) return 'begins with';
  if (outer.endsWith(inner)) return 'ends with';
  return outer.includes(inner) ? 'holds' : undefined;
}

function* wordEvidence(f: PairFacts): Generator<string> {
  const { ours: a, theirs: b, comparison: c, evidence: e } = f;
  if (c.exact) {
    // "reads as X: Y": the mark in an Indic script (Y) spells the other's English words (X).
    if (a.compact !== b.compact && a.readCompact === b.compact) yield `reads as ${quote(shownMark(b))}: ${quote(shownMark(a))}`;
    else if (a.compact !== b.compact) yield `reads as ${quote(shownMark(a))}: ${quote(shownMark(b))}`;
    else if (shownMark(a) === shownMark(b)) yield `same words ${quote(shownMark(a))}`;
    else yield `same letters: ${quote(shownMark(a))} / ${quote(shownMark(b))}`;
    return;
  }
  // Run together, the marks compared closer than word by word: that is what the score counted, and the
  // words' own near matches (SUNRISE / SUNRISEFOOD) would only echo it.
  const whole = e.runTogether && Math.max(c.word, c.phonetic) >= SPELT_ALIKE;
  if (whole) yield `run together alike: ${quote(a.written ? shownMark(a) : a.compact)} / ${quote(b.written ? shownMark(b) : b.compact)}`;
  for (let i = 0; i < a.words.length; i++) {
    const spelt = e.spelt[i];
    const ours = shown(a, i);
    if (spelt && spelt.j >= 0 && spelt.s === 1) {
      const theirs = shown(b, spelt.j);
      const same = b.words[spelt.j] === a.words[i];
      if (!same) yield b.readings?.[spelt.j] && !a.readings?.[i] ? `${theirs} reads as ${ours}` : `${ours} reads as ${theirs}`;
      else {
        const word = ours === theirs ? ours : `${ours} / ${theirs}`;
        const held = a.held?.[i];
        if (a.weights[i] >= DISTINCTIVE) yield `shared distinctive word ${word}`;
        else if (held && held > 1)
          yield `shared common word ${word}: held by ${held.toLocaleString('en')} marks in class ${f.ourClass} and related classes`;
        else yield `shared common word ${word}`;
      }
      continue;
    }
    if (whole) continue;
    const sound = e.said[i];
    if (sound && sound.j >= 0 && sound.s >= SAID_ALIKE) yield `sounds alike: ${ours} / ${shown(b, sound.j)}`;
    else if (spelt && spelt.j >= 0 && spelt.s >= SPELT_ALIKE) yield `spelled alike: ${ours} / ${shown(b, spelt.j)}`;
  }
  for (const [i, j] of e.translated) yield translation(a, b, i, j);
}

/** A word of a mark as the mark writes it (सनराइज, not its romanisation SANRAIJ). */
const shown = (a: MarkForm, i: number) => a.written?.[i] ?? a.words[i];
const shownMark = (a: MarkForm) => (a.written ? a.written.join(' ') : a.normalised);

/** "Hindi SURAJ = SUN", or, for two words of one meaning neither of them English, "both mean SUN: SURAJ / SURYA". */
function translation(a: MarkForm, b: MarkForm, i: number, j: number): string {
  const meaning = a.meanings[i]!;
  const english = (w: string) => romanise(w) === romanise(meaning);
  if (english(b.words[j])) return `Hindi ${shown(a, i)} = ${shown(b, j)}`;
  if (english(a.words[i])) return `Hindi ${shown(b, j)} = ${shown(a, i)}`;
  return `both mean ${meaning}: ${shown(a, i)} / ${shown(b, j)}`;
}

function classReason(relation: ClassRelation, ours: number, theirs: number): string {
  if (relation === 'same') return `same class ${theirs}`;
  if (relation === 'related') return `related class ${theirs} ↔ ${ours}`;
  return `unrelated class ${theirs}`;
}

const quote = (s: string) => (s.length > QUOTED ? `${s.slice(0, QUOTED - 1)}…` : s);
