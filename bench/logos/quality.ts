import { type Icon, loadIcons, renderIcon, type Split } from '../../models/train/iconSet.ts';
import { findClip, MODELS_DIR, type ModelSpec, readManifest, type Thresholds } from '../../src/logos/models.ts';
import { type Embedder, LogoImage, loadEmbedder } from '../../src/logos/pixels/embedders.ts';
import { decodeLogo } from '../../src/logos/pixels/image.ts';
import { PERTURBATIONS, type Perturbation, perturb } from './perturb.ts';

// Retrieval quality of every image model on the simple-icons logos: the whole set (~3,470 icons) is
// the gallery, each held-out icon is asked for with every perturbation, and a query is answered
// when an icon of its identity is among the nearest. Validation icons choose the settings (the
// re-ranking weight, the similarity thresholds); test icons report.

export interface Metrics {
  n: number;
  r1: number;
  r10: number;
  map: number;
}

export interface QualityReport {
  gallery: number;
  queries: Record<Split, number>;
  models: string[];
  /** model -> perturbation (and 'all') -> metrics, on test icons. */
  test: Record<string, Record<string, Metrics>>;
  rerank: { weight: number; chosenOn: 'val'; val: Record<string, Metrics> };
  thresholds: Record<string, Thresholds & { positivesAbove: Thresholds }>;
  embedMs: Record<string, number>;
  decodeMs: number;
}

type Vectors = Float32Array[];

async function embedAll(models: Embedder[], images: LogoImage[]): Promise<Record<string, Vectors>> {
  const out: Record<string, Vectors> = {};
  for (const m of models) {
    out[m.name] = [];
    for (const img of images) out[m.name].push(await m.embed(img));
  }
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

// Similarities of a query to the whole gallery under one model, computed once per query and model.
const simCache = new WeakMap<Float32Array, Float32Array>();

function modelSims(g: Vectors, q: Float32Array): Float32Array {
  let s = simCache.get(q);
  if (!s) {
    s = new Float32Array(g.length);
    for (let i = 0; i < g.length; i++) s[i] = dot(g[i], q);
    simCache.set(q, s);
  }
  return s;
}

/** Similarities of one query to the whole gallery, for a model or a weighted blend of two. */
function sims(gallery: Record<string, Vectors>, query: Record<string, Float32Array>, blend: [string, number][]): Float32Array {
  if (blend.length === 1) return modelSims(gallery[blend[0][0]], query[blend[0][0]]);
  const n = gallery[blend[0][0]].length;
  const out = new Float32Array(n);
  for (const [name, w] of blend) {
    const s = modelSims(gallery[name], query[name]);
    for (let i = 0; i < n; i++) out[i] += w * s[i];
  }
  return out;
}

/** Rank-based metrics of one query whose relevant gallery items are `relevant`. */
/** The models of `specs` that load; each that does not is logged and left out of the run. */
export async function loadModels(specs: readonly ModelSpec[], log: (s: string) => void): Promise<Embedder[]> {
  const models: Embedder[] = [];
  for (const s of specs) {
    try {
      models.push(await loadEmbedder(s, MODELS_DIR));
    } catch (err) {
      log(`model ${s.name} not evaluated: ${(err as Error).message}`);
    }
  }
  return models;
}

export function score(s: Float32Array, relevant: Set<number>): { r1: number; r10: number; ap: number } {
  const order = Array.from(s.keys()).sort((a, b) => s[b] - s[a]);
  let hits = 0;
  let ap = 0;
  let first = -1;
  for (let k = 0; k < order.length && hits < relevant.size; k++) {
    if (relevant.has(order[k])) {
      hits++;
      ap += hits / (k + 1);
      if (first < 0) first = k;
    }
  }
  return { r1: first === 0 ? 1 : 0, r10: first >= 0 && first < 10 ? 1 : 0, ap: ap / relevant.size };
}

export function summarise(rows: { r1: number; r10: number; ap: number }[]): Metrics {
  const n = rows.length;
  const sum = (k: 'r1' | 'r10' | 'ap') => rows.reduce((s, r) => s + r[k], 0) / Math.max(1, n);
  return { n, r1: sum('r1'), r10: sum('r10'), map: sum('ap') };
}

function quantile(sorted: Float32Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * sorted.length)))];
}

export async function evaluateQuality(log: (s: string) => void, opts: { limit?: number } = {}): Promise<QualityReport> {
  const icons = await loadIcons();
  const manifest = readManifest();
  const specs = manifest.models.map((m) => m);
  const clip = findClip();
  if (clip) specs.unshift(clip);
  const models = await loadModels(specs, log);
  const names = models.map((m) => m.name);
  log(`models: ${names.join(', ')}`);

  const t0 = performance.now();
  const galleryImages: LogoImage[] = [];
  for (const icon of icons) {
    const png = await renderIcon(icon, 128);
    galleryImages.push(new LogoImage(png, await decodeLogo(png)));
  }
  const gallery = await embedAll(models, galleryImages);
  log(`gallery: ${icons.length} icons embedded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const groupMembers = new Map<string, Set<number>>();
  icons.forEach((ic, i) => {
    if (!groupMembers.has(ic.group)) groupMembers.set(ic.group, new Set());
    groupMembers.get(ic.group)!.add(i);
  });

  // Queries: every validation and test icon under every perturbation, embedded by every model.
  const queries: { split: Split; icon: number; kind: Perturbation; v: Record<string, Float32Array> }[] = [];
  const timing: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const decodeTimes: number[] = [];
  const picked = icons.map((ic, i) => ({ ic, i })).filter(({ ic }) => ic.split !== 'train');
  const use = opts.limit ? picked.filter((_, k) => k % Math.ceil(picked.length / opts.limit!) === 0) : picked;
  for (const { ic, i } of use) {
    for (const kind of PERTURBATIONS) {
      const bytes = await perturb(ic as Icon, kind);
      const v: Record<string, Float32Array> = {};
      for (const m of models) {
        // Timed as the sidecar works: decode and normalise included, one image at a time.
        const s = performance.now();
        const img = new LogoImage(bytes, await decodeLogo(bytes));
        const d = performance.now();
        v[m.name] = await m.embed(img);
        const e = performance.now();
        timing[m.name].push(e - s);
        if (m === models[0]) decodeTimes.push(d - s);
      }
      queries.push({ split: ic.split, icon: i, kind, v });
    }
  }
  log(`queries: ${queries.length} embedded`);

  const evalSplit = (split: Split, blend: [string, number][]) => {
    const by: Record<string, { r1: number; r10: number; ap: number }[]> = { all: [] };
    for (const q of queries) {
      if (q.split !== split) continue;
      const r = score(sims(gallery, q.v, blend), groupMembers.get(icons[q.icon].group)!);
      (by[q.kind] ??= []).push(r);
      by.all.push(r);
    }
    return Object.fromEntries(Object.entries(by).map(([k, rows]) => [k, summarise(rows)]));
  };

  const test: QualityReport['test'] = {};
  for (const n of names) test[n] = evalSplit('test', [[n, 1]]);

  // Re-ranking: the trained model blended with HOG, the weight chosen on validation icons.
  const primary = manifest.default;
  const fallback = manifest.fallback;
  let weight = 0;
  const val: Record<string, Metrics> = {};
  if (names.includes(primary) && names.includes(fallback)) {
    let best = { w: 0, r1: -1, r10: -1 };
    for (const w of [0, 0.1, 0.2, 0.3, 0.4, 0.5]) {
      const m = evalSplit('val', [
        [primary, 1 - w],
        [fallback, w],
      ]).all;
      val[`w=${w}`] = m;
      if (m.r1 > best.r1 || (m.r1 === best.r1 && m.r10 > best.r10)) best = { w, r1: m.r1, r10: m.r10 };
    }
    weight = best.w;
    if (weight > 0)
      test[`${primary}+${fallback}@${weight}`] = evalSplit('test', [
        [primary, 1 - weight],
        [fallback, weight],
      ]);
  }

  // Thresholds per model from validation: the similarity that only 1 in 100 (low), 1 in 1,000 (medium) and 1 in
  // 10,000 (high) unrelated pairs reach; with the share of true matches (the icon's own identity) above each.
  const thresholds: QualityReport['thresholds'] = {};
  const scored: [string, [string, number][]][] = names.map((n) => [n, [[n, 1]]]);
  if (weight > 0)
    scored.push([
      `${primary}+${fallback}@${weight}`,
      [
        [primary, 1 - weight],
        [fallback, weight],
      ],
    ]);
  for (const [n, blend] of scored) {
    const pos: number[] = [];
    const neg: number[] = [];
    for (const q of queries) {
      if (q.split !== 'val') continue;
      const s = sims(gallery, q.v, blend);
      const rel = groupMembers.get(icons[q.icon].group)!;
      for (let i = 0; i < s.length; i++) (rel.has(i) ? pos : neg).push(s[i]);
    }
    const negs = Float32Array.from(neg).sort();
    const t = { low: quantile(negs, 0.99), medium: quantile(negs, 0.999), high: quantile(negs, 0.9999) };
    const round = (x: number) => Math.round(x * 1000) / 1000;
    const above = (x: number) => round(pos.filter((p) => p >= x).length / Math.max(1, pos.length));
    thresholds[n] = {
      high: round(t.high),
      medium: round(t.medium),
      low: round(t.low),
      positivesAbove: { high: above(t.high), medium: above(t.medium), low: above(t.low) },
    };
  }

  const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / Math.max(1, a.length);
  return {
    gallery: icons.length,
    queries: { train: 0, val: queries.filter((q) => q.split === 'val').length, test: queries.filter((q) => q.split === 'test').length },
    models: names,
    test,
    rerank: { weight, chosenOn: 'val', val },
    thresholds,
    embedMs: Object.fromEntries(names.map((n) => [n, Math.round(mean(timing[n]) * 100) / 100])),
    decodeMs: Math.round(mean(decodeTimes) * 100) / 100,
  };
}
