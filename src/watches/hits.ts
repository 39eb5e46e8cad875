import { resultOf } from '../clearance/results.ts';
import type { Finding } from '../threats/analysis.ts';
import type { MarkRow } from './repository.ts';

/** A mark that fires a watch, as a clearance lists it (scores and reasons) without the logo link. */
export function hitOf(f: Finding) {
  const { logo_url: _, ...hit } = resultOf(f, null);
  return { ...hit, match: 'similar' as const };
}

/** A filing by the owner an owner watch follows: no likeness is scored, the reason names the owner. */
export function ownerHitOf(row: MarkRow, ownerName: string) {
  return {
    application_number: row.application_number,
    word_mark: row.word_mark,
    class_number: row.class_number,
    status: row.status,
    application_date: row.application_date,
    proprietor_name: row.proprietor_name,
    goods_services: null as string | null,
    risk_level: null,
    overall_similarity_score: 0,
    word_similarity_percentage: 0,
    phonetic_similarity_percentage: 0,
    visual_similarity_percentage: 0,
    matching_criteria: null,
    reasons: [`filed by ${ownerName}, the owner this watch follows`],
    match: 'owner' as const,
  };
}
