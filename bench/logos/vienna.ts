import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from '../../src/ingest/generator/index.ts';
import { readManifest } from '../../src/logos/models.ts';
import { type Embedder, LogoImage } from '../../src/logos/pixels/embedders.ts';
import { decodeLogo } from '../../src/logos/pixels/image.ts';
import { NEIGHBOURS, POWER, viennaVotes } from '../../src/logos/viennaSuggest.ts';
import { loadModels } from './quality.ts';

// Vienna codes suggested from an image (issue 44, item 4; POST /v1/logo-search/vienna-codes/): top-3 accuracy on
// held-out marks of a generated register beside a baseline, the three sections most frequent among the other marks.
// Each logo of the register is embedded in process by the served model and HOG; a held-out mark's logo is the query,
// its neighbours the other marks' logos scored as the API scores them (the nearest candidates × k under the model,
// re-ranked with HOG), and their codes voted as viennaSuggest.ts votes. "Held out" leaves out the mark itself and every
// near copy of its drawing (model cosine ≥ COPY: the same icon drawn again), so that a suggestion must come from
// other drawings; the figure with copies kept is printed beside. NEIGHBOURS and POWER are chosen on validation marks
// (one in five by application number) over a grid, and the test marks (the rest) measured with the choice.

/** A gallery logo this close to the query under the model is the same drawing. */
const COPY = 0.95;
const SECTION = /^\d{2}\.\d{2}\.\d{2}$/;

interface Mark {
  app: string;
  codes: string[];
  cnn: Float32Array;
  hog: Float32Array;
}

export interface ViennaReport {
  marks: number;
  val: number;
  test: number;
  chosen: { neighbours: number; power: number; valTop3: number };
  grid: Record<string, number>;
  test3: { suggested: number; withCopies: number; baseline: number; top1: number; baselineTop1: number };
  baselineCodes: string[];
  /** The same on what the logo shows alone (sections of categories 01-25), for the test marks that have one. */
  figure: { marks: number; top3: number; baseline: number; baselineCodes: string[] };
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

export async function evaluateVienna(
  opts: { records: number; logos: number; seed: number },
  log: (s: string) => void,
): Promise<ViennaReport> {
  const manifest = readManifest();
  const spec = manifest.models.find((m) => m.name === manifest.default)!;
  const hogSpec = manifest.models.find((m) => m.name === manifest.fallback)!;
  const rerank = spec.rerank;
  const [cnn, hog] = (await loadModels([spec, hogSpec], log)) as [Embedder, Embedder];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-vienna-'));
  try {
    log(`generating ${opts.records} marks with ${opts.logos} logos (seed ${opts.seed})`);
    await generate({ records: opts.records, seed: opts.seed, logos: opts.logos, threads: 0, out: dir });
    const set = path.join(dir, 'baseline');
    const lines = (f: string) =>
      fs
        .readFileSync(path.join(set, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    const codes = new Map<string, string[]>(
      lines('trademarks.jsonl').map((t: { application_number: string; vienna_codes?: string[] }) => [
        t.application_number,
        (t.vienna_codes ?? []).filter((c) => SECTION.test(c)),
      ]),
    );
    const marks: Mark[] = [];
    for (const l of lines('logos.jsonl') as { application_number: string; file: string }[]) {
      const c = codes.get(l.application_number) ?? [];
      if (!c.length) continue;
      const bytes = fs.readFileSync(path.join(set, l.file));
      const img = new LogoImage(bytes, await decodeLogo(bytes));
      marks.push({ app: l.application_number, codes: c, cnn: await cnn.embed(img), hog: await hog.embed(img) });
      if (marks.length % 500 === 0) log(`embedded ${marks.length}`);
    }
    log(`${marks.length} logos with Vienna codes embedded`);
    const isVal = (app: string) => Number(app) % 5 === 0;
    const weight = rerank?.weight ?? 0;
    const pool = rerank ? rerank.candidates : 1;
    /** A query's neighbours as the API scores them, best first, at most `k` (itself left out; copies too unless `copies`). */
    const neighbours = (q: Mark, k: number, copies: boolean) => {
      const byModel = marks
        .filter((m) => m !== q)
        .map((m) => ({ m, s: dot(q.cnn, m.cnn) }))
        .filter((x) => copies || x.s < COPY)
        .sort((a, b) => b.s - a.s)
        .slice(0, k * pool);
      return byModel
        .map(({ m, s }) => ({ similarity: rerank ? (1 - weight) * s + weight * dot(q.hog, m.hog) : s, vienna_codes: m.codes }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, k);
    };
    const hit = (q: Mark, suggested: string[]) => suggested.some((c) => q.codes.includes(c));
    // What the logo shows, not how it is lettered or framed: categories 01-25 (26 is geometric figures, 27 writing).
    const figurative = (c: string) => Number(c.slice(0, 2)) <= 25;
    const figure = (q: Mark, votes: { code: string }[]) =>
      votes
        .filter((v) => figurative(v.code))
        .slice(0, 3)
        .some((v) => q.codes.includes(v.code));
    const top3 = (qs: Mark[], k: number, power: number, copies = false) =>
      qs.filter((q) =>
        hit(
          q,
          viennaVotes(neighbours(q, 2 * k, copies), power, k)
            .slice(0, 3)
            .map((v) => v.code),
        ),
      ).length / qs.length;
    const val = marks.filter((m) => isVal(m.app));
    const test = marks.filter((m) => !isVal(m.app));
    const grid: Record<string, number> = {};
    let chosen = { neighbours: NEIGHBOURS, power: POWER, valTop3: -1 };
    for (const k of [10, 20, 30, 50])
      for (const p of [1, 2, 4, 8, 16]) {
        const r = top3(val, k, p);
        grid[`k=${k} power=${p}`] = Math.round(r * 1000) / 1000;
        if (r > chosen.valTop3) chosen = { neighbours: k, power: p, valTop3: r };
      }
    log(`chosen on ${val.length} validation marks: ${JSON.stringify(chosen)}`);
    // The baseline: the three sections most frequent among the other marks (the test marks' own left out).
    const freq = new Map<string, number>();
    for (const m of val) for (const c of m.codes) freq.set(c, (freq.get(c) ?? 0) + 1);
    const common = [...freq].sort((a, b) => b[1] - a[1]).map(([c]) => c);
    const baseline = test.filter((q) => hit(q, common.slice(0, 3))).length / test.length;
    const baselineTop1 = test.filter((q) => hit(q, common.slice(0, 1))).length / test.length;
    const { neighbours: k, power } = chosen;
    const figured = test.filter((q) => q.codes.some(figurative));
    const figFreq = common.filter(figurative).slice(0, 3);
    const figureTop3 = figured.filter((q) => figure(q, viennaVotes(neighbours(q, 2 * k, false), power, k))).length / figured.length;
    const figureBaseline = figured.filter((q) => q.codes.some((c) => figFreq.includes(c))).length / figured.length;
    const top1 =
      test.filter((q) =>
        hit(
          q,
          viennaVotes(neighbours(q, 2 * k, false), power, k)
            .slice(0, 1)
            .map((v) => v.code),
        ),
      ).length / test.length;
    const r = (x: number) => Math.round(x * 1000) / 1000;
    return {
      marks: marks.length,
      val: val.length,
      test: test.length,
      chosen: { ...chosen, valTop3: r(chosen.valTop3) },
      grid,
      test3: {
        suggested: r(top3(test, k, power)),
        withCopies: r(top3(test, k, power, true)),
        baseline: r(baseline),
        top1: r(top1),
        baselineTop1: r(baselineTop1),
      },
      baselineCodes: common.slice(0, 3),
      figure: { marks: figured.length, top3: r(figureTop3), baseline: r(figureBaseline), baselineCodes: figFreq },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
