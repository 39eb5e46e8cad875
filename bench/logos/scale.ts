import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { loadIcons, renderIcon } from '../../models/train/iconSet.ts';
import { loadConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/knex.ts';
import { ensureDatabase, migrateLatest, quoteIdent } from '../../src/db/migrate.ts';
import { buildApp } from '../../src/http/app.ts';
import { Rng } from '../../src/ingest/generator/rng.ts';
import { genericWords } from '../../src/ingest/generator/words.ts';
import { hogIndexModel, projectHog } from '../../src/logos/hogIndex.ts';
import { planModels } from '../../src/logos/models.ts';
import { LogoImage, loadEmbedder } from '../../src/logos/pixels/embedders.ts';
import { decodeLogo } from '../../src/logos/pixels/image.ts';
import { type IndexCacheFit, LogoRepository } from '../../src/logos/repository.ts';
import { SidecarClient } from '../../src/logos/sidecarClient.ts';
import { createRoot } from '../../src/root.ts';
import { createAccount } from '../../test/helpers/accounts.ts';
import { startLogoWorkers } from '../../workers/logos.ts';
import { startSidecar } from '../../workers/sidecar/server.ts';
import { perturb } from './perturb.ts';
import { type EmbedCost, embedCost, pct, timeKinds, uploadsByKind } from './scaleUploads.ts';

// Logo search at scale, in a database of its own (nishaan_logo_bench by default, made and filled
// here): N logos with vectors (the ~3,470 simple-icons under the trained model, the rest synthetic
// vectors drawn around them) and OCR text, an HNSW index, then image search end to end through the
// API (upload -> results) and text logo search, each beside its baseline (exact nearest neighbours by
// a sequential scan; a trigram LIKE over the OCR text), and indexing throughput with the real
// workers and sidecar on this machine's cores.

/**
 * The results an image search asks for: the API's default img_cnt, which the end-to-end searches send and the
 * breakdown's database queries ask for too (with re-ranking, twice as many candidates are read), so that the
 * parts add up to what the end-to-end figure holds.
 */
const IMG_CNT = 50;

export interface ScaleReport {
  vectors: number;
  loadS: number;
  hnswBuildS: number;
  /** The served model's HNSW index beside PostgreSQL's shared_buffers. */
  cache: IndexCacheFit;
  image: { p50: number; p95: number; p99: number; n: number };
  imageDb: { hnswP95: number; exactP95: number; ratio: number; recallAt10VsExact: number };
  text: { buildS: number; p50: number; p95: number; n: number; baselineP95: number; ratio: number };
  indexing: { logos: number; seconds: number; perSecond: number; ocrWorkers: number; jobsAtOnce: number };
  /** Seconds the workers' start took to index concept search's HOG candidates (nothing left to do on a reused database). */
  conceptIndexS: number;
  /** Issue 22: end to end by kind of upload (regions found and searched), where the time goes, embedding cost. */
  kinds: Awaited<ReturnType<typeof timeKinds>>;
  embedding: EmbedCost;
  model: string;
  load: { start: number; end: number };
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

async function copyIn(client: pg.Client, sql: string, lines: () => Generator<string>): Promise<void> {
  const stream = client.query(copyStreams.from(sql));
  await pipeline(Readable.from(lines(), { objectMode: false }), stream);
}

function* chunks(n: number, line: (i: number) => string): Generator<string> {
  let buf = '';
  for (let i = 0; i < n; i++) {
    buf += line(i);
    if (buf.length > 1 << 20) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

export async function evaluateScale(
  opts: { url: string; vectors: number; queries: number; indexLogos: number; reuse?: boolean; embedImages?: number },
  log: (s: string) => void,
): Promise<ScaleReport> {
  const { name, adminUrl } = { name: new URL(opts.url).pathname.slice(1), adminUrl: opts.url.replace(/\/[^/]+$/, '/postgres') };
  if (name === 'nishaan_bench' || name === 'nishaan') throw new Error(`refusing to fill ${name}: use a database of your own`);
  const admin = createDb(adminUrl, 1);
  const exists = (await admin.raw('select 1 from pg_database where datname = ?', [name])).rows.length > 0;
  // --reuse: measure again on the database a previous run filled (same size), without loading and building.
  const reuse = Boolean(opts.reuse && exists);
  if (!reuse) {
    await admin.raw(`drop database if exists ${quoteIdent(name)} with (force)`);
    await ensureDatabase(admin, name);
  }
  await admin.destroy();
  const db = createDb(opts.url, 4);
  await migrateLatest(db);
  const loadStart = os.loadavg()[0];

  // The sidecar as `npm start` runs it, started first: the stored vectors are made with the model it
  // serves (LOGO_MODEL, else the manifest's default), so queries fall where the stored logos are.
  const { primary: spec, fallback: hogSpec } = planModels(process.env.LOGO_MODEL ?? 'auto');
  // Its embedding threads and OCR workers are the configuration's (ML_WORKERS, OCR_WORKERS), as are the indexing jobs
  // run at once (LOGO_INDEX_CONCURRENCY, below): the defaults unless the environment sets them.
  const served = loadConfig({ ...process.env, NODE_ENV: 'development' });
  const sidecar = await startSidecar({ workers: served.ML_WORKERS, ocrWorkers: served.OCR_WORKERS, model: spec.name });
  if (sidecar.model.model !== spec.name || sidecar.model.fallbackUsed)
    throw new Error(`the sidecar serves ${sidecar.model.model}, not ${spec.name}: the stored vectors would be another model's`);
  if (!sidecar.model.rerank) log(`scale: note: ${spec.name} is served without HOG re-ranking`);
  // The served model's vectors of every simple-icons logo: real points the synthetic ones crowd around.
  const model = await loadEmbedder(spec);
  const icons = await loadIcons();
  const hogModel = await loadEmbedder(hogSpec);
  const real: Float32Array[] = [];
  const hogReal: Float32Array[] = [];
  for (const icon of icons) {
    const png = await renderIcon(icon, 128);
    const img = new LogoImage(png, await decodeLogo(png));
    real.push(await model.embed(img));
    hogReal.push(await hogModel.embed(img));
  }
  const words = genericWords().filter((w) => /^[A-Z]{3,}$/.test(w));
  const r = new Rng(5, 5, 5);
  const ocrTextOf = (i: number) => {
    const k = new Rng(9, i, 1);
    return k.chance(0.6) ? `${k.pick(words)} ${k.pick(words)}` : k.pick(words);
  };
  const app = (i: number) => String(20_000_000 + i);
  const vec = (i: number) => {
    if (i < real.length) return real[i];
    const base = real[r.int(real.length)];
    const v = new Float32Array(base.length);
    let s = 0;
    for (let d = 0; d < v.length; d++) {
      v[d] = base[d] + (r.float() - 0.5) * 0.5;
      s += v[d] * v[d];
    }
    const n = Math.sqrt(s);
    for (let d = 0; d < v.length; d++) v[d] /= n;
    return v;
  };
  const t0 = performance.now();
  const client = new pg.Client({ connectionString: opts.url });
  await client.connect();
  let loadS = 0;
  let hnswBuildS = 0;
  if (reuse) {
    const n = Number((await client.query('select count(*) from logo_vectors where model = $1', [spec.name])).rows[0].count);
    if (n < opts.vectors) throw new Error(`--reuse: ${name} holds ${n} ${spec.name} vectors, fewer than ${opts.vectors}`);
    // The stored vectors must be this model's as it is now (an earlier checkpoint under the same name would not do).
    const own = await client.query('select embedding::text as e from logo_vectors where model = $1 and application_number = $2', [
      spec.name,
      app(0),
    ]);
    const stored = (JSON.parse(own.rows[0]?.e ?? '[]') as number[]).reduce((s, x, d) => s + x * real[0][d], 0);
    if (stored < 0.999) throw new Error(`--reuse: ${name}'s vectors are not ${spec.name}'s as it is now (cosine ${stored.toFixed(3)})`);
    await client.query(`delete from trademarks where application_number like '3%'`);
    log(`scale: reusing ${name} (${n.toLocaleString('en')} vectors)`);
  } else {
    await copyIn(
      client,
      'copy trademarks (application_number, word_mark, class_number, status, application_date, proprietor_name, tm_type, slug) from stdin',
      () =>
        chunks(
          opts.vectors,
          (i) => `${app(i)}\t${ocrTextOf(i)}\t${1 + (i % 45)}\tRegistered\t2020-01-01\tOWNER ${i}\tDEVICE\tbench-${i}\n`,
        ),
    );
    await copyIn(client, 'copy logos (application_number, object_key, ocr_text, index_state, indexed_at) from stdin', () =>
      chunks(opts.vectors, (i) => `${app(i)}\tbench/${app(i)}.png\t${ocrTextOf(i)}\tdone\t2026-11-25\n`),
    );
    await copyIn(client, 'copy logo_vectors (application_number, model, embedding) from stdin', () =>
      chunks(opts.vectors, (i) => `${app(i)}\t${spec.name}\t[${Array.from(vec(i), (x) => x.toFixed(5)).join(',')}]\n`),
    );
    await client.query('analyze');
    loadS = (performance.now() - t0) / 1000;
    log(`scale: ${opts.vectors.toLocaleString('en')} logos loaded in ${loadS.toFixed(0)} s`);

    const t1 = performance.now();
    await client.query(`set maintenance_work_mem = '2GB'`);
    await client.query('set max_parallel_maintenance_workers = 1');
    await client.query(`create index logo_vectors_hnsw_${spec.name.replace(/[^a-z0-9]+/g, '_')} on logo_vectors
    using hnsw ((embedding::halfvec(${model.dimensions})) halfvec_cosine_ops) with (m = 16, ef_construction = 64)
    where model = '${spec.name}'`);
    hnswBuildS = (performance.now() - t1) / 1000;
    log(`scale: HNSW index built in ${hnswBuildS.toFixed(0)} s`);
    await client.query(`create index logos_ocr_trgm_idx on logos using gin (nishaan_norm(ocr_text) gin_trgm_ops)`);
  }
  const repo = new LogoRepository(db);
  await repo.ensureModelIndex(spec.name, model.dimensions);
  // The figures depend on whether PostgreSQL's buffer cache holds the index (src/logos/indexCache.ts): said with them.
  const cache = (await repo.indexCacheFit(spec.name))!;
  log(`scale: HNSW index ${mb(cache.indexBytes)} MB, PostgreSQL shared_buffers ${mb(cache.sharedBuffersBytes)} MB`);
  // Re-ranking reads each candidate's HOG vector, concept search finds candidates by its projection (hogIndex.ts): the
  // icons' own, repeated over the synthetic logos, as indexing would have stored them.
  for (const [m, of] of [
    [hogSpec.name, (v: Float32Array) => v],
    [hogIndexModel(hogSpec.name), (v: Float32Array) => projectHog(v)],
  ] as const) {
    if ((await client.query('select 1 from logo_vectors where model = $1 limit 1', [m])).rows.length) continue;
    const th = performance.now();
    await copyIn(client, 'copy logo_vectors (application_number, model, embedding) from stdin', function* () {
      let buf = '';
      for (let i = 0; i < icons.length; i++) buf += `${app(i)}\t${m}\t[${Array.from(of(hogReal[i]), (x) => x.toFixed(4)).join(',')}]\n`;
      yield buf;
    });
    await client.query(
      `insert into logo_vectors (application_number, model, embedding)
      select l.application_number, $1, h.embedding from logos l
      join logo_vectors h on h.model = $1
        and h.application_number = (20000000 + abs(hashtext(l.application_number)) % ${icons.length})::text
      where l.application_number like '2%' and l.application_number::bigint >= ${20_000_000 + icons.length}`,
      [m],
    );
    log(`scale: ${m} vectors added in ${((performance.now() - th) / 1000).toFixed(0)} s`);
  }

  // The API and the sidecar as `npm start` runs them (one API process here), over real HTTP.
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-logo-bench-'));
  const prefix = `bench-logos-${process.pid}`;
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    URL_SIGNING_SECRET: 'bench-signing-secret-0123456789',
    JWT_SECRET: 'bench-jwt-secret-0123456789-0123456789-abc',
    WEBHOOK_SECRET_KEY: 'bench-webhook-secret-key-0123456789-0123456789',
    DATABASE_URL: opts.url,
    ML_URL: sidecar.url,
    OBJECT_STORE_DIR: storeDir,
    QUEUE_PREFIX: prefix,
    RATE_LIMIT_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    RATE_KEY_PER_SECOND: '100000',
    RATE_IP_PER_MINUTE: '10000000',
    SEARCH_SNAPSHOT: '',
    UPLOAD_DIR: path.join(storeDir, 'uploads'),
  });
  const deps = createRoot(config);
  const { app: api } = buildApp(deps);
  const server = http.createServer(api);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await deps.listener.start();
  const account = await createAccount(db, { quotas: { logo_searches: 10_000_000 } });

  const test = icons.filter((i) => i.split === 'test');
  const clean = ['colour', 'jpeg_q25', 'text', 'rotate_5', 'crop_10'] as const;
  const uploads: Buffer[] = [];
  for (let i = 0; i < Math.min(opts.queries, 200); i++) uploads.push(await perturb(test[i % test.length], clean[i % clean.length]));
  // ms: upload -> parsed JSON at the client; service: the API's own response_ms (the logo service's part, from the
  // stored upload read to the results), so the rest is HTTP, multipart and admission.
  const imageSearchTimed = async (bytes: Buffer) => {
    const form = new FormData();
    form.append(
      'uploaded_file',
      new Blob([new Uint8Array(bytes)], { type: bytes[0] === 0xff ? 'image/jpeg' : 'image/png' }),
      bytes[0] === 0xff ? 'q.jpg' : 'q.png',
    );
    form.append('similarity_level', 'low');
    form.append('img_cnt', String(IMG_CNT));
    const s = performance.now();
    const res = await fetch(`${base}/v1/logo-search/image/`, { method: 'POST', body: form, headers: { 'X-API-Key': account.key } });
    if (res.status !== 200) throw new Error(`image search answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { response_ms: number };
    return { ms: performance.now() - s, service: body.response_ms };
  };
  const imageSearch = async (bytes: Buffer) => (await imageSearchTimed(bytes)).ms;
  for (let i = 0; i < 20; i++) await imageSearch(uploads[i % uploads.length]);
  const times: number[] = [];
  for (let i = 0; i < opts.queries; i++) times.push(await imageSearch(uploads[i % uploads.length]));
  const image = { p50: pct(times, 0.5), p95: pct(times, 0.95), p99: pct(times, 0.99), n: times.length };
  log(`scale: image search end to end p50 ${image.p50} ms, p95 ${image.p95} ms`);

  // Issue 22: uploads whose logo sits among other things (1-4 regions searched each) beside clean logos.
  const byKind = await uploadsByKind(test, Math.min(opts.queries, 100));
  const images = { sidecar: new SidecarClient(sidecar.url), repo, fetch: { timeoutMs: 5000 }, uploadDir: storeDir };
  const kinds = await timeKinds(
    byKind,
    imageSearchTimed,
    images,
    { rounds: opts.queries, parts: Math.min(opts.queries, 100), k: IMG_CNT },
    log,
  );
  const embedding = await embedCost(byKind, model, hogModel, spec.name, opts.embedImages ?? 200, log);

  // The database part alone: HNSW beside exact nearest neighbours (sequential scan), and HNSW's recall against exact.
  const probes = real
    .slice(0, 3470)
    .filter((_, i) => i % 70 === 0)
    .slice(0, 40);
  const lit = (v: Float32Array) => `[${Array.from(v).join(',')}]`;
  const knn = async (v: Float32Array, exact: boolean) => {
    await client.query('begin');
    await client.query(exact ? 'set local enable_indexscan = off' : 'set local hnsw.ef_search = 100');
    const s = performance.now();
    const res = await client.query(
      `select application_number from logo_vectors where model = $2
      order by embedding::halfvec(${model.dimensions}) <=> $1::halfvec(${model.dimensions}) limit 10`,
      [lit(v), spec.name],
    );
    const ms = performance.now() - s;
    await client.query('commit');
    return { ms, ids: res.rows.map((x) => x.application_number as string) };
  };
  const hnswT: number[] = [];
  const exactT: number[] = [];
  let agree = 0;
  for (const v of probes) {
    const a = await knn(v, false);
    const b = await knn(v, true);
    hnswT.push(a.ms);
    exactT.push(b.ms);
    agree += a.ids.filter((id) => b.ids.includes(id)).length / 10;
  }
  const imageDb = {
    hnswP95: pct(hnswT, 0.95),
    exactP95: pct(exactT, 0.95),
    ratio: Math.round((pct(exactT, 0.95) / pct(hnswT, 0.95)) * 10) / 10,
    recallAt10VsExact: Math.round((agree / probes.length) * 1000) / 1000,
  };
  log(`scale: kNN in the database p95 HNSW ${imageDb.hnswP95} ms vs exact ${imageDb.exactP95} ms`);

  // Text logo search: the in-process index over 1M logos' OCR text (built on the first search), beside a trigram LIKE.
  const textSearch = async (q: string) => {
    const s = performance.now();
    const res = await fetch(`${base}/v1/logo-search/text/`, {
      method: 'POST',
      body: JSON.stringify({ query_text: q }),
      headers: { 'X-API-Key': account.key, 'Content-Type': 'application/json' },
    });
    if (res.status !== 200) throw new Error(`text search answered ${res.status}`);
    await res.json();
    return performance.now() - s;
  };
  const tb = performance.now();
  await textSearch('warm');
  const buildS = (performance.now() - tb) / 1000;
  const tq = new Rng(77, 7, 7);
  const textQueries = Array.from({ length: opts.queries }, () => {
    const w = tq.pick(words);
    return tq.chance(0.3) ? `${w.slice(0, -1)}${w.at(-1) === 'A' ? 'E' : 'A'}` : w;
  });
  const tt: number[] = [];
  for (const q of textQueries) tt.push(await textSearch(q));
  const bt: number[] = [];
  for (const q of textQueries.slice(0, 60)) {
    const s = performance.now();
    await client.query(
      `select l.application_number from logos l join trademarks t using (application_number)
      where nishaan_norm(l.ocr_text) like '%' || $1 || '%' limit 50`,
      [q],
    );
    bt.push(performance.now() - s);
  }
  const text = {
    buildS: Math.round(buildS * 10) / 10,
    p50: pct(tt, 0.5),
    p95: pct(tt, 0.95),
    n: tt.length,
    baselineP95: pct(bt, 0.95),
    ratio: Math.round((pct(bt, 0.95) / pct(tt, 0.95)) * 10) / 10,
  };
  log(`scale: text logo search p95 ${text.p95} ms (index built in ${text.buildS} s); trigram LIKE p95 ${text.baselineP95} ms`);

  // Indexing throughput: real rendered logos, pending, indexed by the workers and the sidecar on this machine, with
  // everything a search needs built first: the workers' own start builds what concept search finds candidates by
  // (src/logos/hogIndex.ts; timed), so the timed part measures indexing alone, each logo's inserts into every index.
  const tc = performance.now();
  const first = startLogoWorkers(deps, { plan: false });
  await first.conceptIndex();
  await first.close();
  const conceptIndexS = Math.round((performance.now() - tc) / 100) / 10;
  log(`scale: concept search's HOG candidates indexed in ${conceptIndexS} s`);
  const renders = icons.slice(0, opts.indexLogos);
  for (let i = 0; i < renders.length; i++) {
    const a = String(30_000_000 + i);
    await deps.store.put(`bench/${a}.png`, await perturb(renders[i], 'text'));
    await client.query(
      `insert into trademarks (application_number, word_mark, class_number, status, application_date, proprietor_name, tm_type, slug)
      values ($1, 'BENCH', 1, 'Registered', '2020-01-01', 'OWNER', 'DEVICE', $2)`,
      [a, `bench-i-${i}`],
    );
    await client.query(`insert into logos (application_number, object_key) values ($1, $2)`, [a, `bench/${a}.png`]);
  }
  const ti = performance.now();
  const workers = startLogoWorkers(deps);
  for (;;) {
    await new Promise((res) => setTimeout(res, 250));
    const c = await repo.counts();
    if (c.pending === 0) break;
  }
  const seconds = (performance.now() - ti) / 1000;
  await workers.close();
  const indexing = {
    logos: renders.length,
    seconds: Math.round(seconds * 10) / 10,
    perSecond: Math.round((renders.length / seconds) * 10) / 10,
    ocrWorkers: served.OCR_WORKERS,
    jobsAtOnce: config.LOGO_INDEX_CONCURRENCY,
  };
  log(`scale: indexed ${renders.length} logos in ${indexing.seconds} s (${indexing.perSecond}/s)`);

  server.closeAllConnections();
  await new Promise((res) => server.close(res));
  // The run's queues and rate limits, under its own prefix, go with it.
  const redis = deps.connections.commands;
  for (let cursor = '0'; ; ) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length) await redis.unlink(...keys);
    cursor = next;
    if (cursor === '0') break;
  }
  await deps.close();
  await sidecar.close();
  await client.end();
  await db.destroy();
  fs.rmSync(storeDir, { recursive: true, force: true });
  return {
    vectors: opts.vectors,
    loadS: Math.round(loadS),
    cache,
    hnswBuildS: Math.round(hnswBuildS),
    image,
    imageDb,
    text,
    indexing,
    conceptIndexS,
    kinds,
    embedding,
    model: spec.name,
    load: { start: loadStart, end: os.loadavg()[0] },
  };
}
