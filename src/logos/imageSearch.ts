import type { ErrorCode } from '../errors.ts';
import type { MarkFilter } from '../trademarks/markFilter.ts';
import { hogIndexModel, projectHog } from './hogIndex.ts';
import type { FetchOptions } from './imageFetch.ts';
import { type Box, mergeScores } from './regionScores.ts';
import type { LogoRepository, Nearest } from './repository.ts';
import type { Likeness } from './schemas.ts';
import type { SidecarClient } from './sidecarClient.ts';

// One image searched: the API's single-image endpoints, and each job of the bulk ones (fanout.ts). The sidecar embeds
// the image and its candidate regions; PostgreSQL finds each one's nearest logos; a mark's scores are merged.

export type SearchAnswer =
  | {
      ok: true;
      model: string;
      /** The likeness that scored the hits: copy when concept was asked of a model that has no concept score. */
      likeness: Likeness;
      thresholds: { high: number; medium: number; low: number };
      hits: Nearest[];
    }
  /** `spent`: the search failed but used what it costs (an image URL that ran to its deadline), so it is charged. */
  | { ok: false; code: ErrorCode; error: string; spent?: true };

export interface ImageSearchDeps {
  sidecar: SidecarClient;
  repo: LogoRepository;
  fetch: FetchOptions;
  /** Where uploads are; a job naming a file anywhere else is refused. */
  uploadDir: string;
}

/**
 * Embeds one image and its candidate logo regions (src/logos/pixels/regions.ts: a clean logo has none) and finds
 * the nearest logos of each; a mark's similarity is the best of the whole image's and its crops' less
 * REGION_PENALTY (mergeScores). The single-image endpoints run it in the API process, the bulk jobs in the workers. `regions: false`
 * searches with the whole image alone, as before regions were looked for. `likeness: 'concept'` scores by
 * the model's concept score, searching its own candidates (LogoRepository.nearestConcept), with its own
 * thresholds; a model without one (the HOG fallback, a CLIP model) answers the copy search, and says so. `part`: the
 * box the user drew (`region`): only that part of the image is searched, as the image (its own regions within it).
 */
export async function nearestLogos(
  deps: ImageSearchDeps,
  bytes: Buffer,
  k: number,
  filter: MarkFilter | null = null,
  opts: { regions?: boolean; likeness?: Likeness; part?: Box } = {},
): Promise<SearchAnswer & { ok: true }> {
  const { model } = await deps.sidecar.models();
  const rr = model.rerank;
  const cs = opts.likeness === 'concept' ? model.concept : undefined;
  const hog = Boolean(rr || cs);
  // With regions, the whole image's query is under way while the sidecar embeds the regions.
  const parts = opts.regions === false ? null : deps.sidecar.embedInParts(bytes, hog, opts.part);
  const e = parts ? await parts.image : await deps.sidecar.embed(bytes, hog, false, opts.part);
  // The served model's own vectors with HOG's beside them: scored by the concept score when asked, else re-ranked.
  const withHog = e.model === model.model && Boolean(e.fallback_vector);
  const concept = cs && withHog ? cs : undefined;
  const reranked = Boolean(rr && withHog) && !concept;
  const near = (v: number[], hog: number[] | undefined) => {
    if (concept && hog)
      return deps.repo.nearestConcept(
        e.model,
        v,
        {
          model: concept.model,
          vector: hog,
          weight: concept.weight,
          candidates: concept.candidates,
          index: { model: hogIndexModel(concept.model), vector: projectHog(hog) },
        },
        k,
        filter,
      );
    const rerank = reranked && hog ? { model: rr!.model, vector: hog, weight: rr!.weight, candidates: rr!.candidates } : undefined;
    return deps.repo.nearest(e.model, v, k, rerank, filter);
  };
  const first = Promise.all([concept ? concept.thresholds : deps.sidecar.thresholds(e.model), near(e.vector, e.fallback_vector)]);
  // Awaited below: should the regions fail meanwhile, theirs is the failure reported.
  first.catch(() => undefined);
  const crops = parts ? await parts.regions : [];
  const [[thresholds, whole], found] = await Promise.all([first, Promise.all(crops.map((c) => near(c.vector, c.fallback_vector)))]);
  // A blended score is the blend's: the response names both models.
  const name = concept ? `${e.model}+${concept.model}` : reranked ? `${e.model}+${rr!.model}` : e.model;
  const likeness = concept ? 'concept' : 'copy';
  return { ok: true, model: name, likeness, thresholds, hits: found.length ? mergeHits(whole, found, k) : whole };
}

/** The k marks nearest over the whole image's hits and each crop's, each with its merged similarity (mergeScores). */
export function mergeHits(whole: Nearest[], crops: Nearest[][], k: number): Nearest[] {
  const byMark = new Map<string, { hit: Nearest; whole?: number; crops: number[] }>();
  for (const h of whole) byMark.set(h.application_number, { hit: h, whole: h.similarity, crops: [] });
  for (const hits of crops) {
    for (const h of hits) {
      const m = byMark.get(h.application_number);
      if (m) m.crops.push(h.similarity);
      else byMark.set(h.application_number, { hit: h, crops: [h.similarity] });
    }
  }
  return [...byMark.values()]
    .map((m) => ({ ...m.hit, similarity: mergeScores(m.whole, m.crops) }))
    .sort((a, b) => b.similarity - a.similarity || (a.application_number < b.application_number ? -1 : 1))
    .slice(0, k);
}
