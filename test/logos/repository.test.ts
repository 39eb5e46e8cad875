import { expect } from 'chai';
import { LogoRepository } from '../../src/logos/repository.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks } from '../helpers/marks.ts';

// Nearest logos in pgvector: the HNSW index of a model, the page size, and re-ranking with a second
// model's vectors.

describe('logo vectors in PostgreSQL', function () {
  this.timeout(30_000);
  let app: TestApp;
  let repo: LogoRepository;

  before(async () => {
    app = await createTestApp();
    repo = new LogoRepository(app.deps.db);
    const apps = ['5500001', '5500002', '5500003', '5500004'];
    await insertMarks(
      app.deps.db,
      apps.map((a) => ({ app: a, mark: `MARK ${a}`, type: 'DEVICE' })),
    );
    await app.deps.db('logos').insert(apps.map((a) => ({ application_number: a, object_key: `logos/${a}.png`, index_state: 'done' })));
    const unit = (v: number[]) => v.map((x) => x / Math.hypot(...v));
    // Under model A, 1 is nearest the query [1, 0], then 2, 3, 4; under B, 3 matches the query best.
    const a = [
      [1, 0.05],
      [1, 0.2],
      [1, 0.4],
      [0, 1],
    ];
    const b = [
      [0, 1],
      [0.5, 0.5],
      [1, 0],
      [0, 1],
    ];
    for (const [i, appNo] of apps.entries()) {
      await app.deps.db.raw(
        `insert into logo_vectors (application_number, model, embedding) values (?, 'model-a', ?::halfvec), (?, 'model-b', ?::halfvec)`,
        [appNo, `[${unit(a[i])}]`, appNo, `[${unit(b[i])}]`],
      );
    }
    await repo.ensureModelIndex('model-a', 2);
  });
  after(() => app.close());

  it('returns the k nearest under a model through its own partial HNSW index, most similar first', async () => {
    const hits = await repo.nearest('model-a', [1, 0], 3);
    expect(hits.map((h) => h.application_number)).to.deep.equal(['5500001', '5500002', '5500003']);
    expect(hits[0]).to.include({ word_mark: 'MARK 5500001', object_key: 'logos/5500001.png' });
    expect(hits[0].similarity).to.be.closeTo(0.9988, 0.002);
    const idx = await app.deps.db.raw(`select indexdef from pg_indexes where indexname = 'logo_vectors_hnsw_model_a'`);
    expect(idx.rows[0].indexdef).to.match(/USING hnsw .*halfvec_cosine_ops.*WHERE \(model = 'model-a'::text\)/);
  });

  it("measures the model's index against shared_buffers as the server has them, and has nothing for a model without one", async () => {
    const fit = await repo.indexCacheFit('model-a');
    const size = await app.deps.db.raw(`select pg_relation_size('logo_vectors_hnsw_model_a') as s, current_setting('shared_buffers') as b`);
    expect(fit).to.deep.equal({
      model: 'model-a',
      indexBytes: Number(size.rows[0].s),
      sharedBuffersBytes: parseSize(size.rows[0].b),
    });
    expect(fit!.indexBytes).to.be.above(0);
    expect(await repo.indexCacheFit('model-without-index')).to.equal(null);
  });

  it("re-ranks the candidates with the second model's similarity, by weight", async () => {
    const hits = await repo.nearest('model-a', [1, 0], 2, { model: 'model-b', vector: [1, 0], weight: 0.5, candidates: 2 });
    // Candidates 1..4 (2 × 2); blended: 3 scores (0.93 + 1) / 2, ahead of 1 (0.999 + 0) / 2.
    expect(hits.map((h) => h.application_number)).to.deep.equal(['5500003', '5500002']);
    expect(hits[0].similarity).to.be.closeTo((0.928 + 1) / 2, 0.01);
    const refused = await repo.nearest("model'; drop table logos; --", [1, 0], 2).then(
      () => null,
      (err: Error) => err.message,
    );
    expect(refused).to.match(/not usable in SQL/);
  });

  it("keeps the first score of a logo without the second model's vector, and cuts to k after the blend", async () => {
    const [row] = await app.deps.db('logo_vectors').where({ application_number: '5500001', model: 'model-b' }).del().returning('*');
    try {
      const hits = await repo.nearest('model-a', [1, 0], 2, { model: 'model-b', vector: [1, 0], weight: 0.5, candidates: 4 });
      // 1 keeps its 0.999 under A alone; 3 blends to (0.93 + 1) / 2; 2 to (0.98 + 0.71) / 2 is cut.
      expect(hits.map((h) => h.application_number)).to.deep.equal(['5500001', '5500003']);
      expect(hits[0].similarity).to.be.closeTo(0.9988, 0.002);
      expect(hits[1]).to.include({ word_mark: 'MARK 5500003', object_key: 'logos/5500003.png' });
    } finally {
      await app.deps.db('logo_vectors').insert(row);
    }
  });

  it("finds the concept score's candidates among each model's own nearest, not only among the first model's", async () => {
    // k = 1, one candidate under each: A's nearest is 1, B's is 3; blended at 0.8, 3 scores 0.2 × 0.93 + 0.8 × 1.
    const concept = await repo.nearestConcept('model-a', [1, 0], { model: 'model-b', vector: [1, 0], weight: 0.8, candidates: 1 }, 1);
    expect(concept.map((h) => h.application_number)).to.deep.equal(['5500003']);
    expect(concept[0].similarity).to.be.closeTo(0.2 * 0.928 + 0.8, 0.01);
    expect(concept[0]).to.include({ word_mark: 'MARK 5500003', object_key: 'logos/5500003.png' });
    // Re-ranking the first model's nearest alone never sees 3.
    const copy = await repo.nearest('model-a', [1, 0], 1, { model: 'model-b', vector: [1, 0], weight: 0.8, candidates: 1 });
    expect(copy.map((h) => h.application_number)).to.deep.equal(['5500001']);
  });

  it("finds the concept score's second candidates by an index model when one is given, scored by the second model", async () => {
    // The index (as the HOG vectors' projection stands for them) ranks 2 nearest the query, where model-b ranks 3.
    const index = [
      ['5500001', [0, 1]],
      ['5500002', [1, 0]],
      ['5500003', [-1, 0]],
    ] as const;
    await app.deps
      .db('logo_vectors')
      .insert(index.map(([a, v]) => ({ application_number: a, model: 'model-b-p2', embedding: JSON.stringify(v) })));
    const second = { model: 'model-b', vector: [1, 0], weight: 0.8, candidates: 1 };
    const concept = await repo.nearestConcept('model-a', [1, 0], { ...second, index: { model: 'model-b-p2', vector: [1, 0] } }, 1);
    // Candidates: A's nearest (1) and the index's (2); 2 blends 0.2 × 0.98 + 0.8 × 0.71, model-b's own vectors scoring it.
    expect(concept.map((h) => h.application_number)).to.deep.equal(['5500002']);
    expect(concept[0].similarity).to.be.closeTo(0.2 * 0.981 + 0.8 * Math.SQRT1_2, 0.01);
    // The marks whose derived vectors are still to be made: those with a model-b vector and none of model-b-p2.
    expect((await repo.vectorsWithout('model-b', 'model-b-p2', 10)).map((r) => r.application_number)).to.deep.equal(['5500004']);
    // Paged by key: nothing after the last one.
    expect(await repo.vectorsWithout('model-b', 'model-b-p2', 10, '5500004')).to.deep.equal([]);
    expect((await repo.vectorsWithout('model-b', 'model-b-p2', 10, '5500003')).map((r) => r.application_number)).to.deep.equal(['5500004']);
    await repo.saveVectors('model-b-p2', [{ application_number: '5500004', vector: [0, 1] }]);
    expect(await repo.vectorsWithout('model-b', 'model-b-p2', 10)).to.deep.equal([]);
  });

  it("builds a model's index concurrently, again when one was left invalid, and not once cancelled", async () => {
    const state = async () =>
      (
        await app.deps.db.raw(
          `select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
           where c.relname = 'logo_vectors_hnsw_model_b'`,
        )
      ).rows[0]?.valid;
    const stopped = new AbortController();
    stopped.abort();
    const cancelled = await repo.ensureModelIndex('model-b', 2, { concurrently: true, signal: stopped.signal }).then(
      () => null,
      (err: Error) => err.name,
    );
    expect(cancelled).to.equal('AbortError');
    expect(await state()).to.equal(undefined);
    await repo.ensureModelIndex('model-b', 2, { concurrently: true });
    expect(await state()).to.equal(true);
    // As a failed concurrent build leaves it.
    await app.deps.db.raw(`update pg_index set indisvalid = false where indexrelid = 'logo_vectors_hnsw_model_b'::regclass`);
    await repo.ensureModelIndex('model-b', 2, { concurrently: true });
    expect(await state()).to.equal(true);
  });
});

/** A PostgreSQL size setting as it is shown ("128MB", "1GB", "16384kB") in bytes. */
function parseSize(shown: string): number {
  const m = /^(\d+)(kB|MB|GB|TB)$/.exec(shown);
  if (!m) throw new Error(`unexpected size setting ${shown}`);
  return Number(m[1]) * 1024 ** (['kB', 'MB', 'GB', 'TB'].indexOf(m[2]) + 1);
}
