import { conceptIcons, HELD_OUT_SETS, renderSetIcon, type SetIcon } from '../../models/train/conceptSet.ts';
import { LogoImage } from '../../src/logos/embedders.ts';
import { decodeLogo } from '../../src/logos/image.ts';
import { readManifest } from '../../src/logos/models.ts';
import { loadModels, type Metrics, score, summarise } from './quality.ts';

// Conceptual likeness (issue 22, item 2): a query icon of a held-out concept drawn by one set, asked for
// among the icons of held-out concepts and >= 20,000 distractor logos (models/train/conceptSet.ts: npm
// set icons no model learnt from, none named with a held-out concept's words); the relevant ones are the
// same concept drawn by the other sets. The query and its own set's drawings of the concept are left out of
// its ranking (they count neither way: same-set likeness is copy-like). Every model is given the same
// images: each icon drawn on white at 128 px, as an upload of it would be.

export interface ConceptReport {
  concepts: number;
  queries: number;
  gallery: number;
  distractors: number;
  heldOutSets: readonly string[];
  models: string[];
  /** model -> 'all', each query set, and 'from held-out sets' -> metrics. */
  recall: Record<string, Record<string, Metrics>>;
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

export async function evaluateConcepts(
  log: (s: string) => void,
  opts: { distractors?: number; hogWeights?: number[] } = {},
): Promise<ConceptReport> {
  const all = conceptIcons();
  const test = all.filter((i) => i.role === 'test');
  let distractors = all.filter((i) => i.role === 'distractor');
  if (opts.distractors) distractors = distractors.filter((_, k) => k % Math.ceil(distractors.length / opts.distractors!) === 0);
  const gallery: SetIcon[] = [...test, ...distractors];
  const manifest = readManifest();
  const models = await loadModels(manifest.models, log);
  const names = models.map((m) => m.name);
  log(`concepts: ${test.length} held-out concept icons, ${distractors.length} distractors; models ${names.join(', ')}`);

  const vectors: Record<string, Float32Array[]> = Object.fromEntries(names.map((n) => [n, []]));
  const t0 = performance.now();
  for (let i = 0; i < gallery.length; i += 16) {
    // Drawn 16 at a time (sharp works off the main thread), embedded in order.
    const pngs = await Promise.all(gallery.slice(i, i + 16).map((ic) => renderSetIcon(ic, 128)));
    for (const png of pngs) {
      const img = new LogoImage(png, await decodeLogo(png));
      for (const m of models) vectors[m.name].push(await m.embed(img));
    }
    if ((i / 16) % 250 === 0) log(`${i}/${gallery.length} drawn and embedded (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }

  // Each trained model alone, and re-ranked with HOG at the weight the served default uses (as the API blends).
  const def = manifest.models.find((m) => m.name === manifest.default);
  const blends: [string, [string, number][]][] = names.map((n) => [n, [[n, 1]]]);
  const hog = def?.rerank?.model;
  if (def?.rerank && hog && names.includes(hog)) {
    // The served weight first; others asked for show how much HOG a concept score would want.
    const weights = [def.rerank.weight, ...(opts.hogWeights ?? []).filter((w) => w !== def.rerank!.weight)];
    for (const w of weights) {
      for (const m of manifest.models) {
        if (m.kind === 'onnx' && names.includes(m.name))
          blends.push([
            `${m.name}+${hog}@${w}`,
            [
              [m.name, 1 - w],
              [hog, w],
            ],
          ]);
      }
    }
  }
  const recall: ConceptReport['recall'] = {};
  for (const [n, blend] of blends) {
    const rows: Record<string, ReturnType<typeof score>[]> = { all: [] };
    for (let q = 0; q < test.length; q++) {
      const s = new Float32Array(gallery.length);
      for (const [model, w] of blend) {
        const g = vectors[model];
        for (let j = 0; j < g.length; j++) s[j] += w * dot(g[j], g[q]);
      }
      const rel = new Set<number>();
      for (let j = 0; j < test.length; j++) {
        if (test[j].concept !== test[q].concept) continue;
        if (test[j].set === test[q].set) s[j] = Number.NEGATIVE_INFINITY;
        else rel.add(j);
      }
      if (!rel.size) continue;
      const r = score(s, rel);
      rows.all.push(r);
      (rows[`from ${test[q].set}`] ??= []).push(r);
      if ((HELD_OUT_SETS as readonly string[]).includes(test[q].set)) (rows['from held-out sets'] ??= []).push(r);
    }
    recall[n] = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, summarise(v)]));
  }
  return {
    concepts: new Set(test.map((i) => i.concept)).size,
    queries: recall[names[0]]?.all.n ?? 0,
    gallery: gallery.length,
    distractors: distractors.length,
    heldOutSets: HELD_OUT_SETS,
    models: blends.map((b) => b[0]),
    recall,
  };
}
