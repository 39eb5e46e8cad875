import { resultOf } from '../clearance/results.ts';
import type { Finding } from '../threats/analysis.ts';

/** A mark that fires a watch, as a clearance lists it (scores and reasons) without the logo link. */
export function hitOf(f: Finding) {
  const { logo_url: _, ...hit } = resultOf(f, null);
  return hit;
}
