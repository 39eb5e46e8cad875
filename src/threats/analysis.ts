import type { LogoTextIndex } from '../logos/textIndex.ts';
import { logoText } from '../logos/textIndex.ts';
import type { SearchEngine } from '../search/engine.ts';
import type { SearchIndex } from '../search/manager.ts';
import { normaliseMark } from '../search/normalise.ts';
import { classMask } from '../search/service.ts';
import type { RegisterView } from '../search/view.ts';
import type { SummaryRow, TrademarkRepository } from '../trademarks/repository.ts';
import { CANDIDATES, wordCandidates } from './candidates.ts';
import { type ClassRelation, classRelation, relatedClasses } from './classes.ts';
import { comparedWords, compareMarks, type MarkForm, markForm, noEvidence, type PairMemo, remembering, type WeightOf } from './compare.ts';
import { goodsWords, sharedGoods } from './goods.ts';
import { modelThresholds } from './models.ts';
import { readingOf, withReading } from './readings.ts';
import type { PairFacts } from './reasons.ts';
import type { LogoProbe, ThreatRepository } from './repository.ts';
import { type Criterion, PARAMS, type PairScore, scorePair, standingFactor, visualScale } from './score.ts';
import { engineWeights, roughWeights } from './weights.ts';

// The likelihood-of-confusion analysis of a proposal: words and/or a logo's vector, in one or more
// classes. Both entry points run it: a mark's threats (its own words, logo and class, less itself and
// its proprietor's marks: src/threats/service.ts) and a clearance (words and logo not yet filed, in the
// classes asked for: src/clearance/). Candidates come from the word-mark search index, the logo vectors
// (nearest logos) and the logos' words (docs/threats.md); each is scored once, keeping what the scorer
// found for the reasons a clearance gives.

/** Nearest logos and logo-text matches looked at. */
export const LOGO_NEIGHBOURS = 50;
/** At most this many findings are kept per analysis (best first); pages beyond them are empty. */
export const MAX_FINDINGS = 500;

export interface Proposal {
  /** The words ('' for none: a logo alone). */
  text: string;
  /** Nice classes screened, each once, at least one; the first decides the weights of marks outside all of them. */
  classes: number[];
  logo: LogoProbe | null;
  /** Filing date (YYYY-MM-DD) of an application analysed: marks filed after it are later. Null for a mark not yet filed. */
  filed: string | null;
  /** Marks that are no threat to it: the mark analysed itself, and its proprietor's (any case, surrounding spaces ignored). */
  leaveOut?: { application: string; owner: string };
  /** The words of the goods and services it is proposed for (src/threats/goods.ts), when given. */
  goods?: ReadonlySet<string>;
}

export type CandidateRow = Pick<
  SummaryRow,
  'application_number' | 'word_mark' | 'class_number' | 'status' | 'proprietor_name' | 'application_date'
>;

export interface Finding {
  row: CandidateRow;
  score: PairScore;
  criterion: Criterion;
  /** What the score counted, for the reasons (src/threats/reasons.ts). */
  facts: PairFacts;
}

interface Candidate {
  row: CandidateRow;
  logoText?: string;
  /** Goods words it shares with the proposal, when it is in a class unrelated to the proposal's by the class table. */
  goods?: string[];
}

/** Candidates in unrelated classes whose goods are read and compared with the proposal's, at most. */
const GOODS_READ = 300;

/** The proposal in one group of cognate classes: its words weighed in that trade. */
interface Side {
  related: number[];
  weightOf: WeightOf;
  form: MarkForm;
}

const sameOwner = (a: string, b: string) => {
  const x = a.trim().toUpperCase();
  return x !== '' && x === b.trim().toUpperCase();
};

/** The closest of the proposal's classes to a mark's class: the same, else a cognate one, else the first. */
export function closestClass(ours: number[], theirs: number): { relation: ClassRelation; ours: number } {
  let best = { relation: classRelation(ours[0], theirs), ours: ours[0] };
  for (const c of ours) {
    const relation = classRelation(c, theirs);
    if (relation === 'same') return { relation, ours: c };
    if (relation === 'related' && best.relation === 'unrelated') best = { relation, ours: c };
  }
  return best;
}

export class Analyser {
  private dead: Promise<Set<string>> | null = null;
  /** Whether a proposal in an Indic script is also read as the English words it spells (off only to measure it). */
  readEnglish = true;

  constructor(
    private readonly index: SearchIndex,
    private readonly marks: TrademarkRepository,
    private readonly repo: ThreatRepository,
    private readonly texts: LogoTextIndex,
  ) {}

  /**
   * Every mark scoring at least Low against the proposal, best first. The logo may still be on its way (being
   * embedded): the words are searched meanwhile.
   */
  async analyse(p: Omit<Proposal, 'logo'> & { logo: LogoProbe | null | Promise<LogoProbe | null> }): Promise<Finding[]> {
    const logo = Promise.resolve(p.logo);
    logo.catch(() => {});
    const dead = await this.deadStatuses();
    const engine = await this.index.ready();
    // One side per group of cognate classes asked for: classes of one group search and weigh alike.
    const sides = new Map<number, Side>();
    const ofClass = new Map<number, Side>();
    // The words' likeness to candidates' words is the same in every trade: one memo for every side.
    let pairs: PairMemo | undefined;
    const readAs = this.reading(p.text, engine);
    for (const c of p.classes) {
      const related = relatedClasses(c);
      if (ofClass.has(c)) continue;
      const weightOf = engineWeights(engine, related);
      const side = { related, weightOf, form: remembering(withReading(markForm(p.text, weightOf), readAs, weightOf), pairs) };
      side.form.held = heldIn(engine, side.form, related);
      pairs = side.form.pairs;
      sides.set(c, side);
      for (const r of related) ofClass.set(r, side);
    }
    const primary = ofClass.get(p.classes[0])!;
    const day = p.filed === null ? Number.POSITIVE_INFINITY : Date.parse(p.filed) / 86_400_000;
    const candidates = new Map<string, Candidate>();
    const self = p.leaveOut?.application;
    // The nearest logos are asked for first: PostgreSQL walks its index while this process searches the words.
    // (Caught here too, so that a failure is not unhandled before it is awaited below.)
    const nearing = logo.then((l) => (l ? this.repo.nearest(l, LOGO_NEIGHBOURS + (self ? 1 : 0)) : []));
    nearing.catch(() => {});
    // Read from the engine before any await: it may change between turns of the event loop.
    const standing = (cls: number, status: string, later: boolean) =>
      standingFactor({ relation: closestClass(p.classes, cls).relation, live: !dead.has(status), later });
    const searched = [...sides.values()].map((side) => ({
      form: side.form,
      classes: side.related,
      weight: roughWeights(engine, side.related),
    }));
    for (const [a, row] of wordCandidates(engine, searched, { day, standing })) candidates.set(a, { row });
    const textClasses = searched.flatMap((side) => side.classes);

    // Logo candidates: the vectors nearest the proposal's logo, and logos whose words match its words. The word
    // candidates' logo similarities are asked for at once, beside the logo texts; the nearest logos come with theirs.
    const words = [...candidates.keys()];
    const similar = logo.then((l) => (l ? this.repo.similarities(l, words) : new Map<string, number>()));
    similar.catch(() => {});
    const texts = primary.form.words.length
      ? await logoTextHits(this.texts, engine, primary.form.normalised, textClasses)
      : new Map<string, string>();
    if (self) texts.delete(self);
    // Marks found by their logo's words may have no words of their own (device marks): read from SQL.
    const reading = Promise.all([nearing, similar, this.marks.summaries([...texts.keys()].filter((a) => !candidates.has(a)))]);
    reading.catch(() => {});
    // A register holds many marks of the same words (hundreds of SHREE SAI in a class group): each side
    // compares one text once. The word candidates' words are compared while those reads are under way.
    const compared = new Map<Side, Map<string, Compared>>();
    const memoOf = (side: Side) => {
      let memo = compared.get(side);
      if (!memo) compared.set(side, (memo = new Map()));
      return memo;
    };
    const sideOf = (c: Candidate) => ofClass.get(c.row.class_number) ?? primary;
    const leftOut = (a: string, c: Candidate) => p.leaveOut && (a === self || sameOwner(c.row.proprietor_name, p.leaveOut.owner));
    for (const [a, c] of candidates) {
      if (leftOut(a, c)) continue;
      const side = sideOf(c);
      wordsCompared(side.form, side.weightOf, c.row.word_mark, engine, memoOf(side));
    }
    const [near, visual, read] = await reading;
    for (const n of near) {
      if (n.application_number === self || candidates.has(n.application_number)) continue;
      candidates.set(n.application_number, { row: n });
      visual.set(n.application_number, n.similarity);
    }
    for (const r of read) if (!candidates.has(r.application_number)) candidates.set(r.application_number, { row: r });
    for (const [a, text] of texts) {
      const c = candidates.get(a);
      if (c) c.logoText = text;
    }

    if (p.goods?.size) await this.goodsAlike(p.classes, p.goods, candidates);

    const alike = modelThresholds((await logo)?.model ?? '');
    const findings: Finding[] = [];
    for (const [a, c] of candidates) {
      if (leftOut(a, c)) continue;
      const side = sideOf(c);
      const f = score(p, side.form, side.weightOf, engine, c, !dead.has(c.row.status), visual.get(a), alike, memoOf(side));
      if (f.score.overall >= PARAMS.thresholds.low) findings.push(f);
    }
    return findings.sort(
      (x, y) =>
        y.score.overall - x.score.overall ||
        x.row.application_number.length - y.row.application_number.length ||
        (x.row.application_number < y.row.application_number ? -1 : 1),
    );
  }

  /**
   * Given marks scored against the proposal one by one, as analyse() scores its candidates (a watch meets
   * the marks new in an import or a journal this way: src/watches/); those under Low are left out.
   * `cosines` holds the cosine of the proposal's logo with each mark's, where both have one.
   */
  async scoreMarks(p: Proposal, rows: CandidateRow[], cosines: ReadonlyMap<string, number>): Promise<Finding[]> {
    const dead = await this.deadStatuses();
    const engine = await this.index.ready();
    const sides = new Map<number, { form: MarkForm; weightOf: WeightOf }>();
    let pairs: PairMemo | undefined;
    const reading = this.reading(p.text, engine);
    const alike = modelThresholds(p.logo?.model ?? '');
    const out: Finding[] = [];
    for (const row of rows) {
      const related = relatedClasses(closestClass(p.classes, row.class_number).ours);
      let side = sides.get(related[0]);
      if (!side) {
        const weightOf = engineWeights(engine, related);
        sides.set(related[0], (side = { weightOf, form: remembering(withReading(markForm(p.text, weightOf), reading, weightOf), pairs) }));
        pairs = side.form.pairs;
      }
      const f = score(p, side.form, side.weightOf, engine, { row }, !dead.has(row.status), cosines.get(row.application_number), alike);
      if (f.score.overall >= PARAMS.thresholds.low) out.push(f);
    }
    return out;
  }

  /** Marks the class table calls unrelated that cover goods of the same words: related by their goods (c.goods). */
  private async goodsAlike(classes: number[], goods: ReadonlySet<string>, candidates: Map<string, Candidate>): Promise<void> {
    const apart = [...candidates]
      .filter(([, c]) => closestClass(classes, c.row.class_number).relation === 'unrelated')
      .slice(0, GOODS_READ);
    const texts = await this.marks.goodsOf(apart.map(([a]) => a));
    for (const [a, c] of apart) {
      const text = texts.get(a);
      const shared = text ? sharedGoods(goods, goodsWords(text)) : [];
      if (shared.length) c.goods = shared;
    }
  }

  /** The proposal read as the English words it spells, when it is written in an Indic script (src/threats/readings.ts). */
  private reading(text: string, engine: RegisterView) {
    return this.readEnglish ? readingOf(text, comparedWords(text), engine) : null;
  }

  private deadStatuses(): Promise<Set<string>> {
    this.dead ??= this.repo.deadStatuses().catch((err: unknown) => {
      this.dead = null;
      throw err;
    });
    return this.dead;
  }
}

/**
 * Logos whose words match the proposal's, by application number, with those words (as the text index holds them: nothing
 * is read from SQL for them). Searched as the word candidates are: in the classes the sides search (a logo's words weigh
 * as a word mark's), and a few in every class, where a mark scores 60 at most however alike. Of those few, only logos
 * that read other words than their mark's own (a device mark's, or a label's) are kept: a mark whose logo reads its own
 * words is the word search's to find there (its whole mark in every class), and a name held in many classes would
 * otherwise bring a few dozen more of them, each read from SQL and scored.
 */
async function logoTextHits(texts: LogoTextIndex, engine: SearchEngine, words: string, classes: number[]): Promise<Map<string, string>> {
  const [near, anyClass] = await Promise.all([texts.search(words, LOGO_NEIGHBOURS, classes), texts.search(words, CANDIDATES.anyClass)]);
  const out = new Map(near.hits.map((h) => [h.application_number, h.text]));
  for (const h of anyClass.hits) {
    if (out.has(h.application_number) || engine.text(Number(h.application_number)) === normaliseMark(h.text)) continue;
    out.set(h.application_number, h.text);
  }
  return out;
}

/** How many marks of the classes hold each word of the form (as read, when it is read as English), for the reasons. */
function heldIn(engine: RegisterView, form: MarkForm, classes: number[]): number[] {
  const mask = classMask(classes);
  return form.words.map((w, i) => engine.holders(form.readings?.[i]?.[0]?.text ?? w, mask));
}

/** A candidate's words compared with the proposal's (findings of the same words share it: it is only read). */
interface Compared {
  theirs: MarkForm;
  cmp: ReturnType<typeof compareMarks>;
  evidence: ReturnType<typeof noEvidence>;
}

/**
 * A mark's words compared with the proposal's, once per text when `memo` is given. A mark of the register written in
 * an Indic script is read as the English words it spells too, and its reasons name its words as written.
 */
function wordsCompared(form: MarkForm, weightOf: WeightOf, text: string, engine: RegisterView, memo?: Map<string, Compared>): Compared {
  let words = memo?.get(text);
  if (!words) {
    const bare = markForm(text, weightOf);
    const theirs = withReading(bare, readingOf(text, bare.words, engine), weightOf);
    const evidence = noEvidence();
    words = { theirs, evidence, cmp: compareMarks(form, theirs, evidence) };
    memo?.set(text, words);
  }
  return words;
}

function score(
  p: Pick<Proposal, 'classes' | 'filed'>,
  form: MarkForm,
  weightOf: WeightOf,
  engine: RegisterView,
  c: Candidate,
  live: boolean,
  cosine: number | undefined,
  thresholds: ReturnType<typeof modelThresholds>,
  memo?: Map<string, Compared>,
): Finding {
  const closest = closestClass(p.classes, c.row.class_number);
  const ours = closest.ours;
  const relation = closest.relation === 'unrelated' && c.goods ? 'related' : closest.relation;
  let { theirs, evidence, cmp } = wordsCompared(form, weightOf, c.row.word_mark, engine, memo);
  let inLogo = false;
  if (c.logoText) {
    // The words read in the other's logo: scored like a word mark, named `logo` when they beat its word mark. Most
    // logos read their mark's own words, or words other candidates hold: compared once per text, as word marks are.
    const read = wordsCompared(form, weightOf, logoText(c.logoText), engine, memo);
    if (Math.max(read.cmp.word, read.cmp.phonetic) > Math.max(cmp.word, cmp.phonetic)) {
      [cmp, theirs, evidence, inLogo] = [read.cmp, read.theirs, read.evidence, true];
    }
  }
  const visual = cosine === undefined ? null : visualScale(cosine, thresholds);
  const later = p.filed !== null && c.row.application_date > p.filed;
  const s = scorePair(cmp, visual, { relation, live, later });
  return {
    row: c.row,
    score: s,
    criterion: inLogo && s.criterion !== 'visual' ? 'logo' : s.criterion,
    facts: {
      ours: form,
      theirs,
      comparison: cmp,
      evidence,
      inLogo,
      cosine,
      alikeFrom: thresholds.low,
      relation,
      goods: c.goods,
      ourClass: ours,
      theirClass: c.row.class_number,
      live,
      status: c.row.status,
    },
  };
}
