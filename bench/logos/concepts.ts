import { conceptIcons, HELD_OUT_SETS, renderSetIcon, type SetIcon } from '../../models/train/conceptSet.ts';
import { readManifest, type Thresholds } from '../../src/logos/models.ts';
import { LogoImage } from '../../src/logos/pixels/embedders.ts';
import { decodeLogo } from '../../src/logos/pixels/image.ts';
import { loadModels, type Metrics, score, summarise } from './quality.ts';

// Conceptual likeness (issue 22, item 2): a query icon of a held-out concept drawn by one set, asked for
// among the icons of held-out concepts and >= 20,000 distractor logos (models/train/conceptSet.ts: npm
// set icons no model learnt from, none named with a held-out concept's words); the relevant ones are the
// same concept drawn by the other sets. The query and its own set's drawings of the concept are left out of
// its ranking (they count neither way: same-set likeness is copy-like). Every model is given the same
// images: each icon drawn on white at 128 px, as an upload of it would be.
//
// The concept score (the API's likeness=concept, docs/logos.md) blends the served CNN with HOG. Its HOG
// weight is chosen on the validation concepts (conceptSet.ts's split, fixed before any tuning: 10 concepts,
// none of the 20 test ones), each asked for among the validation icons and the same distractors; the test
// concepts then report the chosen weight beside HOG alone, each CNN and the served (copy) blend. The API's
// candidate rule, the nearest `candidates` × k under the CNN and under HOG re-scored by the blend, is
// measured beside the exhaustive blend, and the concept score's thresholds come from validation queries
// against the distractors (unrelated pairs), as the copy thresholds do.

export interface ConceptReport {
  concepts: number;
  valConcepts: number;
  queries: number;
  valQueries: number;
  gallery: number;
  distractors: number;
  heldOutSets: readonly string[];
  models: string[];
  /** model -> 'all', each query set, and 'from held-out sets' -> metrics (test concepts). */
  recall: Record<string, Record<string, Metrics>>;
  /** The concept blend: CNN -> HOG weight -> metrics on validation and (shown, not used to choose) test concepts. */
  sweep: Record<string, Record<string, { val: Metrics; test: Metrics }>>;
  /** The HOG weight chosen per CNN on validation concepts (best recall@10, ties by mAP, then the smaller weight). */
  chosen: Record<string, number>;
  /** The served CNN's concept score: weight, its thresholds, the candidate rule's recall beside the exhaustive one. */
  concept: {
    cnn: string;
    hog: string;
    weight: number;
    thresholds: Thresholds & { positivesAbove: Thresholds };
    /** The candidate pool chosen on validation (the smallest losing no recall@10 there), in multiples of k. */
    pool: number;
    candidates: Record<string, { val: Metrics; test: Metrics }>;
  };
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

/** The weights tried on validation concepts. */
export const CONCEPT_WEIGHTS = Array.from({ length: 21 }, (_, i) => Math.round(i * 5) / 100);
/** Candidate pools tried for the API's rule (nearest `c` × 10 under each score, for the top 10). */
const POOLS = [1, 2, 4, 8];

export async function evaluateConcepts(
  log: (s: string) => void,
  opts: { distractors?: number; hogWeights?: number[] } = {},
): Promise<ConceptReport> {
  const all = conceptIcons();
  const test = all.filter((i) => i.role === 'test');
  const val = all.filter((i) => i.role === 'val');
  let distractors = all.filter((i) => i.role === 'distractor');
  if (opts.distractors) distractors = distractors.filter((_, k) => k % Math.ceil(distractors.length / opts.distractors!) === 0);
  // Test queries rank test icons and distractors (as before validation was added); validation queries rank
  // validation icons and the same distractors.
  const drawn: SetIcon[] = [...test, ...val, ...distractors];
  const manifest = readManifest();
  const models = await loadModels(manifest.models, log);
  const names = models.map((m) => m.name);
  log(
    `concepts: ${test.length} test and ${val.length} validation concept icons, ${distractors.length} distractors; ` +
      `models ${names.join(', ')}`,
  );

  const vectors: Record<string, Float32Array[]> = Object.fromEntries(names.map((n) => [n, []]));
  const t0 = performance.now();
  for (let i = 0; i < drawn.length; i += 16) {
    // Drawn 16 at a time (sharp works off the main thread), embedded in order.
    const pngs = await Promise.all(drawn.slice(i, i + 16).map((ic) => renderSetIcon(ic, 128)));
    for (const png of pngs) {
      const img = new LogoImage(png, await decodeLogo(png));
      for (const m of models) vectors[m.name].push(await m.embed(img));
    }
    if ((i / 16) % 250 === 0) log(`${i}/${drawn.length} drawn and embedded (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }

  // Index sets: a split's own concept icons first, then the distractors.
  const distIdx = distractors.map((_, k) => test.length + val.length + k);
  const splits = {
    test: { icons: test, idx: [...test.keys(), ...distIdx] },
    val: { icons: val, idx: [...val.map((_, k) => test.length + k), ...distIdx] },
  };
  // Similarities of each query to its split's gallery, per model, computed once.
  const simsOf = (split: 'test' | 'val') => {
    const { icons, idx } = splits[split];
    const out: Record<string, Float32Array[]> = {};
    for (const n of names) {
      const g = vectors[n];
      out[n] = icons.map((_, q) => {
        const qv = g[idx[q]];
        const s = new Float32Array(idx.length);
        for (let j = 0; j < idx.length; j++) s[j] = dot(g[idx[j]], qv);
        return s;
      });
    }
    return out;
  };
  const sims = { test: simsOf('test'), val: simsOf('val') };
  log('similarities computed');

  type Blend = [string, number][];
  const blended = (split: 'test' | 'val', q: number, blend: Blend) => {
    const s = new Float32Array(sims[split][blend[0][0]][q].length);
    for (const [model, w] of blend) {
      if (!w) continue;
      const m = sims[split][model][q];
      for (let j = 0; j < s.length; j++) s[j] += w * m[j];
    }
    return s;
  };
  /** Metrics of a blend over a split's queries; `narrow` may leave out gallery items (the candidate rule). */
  const evaluate = (split: 'test' | 'val', blend: Blend, narrow?: (q: number, s: Float32Array) => void) => {
    const icons = splits[split].icons;
    const rows: Record<string, ReturnType<typeof score>[]> = { all: [] };
    for (let q = 0; q < icons.length; q++) {
      const s = blended(split, q, blend);
      const rel = new Set<number>();
      for (let j = 0; j < icons.length; j++) {
        if (icons[j].concept !== icons[q].concept) continue;
        if (icons[j].set === icons[q].set) s[j] = Number.NEGATIVE_INFINITY;
        else rel.add(j);
      }
      if (!rel.size) continue;
      narrow?.(q, s);
      const r = score(s, rel);
      rows.all.push(r);
      (rows[`from ${icons[q].set}`] ??= []).push(r);
      if ((HELD_OUT_SETS as readonly string[]).includes(icons[q].set)) (rows['from held-out sets'] ??= []).push(r);
    }
    return Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, summarise(v)]));
  };

  const def = manifest.models.find((m) => m.name === manifest.default);
  const hog = manifest.fallback;
  const cnns = manifest.models.filter((m) => m.kind === 'onnx' && names.includes(m.name)).map((m) => m.name);
  const mix = (cnn: string, w: number): Blend => [
    [cnn, 1 - w],
    [hog, w],
  ];

  // The concept blend's weight, per CNN, on validation concepts only.
  const sweep: ConceptReport['sweep'] = {};
  const chosen: Record<string, number> = {};
  if (names.includes(hog)) {
    for (const cnn of cnns) {
      sweep[cnn] = {};
      let best = { w: 0, r10: -1, map: -1 };
      for (const w of CONCEPT_WEIGHTS) {
        const v = evaluate('val', mix(cnn, w)).all;
        sweep[cnn][w.toFixed(2)] = { val: v, test: evaluate('test', mix(cnn, w)).all };
        if (v.r10 > best.r10 || (v.r10 === best.r10 && v.map > best.map)) best = { w, r10: v.r10, map: v.map };
      }
      chosen[cnn] = best.w;
      log(`${cnn}: HOG weight ${best.w} chosen on validation concepts (recall@10 ${best.r10.toFixed(3)}, mAP ${best.map.toFixed(3)})`);
    }
  }

  // Test concepts: each model alone, the served copy blend, each CNN's chosen concept blend, and any weight asked for.
  const blends: [string, Blend][] = names.map((n) => [n, [[n, 1]]]);
  if (def?.rerank && names.includes(def.rerank.model))
    blends.push([`${def.name}+${hog}@${def.rerank.weight} (served, copies)`, mix(def.name, def.rerank.weight)]);
  for (const cnn of cnns)
    if (cnn in chosen) blends.push([`${cnn}+${hog}@${chosen[cnn]} (concept, chosen on validation)`, mix(cnn, chosen[cnn])]);
  for (const w of opts.hogWeights ?? []) for (const cnn of cnns) if (names.includes(hog)) blends.push([`${cnn}+${hog}@${w}`, mix(cnn, w)]);
  const recall: ConceptReport['recall'] = {};
  for (const [n, blend] of blends) recall[n] = evaluate('test', blend);

  // The API's rule for the served CNN: only the nearest c × 10 under the CNN and under HOG are candidates
  // (exact nearest here; the API's come from HNSW indexes), re-scored by the blend.
  const cnn = def && cnns.includes(def.name) ? def.name : cnns[0];
  const weight = chosen[cnn] ?? 0;
  const top: Record<string, Map<string, number[]>> = { test: new Map(), val: new Map() };
  const topIdx = (split: 'test' | 'val', model: string, q: number, n: number) => {
    const key = `${model}:${q}`;
    let t = top[split].get(key);
    if (!t) {
      const s = sims[split][model][q];
      t = Array.from(s.keys())
        .sort((a, b) => s[b] - s[a])
        .slice(0, Math.max(...POOLS) * 10);
      top[split].set(key, t);
    }
    return t.slice(0, n);
  };
  const candidates: ConceptReport['concept']['candidates'] = {};
  let pool = POOLS[POOLS.length - 1];
  if (cnn && names.includes(hog)) {
    const exhaustive = { val: evaluate('val', mix(cnn, weight)).all, test: evaluate('test', mix(cnn, weight)).all };
    candidates.exhaustive = exhaustive;
    for (const c of [...POOLS].reverse()) {
      const rule = (split: 'test' | 'val') =>
        evaluate(split, mix(cnn, weight), (q, s) => {
          const keep = new Set([...topIdx(split, cnn, q, c * 10), ...topIdx(split, hog, q, c * 10)]);
          // Left out: below every candidate, concept icons (the possibly relevant) behind the distractors, so
          // that the mAP is a lower bound (ties would otherwise keep gallery order, concept icons first).
          const icons = splits[split].icons.length;
          for (let j = 0; j < s.length; j++) if (!keep.has(j) && s[j] !== Number.NEGATIVE_INFINITY) s[j] = j < icons ? -11 : -10;
        }).all;
      const r = { val: rule('val'), test: rule('test') };
      candidates[`nearest ${c} x 10 under each`] = r;
      // The smallest pool that loses no validation recall@10 against the exhaustive blend.
      if (r.val.r10 >= exhaustive.val.r10) pool = c;
    }
  }

  // Thresholds of the concept score: what 1 in 10,000 / 1,000 / 100 unrelated pairs (validation queries against
  // the distractors) reach; with the share of same-concept pairs from other sets above each.
  const pos: number[] = [];
  const neg: number[] = [];
  if (cnn && names.includes(hog)) {
    for (let q = 0; q < val.length; q++) {
      const s = blended('val', q, mix(cnn, weight));
      for (let j = 0; j < s.length; j++) {
        if (j >= val.length) neg.push(s[j]);
        else if (val[j].concept === val[q].concept && val[j].set !== val[q].set) pos.push(s[j]);
      }
    }
  }
  const negs = Float32Array.from(neg).sort();
  const quantile = (x: number) => negs[Math.min(negs.length - 1, Math.floor(x * negs.length))] ?? 0;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const t = { high: round(quantile(0.9999)), medium: round(quantile(0.999)), low: round(quantile(0.99)) };
  const above = (x: number) => round(pos.filter((p) => p >= x).length / Math.max(1, pos.length));

  return {
    concepts: new Set(test.map((i) => i.concept)).size,
    valConcepts: new Set(val.map((i) => i.concept)).size,
    queries: recall[names[0]]?.all.n ?? 0,
    valQueries: cnn && sweep[cnn] ? sweep[cnn]['0.00'].val.n : 0,
    gallery: splits.test.idx.length,
    distractors: distractors.length,
    heldOutSets: HELD_OUT_SETS,
    models: blends.map((b) => b[0]),
    recall,
    sweep,
    chosen,
    concept: {
      cnn,
      hog,
      weight,
      pool,
      thresholds: { ...t, positivesAbove: { high: above(t.high), medium: above(t.medium), low: above(t.low) } },
      candidates,
    },
  };
}
