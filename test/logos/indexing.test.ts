import { spawn } from 'node:child_process';
import { expect } from 'chai';
import sharp from 'sharp';
import { hogIndexModel, projectHog } from '../../src/logos/hogIndex.ts';
import { indexLogos } from '../../src/logos/indexer.ts';
import { SidecarClient } from '../../src/logos/sidecarClient.ts';
import { startLogoWorkers } from '../../workers/logos.ts';
import { addLogos, createLogoApp, drawLogo, type LogoTestApp } from '../helpers/logos.ts';
import { insertMarks } from '../helpers/marks.ts';

// Logo indexing in the background: the planner turns pending logos into BullMQ jobs, the jobs OCR
// and embed each logo through the sidecar, a bad image is recorded with its reason and retried.

const ROOT = new URL('../..', import.meta.url).pathname;

async function until<T>(what: string, f: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('logo indexing', function () {
  this.timeout(90_000);
  let t: LogoTestApp;
  const state = (app: string) => t.app.deps.db('logos').where({ application_number: app }).first();

  before(async () => {
    t = await createLogoApp({}, { plan: true });
  });
  after(() => t.close());

  it("indexes new logos in the background: OCR text, a vector of the sidecar's model, and text search sees them at once", async () => {
    await addLogos(t.app, [
      { app: '5400001', mark: 'MOONLIGHT', draw: { slug: 'python', text: 'MOONLIGHT' } },
      { app: '5400002', mark: '', draw: { slug: 'docker' } },
    ]);
    const rows = await until('both indexed', async () => {
      const r = await t.app.deps.db('logos').whereIn('application_number', ['5400001', '5400002']).orderBy('application_number');
      return r.every((x) => x.index_state === 'done') && r;
    });
    expect(rows[0].ocr_detected).to.contain('MOONLIGHT');
    expect(rows[0].indexed_at).to.be.instanceOf(Date);
    // The model's vector, and the HOG vector that re-ranking (and a fallback) reads.
    const vectors = await t.app.deps
      .db('logo_vectors')
      .whereIn('application_number', ['5400001', '5400002'])
      .orderBy(['application_number', 'model']);
    // And HOG's projection, by which concept search finds candidates (src/logos/hogIndex.ts).
    const models = [...new Set([t.sidecar.model.model, 'nishaan-hog-v1', 'nishaan-hog-v1-p256'])].sort();
    expect(vectors.map((v) => [v.application_number, v.model])).to.deep.equal(
      ['5400001', '5400002'].flatMap((a) => models.map((m) => [a, m])),
    );
    const res = await t.app.post('/v1/logo-search/text/').send({ query_text: 'moonlite' });
    expect(res.body.results.map((r: { application_number: string }) => r.application_number)).to.include('5400001');
  });

  it("stores no HOG vector for a blank picture (it has no edges), so searches meet it by the model's vector and score it", async () => {
    await insertMarks(t.app.deps.db, [{ app: '5400010', mark: '', type: 'DEVICE' }]);
    const blank = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#d0d0d0' } })
      .png()
      .toBuffer();
    await t.app.deps.store.put('logos/5400010.png', blank);
    await t.app.deps.db('logos').insert({ application_number: '5400010', object_key: 'logos/5400010.png', content_type: 'image/png' });
    await until('the blank logo indexed', async () => (await state('5400010'))?.index_state === 'done');
    const models = await t.app.deps.db('logo_vectors').where({ application_number: '5400010' }).pluck('model');
    expect(models).to.deep.equal([t.sidecar.model.model]);
    const res = await t.app.post('/v1/logo-search/image/').attach('uploaded_file', blank, 'b.png').field('similarity_level', 'low');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    for (const r of res.body.results) expect(r.clip_similarity, r.application_number).to.be.a('number');
  });

  it("gives a register indexed before the HOG projection existed its projections, indexes them, drops HOG's own index", async () => {
    const db = t.app.deps.db;
    const hog = 'nishaan-hog-v1';
    // 5400002 as a logo indexed before the projection: its HOG vector, none of the projection, and HOG's full index.
    await db('logo_vectors')
      .where({ application_number: '5400002', model: hogIndexModel(hog) })
      .delete();
    await t.app.deps.logos.repo.ensureModelIndex(hog, 900);
    const workers = startLogoWorkers(t.app.deps, { plan: false });
    try {
      await workers.conceptIndex();
    } finally {
      await workers.close();
    }
    const rows = await db.raw(
      `select h.embedding::text as hog, p.embedding::text as projection from logo_vectors h
       join logo_vectors p on p.application_number = h.application_number and p.model = ?
       where h.application_number = '5400002' and h.model = ?`,
      [hogIndexModel(hog), hog],
    );
    expect(rows.rows).to.have.length(1);
    const want = projectHog(JSON.parse(rows.rows[0].hog));
    JSON.parse(rows.rows[0].projection).forEach((x: number, i: number) => expect(x).to.be.closeTo(want[i], 2e-3));
    const indexes = await db.raw(
      `select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
       where c.relname like 'logo_vectors_hnsw_nishaan_hog%'`,
    );
    expect(indexes.rows).to.deep.equal([{ name: 'logo_vectors_hnsw_nishaan_hog_v1_p256', valid: true }]);
  });

  it('records an unusable image as failed with its reason, retries it later, and indexes it once the file is fixed', async () => {
    await addLogos(t.app, [{ app: '5400003', mark: 'BROKEN', draw: { slug: 'github' } }]);
    const good = await t.app.deps.store.read('logos/5400003.png');
    await t.app.deps.store.put('logos/5400003.png', good.subarray(0, 100));
    const failed = await until('the failure recorded', async () => {
      const r = await state('5400003');
      return r.index_state === 'failed' && r;
    });
    expect(failed.index_error).to.match(/^image_corrupt: /);
    expect(failed.index_attempts).to.equal(1);
    expect(failed.index_after.getTime()).to.be.greaterThan(Date.now());
    // Not dropped: due again after its backoff (brought forward here), then indexed from the fixed file.
    await t.app.deps.store.put('logos/5400003.png', good);
    await t.app.deps
      .db('logos')
      .where({ application_number: '5400003' })
      .update({ index_after: new Date(Date.now() - 1000) });
    const done = await until('the retry', async () => {
      const r = await state('5400003');
      return r.index_state === 'done' && r;
    });
    expect(done.index_error).to.equal(null);
  });

  it('sets a logo whose image changes back to pending and drops its vectors, in the same transaction', async () => {
    await until('5400002 indexed', async () => (await state('5400002')).index_state === 'done');
    await t.app.deps.store.put('logos/5400002-v2.png', await drawLogo({ slug: 'firefox' }));
    await t.app.deps.db.transaction(async (trx) => {
      await trx('logos').where({ application_number: '5400002' }).update({ object_key: 'logos/5400002-v2.png' });
      const r = await trx('logos').where({ application_number: '5400002' }).first();
      expect(r).to.include({ index_state: 'pending', index_attempts: 0 });
      expect(await trx('logo_vectors').where({ application_number: '5400002' })).to.deep.equal([]);
    });
    await until('re-indexed', async () => (await state('5400002')).index_state === 'done');
  });

  it('leaves logos pending (not failed) when the sidecar cannot be reached, so the retry finds them', async () => {
    await t.workers.close();
    await addLogos(t.app, [{ app: '5400004', mark: 'AWAY', draw: { slug: 'apple' } }]);
    const { repo } = t.app.deps.logos;
    const due = await repo.claim(10);
    expect(due.map((d) => d.application_number)).to.deep.equal(['5400004']);
    const away = new SidecarClient('http://127.0.0.1:9', 1000);
    let err: Error | undefined;
    try {
      await indexLogos({ repo, sidecar: away, store: t.app.deps.store }, { logos: due });
    } catch (e) {
      err = e as Error;
    }
    expect((err as { code?: string })?.code).to.equal('service_unavailable');
    expect(await state('5400004')).to.include({ index_state: 'pending', index_after: null, index_attempts: 0 });
  });

  it('reindex-logos indexes what is pending with progress, and --status reports', async () => {
    const env = {
      ...process.env,
      ...{
        DATABASE_URL: t.app.deps.config.DATABASE_URL,
        ML_URL: t.sidecar.url,
        QUEUE_PREFIX: t.app.deps.config.QUEUE_PREFIX,
        OBJECT_STORE_DIR: t.app.deps.config.objectStoreDir,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'test',
      },
    };
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/reindex-logos.ts', ...args], { cwd: ROOT, env });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        child.on('exit', (code) => resolve({ code, out }));
      });
    const r = await run([]);
    expect(r.out, r.out).to.match(/logos\/s/);
    expect(r.code, r.out).to.equal(0);
    expect((await state('5400004')).index_state).to.equal('done');
    const s = await run(['--status']);
    expect(s.out).to.match(/^(\d+) of \1 indexed, 0 pending, 0 failed/m);
  });
});
