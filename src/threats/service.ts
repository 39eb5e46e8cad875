import { createHash } from 'node:crypto';
import { notFound } from '../errors.ts';
import type { SearchCache } from '../search/cache.ts';
import type { SearchIndex } from '../search/manager.ts';
import type { TrademarkRepository } from '../trademarks/repository.ts';
import { type Analyser, type Finding, MAX_FINDINGS } from './analysis.ts';
import type { ClassRelation } from './classes.ts';
import { preferredModels } from './models.ts';
import type { ThreatRepository } from './repository.ts';
import { type Criterion, type RiskLevel, round1 } from './score.ts';

// GET /v1/trademarks/{app_no}/threats/: which marks on the register could be confused with this
// one (docs/threats.md). The analysis of a proposal (src/threats/analysis.ts) of the mark's own words,
// logo vector and class, less the mark itself and its proprietor's other marks; the list kept per mark
// and data version in the search cache.

/** At most this many threats are kept per mark (best first); pages beyond them are empty. */
export const MAX_THREATS = MAX_FINDINGS;
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

/** The cosine of two logos as a percentage; 0 when either has none (no visual evidence). */
export const visualPercentage = (cosine: number | undefined) => (cosine === undefined ? 0 : round1(100 * Math.max(0, cosine)));

export class ThreatService {
  constructor(
    private readonly index: SearchIndex,
    private readonly analyser: Analyser,
    private readonly marks: TrademarkRepository,
    private readonly repo: ThreatRepository,
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
    const [[row], logo] = await Promise.all([this.marks.summaries([appNo]), this.repo.vectorOf(appNo, preferredModels(this.logoModel))]);
    if (!row) throw notFound(`trademark ${appNo}`);
    const found = await this.analyser.analyse({
      text: row.word_mark,
      classes: [row.class_number],
      logo,
      filed: row.application_date,
      leaveOut: { application: appNo, owner: row.proprietor_name },
    });
    return found.slice(0, MAX_THREATS).map(threatOf);
  }
}

function threatOf(f: Finding): Threat {
  return {
    threat_application_number: f.row.application_number,
    threat_word_mark: f.row.word_mark,
    word_similarity_percentage: f.score.word,
    phonetic_similarity_percentage: f.score.phonetic,
    visual_similarity_percentage: visualPercentage(f.facts.cosine),
    overall_similarity_score: f.score.overall,
    risk_level: f.score.risk,
    matching_criteria: f.criterion,
    threat_class_number: f.row.class_number,
    threat_status: f.row.status,
    class_relation: f.facts.relation,
  };
}
