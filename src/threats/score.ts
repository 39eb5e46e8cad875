import type { ClassRelation } from './classes.ts';
import type { Comparison } from './compare.ts';

// From the measures of a pair to its overall score, risk level and matching criterion. The numbers
// here were chosen by the calibration (bench/threatsCalibrate.ts) and are explained, with what it
// measured, in docs/threats.md; change them only with a new calibration run recorded there.

export type RiskLevel = 'Low' | 'Medium' | 'High';
export type Criterion = 'exact' | 'word' | 'visual' | 'logo';

export interface ScoreParams {
  /** Text similarity = sound·max(word, phonetic) + (1 − sound)·mean(word, phonetic). */
  sound: number;
  /** Word weight = distinctiveness^exponent (see weightFor). */
  weightExponent: number;
  /** Multipliers of the overall score by class relation and by whether the other mark is live. */
  classFactor: Record<ClassRelation, number>;
  deadFactor: number;
  /**
   * A translation's share of the similarity: marks alike only in meaning (SURAJ FOODS, SUN FOODS) score
   * this times their similarity of meaning, below the same words spelled or said alike.
   */
  translation: number;
  /** Multiplier for a mark filed after this one: a mark to watch, not an earlier right that can be cited against it. */
  laterFactor: number;
  /** Minimum overall score of each risk level; below `low` a candidate is not a threat at all. */
  thresholds: { high: number; medium: number; low: number };
  /**
   * Marks that share only common words: when every word the two share weighs below `common`, each mark
   * has a word of its own weighing at least `distinctive`, and no word of the one left over is even
   * `unlike` alike (spelling or sound) to a word of the other's, the text similarity is the shared words'
   * weight share at most, and stays below Medium (Comparison.apart).
   */
  sharedCommon: { common: number; distinctive: number; unlike: number };
  /**
   * Marks alike only in part (Comparison.partly) whose alike words all weigh below this in the trade, and told apart
   * by a word at least this heavy: never High. GOLD STAR and GOLD KING in class 3, where hundreds of marks hold GOLD;
   * not JAGDAMBA'S CAFE and JAGDAMBA'S, told apart by a trade word only.
   */
  weakOnly: number;
}

export const PARAMS: ScoreParams = {
  sound: 0.5,
  weightExponent: 1,
  classFactor: { same: 1, related: 0.9, unrelated: 0.6 },
  deadFactor: 0.85,
  laterFactor: 0.8,
  translation: 0.9,
  thresholds: { high: 65, medium: 57, low: 43 },
  sharedCommon: { common: 0.8, distinctive: 0.3, unlike: 0.5 },
  weakOnly: 0.3,
};

/**
 * How distinctive a word is, 0.02-1, from how many of the register's `marks` hold it: the share of
 * the register's information it carries (log of the inverse frequency over log of the register's
 * size), raised to the exponent. One or two characters and plain numbers weigh little however rare.
 */
export function weightFor(word: string, holders: number, marks: number, p: ScoreParams = PARAMS): number {
  const n = Math.max(marks, 2);
  const idf = Math.max(0, Math.log(n / Math.max(1, holders)) / Math.log(n));
  let w = idf ** p.weightExponent;
  if (word.length <= 2 || /^\d+$/.test(word)) w *= 0.3;
  return Math.max(0.02, Math.min(1, w));
}

/**
 * A logo cosine as a similarity on the text scale: the model's calibrated thresholds (its low,
 * medium and high similarity levels, models/manifest.json) land on 0.5, 0.7 and 0.85.
 */
export function visualScale(cosine: number, t: { low: number; medium: number; high: number }): number {
  const pts: [number, number][] = [
    [0, 0],
    [t.low, 0.5],
    [t.medium, 0.7],
    [t.high, 0.85],
    [1, 1],
  ];
  const c = Math.max(0, Math.min(1, cosine));
  for (let i = 1; i < pts.length; i++) {
    const [x0, y0] = pts[i - 1];
    const [x1, y1] = pts[i];
    if (c <= x1) return x1 === x0 ? y1 : y0 + ((c - x0) / (x1 - x0)) * (y1 - y0);
  }
  return 1;
}

export interface PairScore {
  word: number;
  phonetic: number;
  visual: number | null;
  overall: number;
  risk: RiskLevel;
  criterion: Criterion;
}

export function riskOf(overall: number, p: ScoreParams = PARAMS): RiskLevel {
  return overall >= p.thresholds.high ? 'High' : overall >= p.thresholds.medium ? 'Medium' : 'Low';
}

export interface Standing {
  relation: ClassRelation;
  /** The other mark is live (its status is not refused, abandoned, withdrawn, invalid or removed). */
  live: boolean;
  /** The other mark was filed after this one. */
  later: boolean;
}

/**
 * The overall score 0-100: the marks' similarity (text, or the logos' when they look more alike than
 * the words read) times the class relation's factor, the dead-mark factor and the later-filing factor.
 */
export function scorePair(c: Comparison, visual: number | null, st: Standing, p: ScoreParams = PARAMS): PairScore {
  let text = Math.max(p.sound * Math.max(c.word, c.phonetic) + (1 - p.sound) * ((c.word + c.phonetic) / 2), p.translation * c.meaning);
  const apart = c.apart;
  const rule = p.sharedCommon;
  if (apart && apart.common < rule.common && apart.own >= rule.distinctive && apart.unlike < rule.unlike) {
    // Alike only in words many marks hold: what tells each apart is its own, unlike the other's.
    text = Math.min(text, apart.share, (p.thresholds.medium - 0.5) / 100);
  }
  if (!c.exact && c.meaning === 0 && c.partly && c.partly.alike < p.weakOnly && c.partly.apart >= p.weakOnly) {
    // Alike only in words the trade's marks commonly hold: what the marks share does not tell a trader apart.
    text = Math.min(text, (p.thresholds.high - 0.5) / 100);
  }
  const logo = visual ?? 0;
  const similarity = Math.max(text, logo);
  const overall = round1(100 * similarity * standingFactor(st, p));
  // `logo` (the words read in the other's logo) is decided by the caller, which knows where the words came from.
  const criterion: Criterion = logo > text ? 'visual' : c.exact ? 'exact' : 'word';
  return { word: round1(100 * c.word), phonetic: round1(100 * c.phonetic), visual: null, overall, risk: riskOf(overall, p), criterion };
}

/** The product of the class relation's, the dead-mark and the later-filing factors. */
export function standingFactor(st: Standing, p: ScoreParams = PARAMS): number {
  return p.classFactor[st.relation] * (st.live ? 1 : p.deadFactor) * (st.later ? p.laterFactor : 1);
}

export const round1 = (x: number) => Math.round(x * 10) / 10;
