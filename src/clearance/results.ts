import { groupOf, type StatusGroup } from '../search/statusGroups.ts';
import type { Finding } from '../threats/analysis.ts';
import { reasonsOf } from '../threats/reasons.ts';
import type { RiskLevel } from '../threats/score.ts';
import { visualPercentage } from '../threats/service.ts';
import type { GoodsClass } from './goods.ts';
import type { LogoSource } from './logo.ts';
import type { Registrability } from './registrability.ts';
import type { ClearanceInput } from './schemas.ts';

// From the analysis's findings to what a clearance lists: the marks of the status groups and risk
// levels asked for, their counts by risk level and by class, and each result with its reasons.

const RANK: Record<RiskLevel, number> = { Low: 0, Medium: 1, High: 2 };

/**
 * The findings of marks in the status groups given, at or above the risk level. A status of no group
 * (not in the reference list) is in none, as in search's status filter (src/search/statusGroups.ts).
 */
export function kept(findings: Finding[], status: StatusGroup[], min: RiskLevel | undefined): Finding[] {
  const groups = new Set(status);
  const floor = min ? RANK[min] : 0;
  return findings.filter((f) => {
    const g = groupOf(f.row.status);
    return g !== undefined && groups.has(g) && RANK[f.score.risk] >= floor;
  });
}

/** Counts by risk level, and by class (ascending, the classes with any). */
export function groupsOf(findings: Finding[]) {
  const risk_level = { High: 0, Medium: 0, Low: 0 };
  const byClass = new Map<number, number>();
  for (const f of findings) {
    risk_level[f.score.risk]++;
    byClass.set(f.row.class_number, (byClass.get(f.row.class_number) ?? 0) + 1);
  }
  const class_number = [...byClass].sort((a, b) => a[0] - b[0]).map(([c, count]) => ({ class_number: c, count }));
  return { risk_level, class_number };
}

export function resultOf<L>(f: Finding, logo: L | null) {
  return {
    application_number: f.row.application_number,
    word_mark: f.row.word_mark,
    class_number: f.row.class_number,
    status: f.row.status,
    application_date: f.row.application_date,
    proprietor_name: f.row.proprietor_name,
    // Read for the page listed (ClearanceService.covering): a clearance keeps up to 500 conflicts.
    goods_services: null as string | null,
    logo_url: logo,
    risk_level: f.score.risk,
    overall_similarity_score: f.score.overall,
    word_similarity_percentage: f.score.word,
    phonetic_similarity_percentage: f.score.phonetic,
    visual_similarity_percentage: visualPercentage(f.facts.cosine),
    matching_criteria: f.criterion,
    reasons: reasonsOf(f.facts),
  };
}

/** The results from offset, at most limit of them, of an answer that holds every conflict found (the query says which page). */
export const pageOf = (s: Screened, offset: number, limit: number): Screened => ({
  ...s,
  classes_from_goods: s.classes_from_goods ?? null,
  registrability: s.registrability ?? null,
  overall_risk: s.overall_risk ?? null,
  query: { ...s.query, goods_services: s.query.goods_services ?? null, offset, limit },
  results: s.results.slice(offset, offset + limit),
});

/** A clearance's answer with each listed mark's logo as its object key. */
export interface Screened {
  query: {
    word_mark: string | null;
    /** Absent in clearances kept from before goods were given (pageOf fills null). */
    goods_services: string | null;
    logo: { source: LogoSource['kind']; model: string } | null;
    risk_level: NonNullable<ClearanceInput['risk_level']> | null;
    status: ClearanceInput['status'];
    limit: number;
    offset: number;
  };
  classes: number[];
  /** Absent in clearances kept from before goods were placed (pageOf fills null). */
  classes_from_goods: GoodsClass[] | null;
  /** Null in clearances kept from before registrability was judged (pageOf fills it in for those). */
  registrability: Registrability | null;
  overall_risk: 'High' | 'Medium' | 'Low' | null;
  count: number;
  groups: ReturnType<typeof groupsOf>;
  results: ReturnType<typeof resultOf<string | null>>[];
}
