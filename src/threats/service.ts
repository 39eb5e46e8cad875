import { createHash } from 'node:crypto';
import { notFound } from '../errors.ts';
import type { LogoTextIndex } from '../logos/textIndex.ts';
import { logoText } from '../logos/textIndex.ts';
import type { SearchCache } from '../search/cache.ts';
import type { SearchIndex } from '../search/manager.ts';
import { classMask } from '../search/service.ts';
import type { RegisterView } from '../search/view.ts';
import type { SummaryRow, TrademarkRepository } from '../trademarks/repository.ts';
import { wordCandidates } from './candidates.ts';
import { type ClassRelation, classRelation, relatedClasses } from './classes.ts';
import { compareMarks, type MarkForm, markForm, type WeightOf } from './compare.ts';
import { descriptiveCap } from './descriptive.ts';
import { marksIn } from './holders.ts';
import { modelThresholds, preferredModels } from './models.ts';
import type { ThreatRepository } from './repository.ts';
import {
  type Criterion,
  PARAMS,
  type RiskLevel,
  round1,
  type ScoreParams,
  scorePair,
  standingFactor,
  visualScale,
  weightFor,
} from './score.ts';

// GET /v1/trademarks/{app_no}/threats/: which marks on the register could be confused with this
// one (docs/threats.md). Candidates come from the word-mark search index, the logo vectors (nearest
// logos) and the logos' words; each is scored, the mark itself and its proprietor's other marks
// left out, and the list kept per mark and data version in the search cache.

/** At most this many threats are kept per mark (best first); pages beyond them are empty. */
export const MAX_THREATS = 500;
/** Nearest logos and logo-text matches looked at. */
const LOGO_NEIGHBOURS = 50;
/** Bump when scoring changes: cached lists of an older scoring are then never read. */
const SCORING_VERSION = 4;

export interface Threat {
  threat_application_number: string;
  threat_word_mark: string;
  word_similarity_percentage: number;
  phonetic_similarity_percentage: number;
  visual_similarity_percentage: number;
  overall_similarity_score: number;
  risk_level: RiskLevel;
  matching_criteria: Criterion;
  threat_class_number: number;
  threat_status: string;
  class_relation: ClassRelation;
}

export interface ThreatQuery {
  risk_level?: RiskLevel;
  limit: number;
  offset: number;
}

interface Candidate {
  row: Pick<SummaryRow, 'application_number' | 'word_mark' | 'class_number' | 'status' | 'proprietor_name' | 'application_date'>;
  logoText?: string;
}

const sameOwner = (a: string, b: string) => {
  const x = a.trim().toUpperCase();
  return x !== '' && x === b.trim().toUpperCase();
};

export class ThreatService {
  private dead: Promise<Set<string>> | null = null;

  constructor(
    private readonly index: SearchIndex,
    private readonly marks: TrademarkRepository,
    private readonly repo: ThreatRepository,
    private readonly texts: LogoTextIndex,
    private readonly cache: SearchCache,
    private readonly logoModel: string,
  ) {}

  async threats(appNo: string, q: ThreatQuery) {
    const engine = await this.index.ready();
    const key = this.cache.key(engine.seq, createHash('sha256').update(`threats:${SCORING_VERSION}:${appNo}`).digest('base64url'));
    let all = await this.cache.get<Threat[]>(key);
    const fromCache = all !== null;
    if (!all) {
      all = await this.analyse(appNo);
      this.cache.set(key, all);
    }
    const kept = q.risk_level ? all.filter((t) => t.risk_level === q.risk_level) : all;
    return { application_number: appNo, count: kept.length, from_cache: fromCache, threats: kept.slice(q.offset, q.offset + q.limit) };
  }

  /** Every threat of the mark, best first (at most MAX_THREATS). */
  async analyse(appNo: string): Promise<Threat[]> {
    const [row] = await this.marks.summaries([appNo]);
    if (!row) throw notFound(`trademark ${appNo}`);
    const dead = await this.deadStatuses();
    const engine = await this.index.ready();
    const classes = relatedClasses(row.class_number);
    const weightOf = engineWeights(engine, classes);
    const form = markForm(row.word_mark, weightOf);
    const context = {
      day: Date.parse(row.application_date) / 86_400_000,
      weight: roughWeights(engine, classes),
      standing: (cls: number, status: string, later: boolean) =>
        standingFactor({ relation: classRelation(row.class_number, cls), live: !dead.has(status), later }),
    };
    // Read from the engine before any await: it may change between turns of the event loop.
    const found = wordCandidates(engine, form, classes, context);
    const candidates = new Map<string, Candidate>([...found].map(([a, r]) => [a, { row: r }]));

    const [own, textHits] = await Promise.all([
      this.repo.ownVector(appNo, preferredModels(this.logoModel)),
      form.words.length ? this.texts.search(form.normalised, LOGO_NEIGHBOURS).then((r) => r.hits) : Promise.resolve([]),
    ]);

    // Logo candidates: nearest vectors to the mark's own logo, and logos whose words match the mark.
    let visual = new Map<string, number>();
    let thresholds = modelThresholds('');
    if (own) {
      thresholds = modelThresholds(own.model);
      const near = await this.repo.nearest(appNo, own.model, own.dims, LOGO_NEIGHBOURS);
      for (const n of near) if (!candidates.has(n.application_number)) candidates.set(n.application_number, { row: n });
      visual = await this.repo.similarities(appNo, own.model, own.dims, [...candidates.keys()]);
    }
    const textApps = textHits.map((h) => h.application_number).filter((a) => a !== appNo);
    // Marks found by their logo's words may have no words of their own (device marks): read from SQL.
    const [texts, extra] = await Promise.all([
      this.repo.logoTexts(textApps),
      this.marks.summaries(textApps.filter((a) => !candidates.has(a))),
    ]);
    for (const r of extra) candidates.set(r.application_number, { row: r });
    for (const a of textApps) {
      const c = candidates.get(a);
      if (c) c.logoText = texts.get(a);
    }

    const threats: Threat[] = [];
    for (const [a, c] of candidates) {
      if (a === appNo || sameOwner(c.row.proprietor_name, row.proprietor_name)) continue;
      const t = this.score(form, c, row, !dead.has(c.row.status), visual.get(a), thresholds, weightOf);
      if (t.overall_similarity_score >= PARAMS.thresholds.low) threats.push(t);
    }
    threats.sort(
      (x, y) =>
        y.overall_similarity_score - x.overall_similarity_score ||
        x.threat_application_number.length - y.threat_application_number.length ||
        (x.threat_application_number < y.threat_application_number ? -1 : 1),
    );
    return threats.slice(0, MAX_THREATS);
  }

  private score(
    form: MarkForm,
    c: Candidate,
    mark: SummaryRow,
    live: boolean,
    cosine: number | undefined,
    thresholds: ReturnType<typeof modelThresholds>,
    weightOf: WeightOf,
  ): Threat {
    const relation = classRelation(mark.class_number, c.row.class_number);
    let cmp = compareMarks(form, markForm(c.row.word_mark, weightOf));
    let inLogo = false;
    if (c.logoText) {
      // The mark's words read in the other's logo: scored like a word mark, named `logo` when it beats the word mark.
      const byLogo = compareMarks(form, markForm(logoText(c.logoText), weightOf));
      if (Math.max(byLogo.word, byLogo.phonetic) > Math.max(cmp.word, cmp.phonetic)) {
        cmp = byLogo;
        inLogo = true;
      }
    }
    const visual = cosine === undefined ? null : visualScale(cosine, thresholds);
    const s = scorePair(cmp, visual, { relation, live, later: c.row.application_date > mark.application_date });
    const criterion: Criterion = inLogo && s.criterion !== 'visual' ? 'logo' : s.criterion;
    return {
      threat_application_number: c.row.application_number,
      threat_word_mark: c.row.word_mark,
      word_similarity_percentage: s.word,
      phonetic_similarity_percentage: s.phonetic,
      visual_similarity_percentage: cosine === undefined ? 0 : round1(100 * Math.max(0, cosine)),
      overall_similarity_score: s.overall,
      risk_level: s.risk,
      matching_criteria: criterion,
      threat_class_number: c.row.class_number,
      threat_status: c.row.status,
      class_relation: relation,
    };
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
 * Word weights from the register the engine holds, counted in the given classes (the mark's own and
 * cognate ones): a word many marks of that trade hold (ATTA, RICE in food) weighs little there, and
 * so does a word that describes that trade's goods or services (src/threats/descriptive.ts) however few
 * marks hold it. Memoised for one analysis.
 */
export function engineWeights(engine: RegisterView, classes: number[] | null, p: ScoreParams = PARAMS): WeightOf {
  const mask = classes ? classMask(classes) : null;
  const marks = marksIn(engine, mask);
  const cap = descriptiveCap(classes);
  const memo = new Map<string, number>();
  return (w) => {
    let x = memo.get(w);
    if (x === undefined) {
      x = cap(w, weightFor(w, engine.holders(w, mask), marks, p));
      memo.set(w, x);
    }
    return x;
  };
}

/**
 * A word's weight from its holders in every class, capped for the trade's descriptive words: cheap
 * enough to weigh every word of ten thousand holders of a word, close enough to rank them.
 */
function roughWeights(engine: RegisterView, classes: number[]): (word: string, holders: number) => number {
  const marks = marksIn(engine, null);
  const cap = descriptiveCap(classes);
  return (w, holders) => cap(w, weightFor(w, holders, marks));
}
