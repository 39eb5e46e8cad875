// How a search over an upload's whole image and its candidate logo regions (src/logos/pixels/regions.ts, which the
// sidecar runs) is put together on the API side: how many regions at most, and a mark's one score from the whole
// image's and its regions'.

/** The most crops searched beside the whole image: at most 1 + MAX_REGIONS embeddings a search. */
export const MAX_REGIONS = 3;
/** A crop's similarity counts this much less than the whole image's when a mark's scores are merged. */
export const REGION_PENALTY = 0.02;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * A mark's score over the whole image and its crops: the best of the whole image's similarity and each
 * crop's less REGION_PENALTY, so a crop wins only where it is clearly nearer than the whole image.
 */
export function mergeScores(whole: number | undefined, regions: (number | undefined)[]): number {
  let best = whole ?? Number.NEGATIVE_INFINITY;
  for (const r of regions) if (r !== undefined && r - REGION_PENALTY > best) best = r - REGION_PENALTY;
  return best;
}
