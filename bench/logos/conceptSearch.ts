import os from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { conceptIcons, renderSetIcon, type SetIcon } from '../../models/train/conceptSet.ts';
import { createDb } from '../../src/db/knex.ts';
import { ensureDatabase, migrateLatest, quoteIdent } from '../../src/db/migrate.ts';
import { HOG_INDEX_DIMS, hogIndexModel, projectHog } from '../../src/logos/hogIndex.ts';
import { readManifest } from '../../src/logos/models.ts';
import { type Embedder, LogoImage } from '../../src/logos/pixels/embedders.ts';
import { decodeLogo } from '../../src/logos/pixels/image.ts';
import { LogoRepository, type Nearest } from '../../src/logos/repository.ts';
import { loadModels, type Metrics, score, summarise } from './quality.ts';

// The concept search as the API runs it (LogoRepository.nearestConcept: the nearest candidates × k under the
// CNN and under HOG, each from its HNSW index, re-scored by the blend), in a database of its own holding the
// concept benchmark's gallery (the 365 test concept icons and the 20,268 distractors, real vectors of both
// models): what it costs per query beside the copy search (nearest under the CNN, re-ranked with HOG) in the
// same run, what the HOG index costs to build beside the CNN's, and its recall through PostgreSQL's
// approximate indexes beside bench/logos/concepts.ts's exact figures. The database is dropped at the end.

export interface ConceptSearchReport {
  logos: number;
  build: Record<string, { seconds: number; mb: number }>;
  /** Scans of each model's HNSW index during the timed queries (pg_stat_user_indexes): the indexes were used. */
  indexScans: Record<string, number>;
  /** ms per query, in process (the repository call), by search and k; interleaved. */
  timing: Record<string, { p50: number; p95: number; mean: number; n: number }>;
  /** --build-at N: the indexes built again over N logos (the gallery and vectors drawn around it), for the 1M extrapolation. */
  buildAt?: { logos: number; build: Record<string, { seconds: number; mb: number }> };
  /** The concept search without the projection's index (PostgreSQL scans the projections). */
  withoutHogIndex: { p50: number; p95: number; n: number };
  recall: Record<string, Metrics>;
  load: number[];
}

const MARKS =
  'copy trademarks (application_number, word_mark, class_number, status, application_date, proprietor_name, tm_type, slug) from stdin';

async function copyIn(client: pg.Client, sql: string, lines: string[]): Promise<void> {
  const stream = client.query(copyStreams.from(sql));
  await pipeline(Readable.from(lines), stream);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 10) / 10;
};
const stats = (xs: number[]) => ({
  p50: pct(xs, 0.5),
  p95: pct(xs, 0.95),
  mean: Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10,
  n: xs.length,
});

export async function evaluateConceptSearch(
  opts: { url: string; keep?: boolean; queries?: number; distractors?: number; buildAt?: number },
  log: (s: string) => void,
): Promise<ConceptSearchReport> {
  const name = new URL(opts.url).pathname.slice(1);
  if (!name.startsWith('nishaan_h22') && !name.startsWith('nishaan_logo_bench')) throw new Error(`refusing to fill ${name}`);
  const adminUrl = opts.url.replace(/\/[^/]+$/, '/postgres');
  const admin = createDb(adminUrl, 1);
  await admin.raw(`drop database if exists ${quoteIdent(name)} with (force)`);
  await ensureDatabase(admin, name);
  const db = createDb(opts.url, 2);
  const client = new pg.Client({ connectionString: opts.url });
  const load = [os.loadavg()[0]];
  try {
    await migrateLatest(db);
    await client.connect();
    const manifest = readManifest();
    const cnnSpec = manifest.models.find((m) => m.name === manifest.default)!;
    const hogSpec = manifest.models.find((m) => m.name === manifest.fallback)!;
    const concept = cnnSpec.concept!;
    const rerank = cnnSpec.rerank!;
    const [cnn, hog] = (await loadModels([cnnSpec, hogSpec], log)) as [Embedder, Embedder];

    const all = conceptIcons();
    let distractors = all.filter((i) => i.role === 'distractor');
    if (opts.distractors) distractors = distractors.filter((_, k) => k % Math.ceil(distractors.length / opts.distractors!) === 0);
    const gallery: SetIcon[] = [...all.filter((i) => i.role === 'test'), ...distractors];
    const test = gallery.filter((i) => i.role === 'test');
    const v1: Float32Array[] = [];
    const vh: Float32Array[] = [];
    const t0 = performance.now();
    for (let i = 0; i < gallery.length; i += 16) {
      const pngs = await Promise.all(gallery.slice(i, i + 16).map((ic) => renderSetIcon(ic, 128)));
      for (const png of pngs) {
        const img = new LogoImage(png, await decodeLogo(png));
        v1.push(await cnn.embed(img));
        vh.push(await hog.embed(img));
      }
      if ((i / 16) % 250 === 0) log(`${i}/${gallery.length} drawn and embedded (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
    const app = (i: number) => String(40_000_000 + i);
    const text = (v: Float32Array) => `[${Array.from(v, (x) => x.toFixed(5)).join(',')}]`;
    await copyIn(
      client,
      MARKS,
      gallery.map((_, i) => `${app(i)}\t\t${1 + (i % 45)}\tRegistered\t2020-01-01\tOWNER ${i}\tDEVICE\tconcept-${i}\n`),
    );
    await copyIn(
      client,
      'copy logos (application_number, object_key, index_state, indexed_at) from stdin',
      gallery.map((_, i) => `${app(i)}\tbench/${app(i)}.png\tdone\t2026-11-27\n`),
    );
    const projected = hogIndexModel(hogSpec.name);
    const vp = (v: Float32Array) => text(Float32Array.from(projectHog(v)));
    await copyIn(client, 'copy logo_vectors (application_number, model, embedding) from stdin', [
      ...gallery.map((_, i) => `${app(i)}\t${cnnSpec.name}\t${text(v1[i])}\n`),
      ...gallery.map((_, i) => `${app(i)}\t${hogSpec.name}\t${text(vh[i])}\n`),
      ...gallery.map((_, i) => `${app(i)}\t${projected}\t${vp(vh[i])}\n`),
    ]);
    await client.query('analyze');
    log(`${gallery.length} logos loaded with their vectors (CNN, HOG, HOG's projection)`);

    // Each model's HNSW index as the workers make it (LogoRepository.ensureModelIndex), timed one after the other: the
    // CNN's, HOG's own (what concept search found candidates by before src/logos/hogIndex.ts) and its projection's.
    const repo = new LogoRepository(db);
    const indexSize = async (model: string) => {
      const r = await client.query(
        `select pg_relation_size(indexrelid) as b from pg_index i join pg_class c on c.oid = i.indexrelid
         where c.relname = $1`,
        [`logo_vectors_hnsw_${model.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`],
      );
      return Math.round((Number(r.rows[0].b) / 2 ** 20) * 10) / 10;
    };
    const buildAll = async (what: string) => {
      const out: Record<string, { seconds: number; mb: number }> = {};
      for (const [spec, dims] of [
        [cnnSpec.name, cnnSpec.dimensions],
        [hogSpec.name, hogSpec.dimensions],
        [projected, HOG_INDEX_DIMS],
      ] as const) {
        const t = performance.now();
        await repo.ensureModelIndex(spec, dims);
        out[spec] = { seconds: Math.round((performance.now() - t) / 100) / 10, mb: await indexSize(spec) };
        log(`${spec}: HNSW index${what} built in ${out[spec].seconds} s (${out[spec].mb} MB)`);
      }
      load.push(os.loadavg()[0]);
      return out;
    };
    const build: ConceptSearchReport['build'] = await buildAll('');

    // Queries: the test concept icons' own vectors (the same images an upload of them gives). For recall, k is 10
    // more than the query's own set's drawings of its concept, which are left out as in bench/logos/concepts.ts.
    const ownSet = (q: number) => new Set(test.flatMap((ic, j) => (ic.concept === test[q].concept && ic.set === test[q].set ? [j] : [])));
    const index = new Map(gallery.map((_, i) => [app(i), i]));
    const copyRerank = (q: number) => ({ model: hogSpec.name, vector: vh[q], weight: rerank.weight, candidates: rerank.candidates });
    const conceptOf = (q: number) => ({ model: hogSpec.name, vector: vh[q], weight: concept.weight, candidates: concept.candidates });
    const byProjection = (q: number) => ({ ...conceptOf(q), index: { model: projected, vector: projectHog(vh[q]) } });
    const searches = {
      copy: (q: number, k: number) => repo.nearest(cnnSpec.name, v1[q], k, copyRerank(q)),
      // As served: HOG candidates by the projection's index.
      concept: (q: number, k: number) => repo.nearestConcept(cnnSpec.name, v1[q], byProjection(q), k),
      'concept, HOG index': (q: number, k: number) => repo.nearestConcept(cnnSpec.name, v1[q], conceptOf(q), k),
    };
    const times: Record<string, number[]> = {};
    const rows: Record<string, ReturnType<typeof score>[]> = { copy: [], concept: [], 'concept, HOG index': [] };
    const n = Math.min(opts.queries ?? test.length, test.length);
    for (const s of Object.values(searches)) await s(0, 10); // warm the indexes into memory once
    for (let q = 0; q < n; q++) {
      const own = ownSet(q);
      for (const [label, search] of Object.entries(searches)) {
        for (const k of [10, 50]) {
          const t = performance.now();
          await search(q, k);
          (times[`${label} k=${k}`] ??= []).push(performance.now() - t);
        }
        const hits: Nearest[] = await search(q, 10 + own.size);
        // The ranking over the gallery, left-outs removed, then every other logo below (as unranked).
        const s = new Float32Array(gallery.length).fill(-10);
        let rank = 0;
        for (const h of hits) {
          const j = index.get(h.application_number)!;
          if (j < test.length && own.has(j)) continue;
          s[j] = 1000 - rank++;
        }
        for (const j of own) s[j] = Number.NEGATIVE_INFINITY;
        const rel = new Set(test.flatMap((ic, j) => (ic.concept === test[q].concept && ic.set !== test[q].set ? [j] : [])));
        if (rel.size) rows[label].push(score(s, rel));
      }
      if (q % 100 === 0) log(`${q}/${n} queries`);
    }
    load.push(os.loadavg()[0]);
    // A backend reports its statistics once idle for 10 s (PostgreSQL 15).
    await new Promise((r) => setTimeout(r, 11_000));
    const scans = await client.query(
      `select indexrelname as name, idx_scan as n from pg_stat_user_indexes where indexrelname like 'logo_vectors_hnsw_%'`,
    );
    const indexScans = Object.fromEntries(scans.rows.map((x: { name: string; n: string }) => [x.name, Number(x.n)]));

    // Without the projection's index PostgreSQL compares every projection: what a register pays before it is built.
    await client.query(`drop index logo_vectors_hnsw_${projected.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`);
    const bare: number[] = [];
    for (let q = 0; q < Math.min(n, 60); q++) {
      const t = performance.now();
      await searches.concept(q, 10);
      bare.push(performance.now() - t);
    }
    load.push(os.loadavg()[0]);

    // Build cost at a larger size: logos drawn around the gallery's (each vector a gallery logo's plus noise, the
    // same logo for both models, as bench/logos/scale.ts draws them), both indexes dropped and built again.
    let buildAt: ConceptSearchReport['buildAt'];
    if (opts.buildAt && opts.buildAt > gallery.length) {
      const extra = opts.buildAt - gallery.length;
      let seed = 7;
      const rnd = () => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      const near = (v: Float32Array) => {
        const o = new Float32Array(v.length);
        let sq = 0;
        for (let d = 0; d < v.length; d++) {
          o[d] = v[d] + (rnd() - 0.5) * (2 / Math.sqrt(v.length));
          sq += o[d] * o[d];
        }
        for (let d = 0; d < v.length; d++) o[d] /= Math.sqrt(sq);
        return o;
      };
      const more = (i: number) => app(gallery.length + i);
      for (let from = 0; from < extra; from += 20_000) {
        const ids = Array.from({ length: Math.min(20_000, extra - from) }, (_, j) => from + j);
        await copyIn(
          client,
          MARKS,
          ids.map((i) => `${more(i)}\t\t${1 + (i % 45)}\tRegistered\t2020-01-01\tOWNER X${i}\tDEVICE\tconcept-x${i}\n`),
        );
        await copyIn(
          client,
          'copy logos (application_number, object_key, index_state, indexed_at) from stdin',
          ids.map((i) => `${more(i)}\tbench/${more(i)}.png\tdone\t2026-11-27\n`),
        );
        const base = ids.map((i) => i % gallery.length);
        await copyIn(client, 'copy logo_vectors (application_number, model, embedding) from stdin', [
          ...ids.map((i, j) => `${more(i)}\t${cnnSpec.name}\t${text(near(v1[base[j]]))}\n`),
          ...ids.flatMap((i, j) => {
            const h = near(vh[base[j]]);
            return [`${more(i)}\t${hogSpec.name}\t${text(h)}\n`, `${more(i)}\t${projected}\t${vp(h)}\n`];
          }),
        ]);
      }
      for (const m of [cnnSpec.name, hogSpec.name, projected])
        await client.query(`drop index if exists logo_vectors_hnsw_${m.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`);
      await client.query('analyze');
      log(`${opts.buildAt} logos loaded; building the indexes again`);
      buildAt = { logos: opts.buildAt, build: await buildAll(` over ${opts.buildAt}`) };
    }
    return {
      buildAt,
      logos: gallery.length,
      build,
      indexScans,
      timing: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, stats(v)])),
      withoutHogIndex: stats(bare),
      // recall@10 through the approximate indexes; mAP is over the 10 shown only (the rest unranked): not comparable.
      recall: Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, summarise(v)])),
      load,
    };
  } finally {
    await client.end().catch(() => undefined);
    await db.destroy();
    if (!opts.keep) await admin.raw(`drop database if exists ${quoteIdent(name)} with (force)`);
    await admin.destroy();
  }
}
