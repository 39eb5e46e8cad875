import fs from 'node:fs';
import { expect } from 'chai';
import sharp from 'sharp';
import { iconSvg } from '../../src/ingest/generator/iconSets.ts';
import { nearestLogos } from '../../src/logos/imageSearch.ts';
import { readManifest } from '../../src/logos/models.ts';
import { addLogos, createLogoApp, indexPending, type LogoTestApp } from '../helpers/logos.ts';

// Concept likeness (likeness=concept, docs/logos.md): a flower drawn by another hand is found first by the
// concept score, searched by its own neighbours, where the copy search ranks it below unrelated drawings;
// the copy search's answers are what they were when concept is not asked for; the weight served is the one
// bench/logos.ts --part concepts chose on validation concepts and wrote in models/manifest.json.

/**
 * The query: tabler's flower. The same concept drawn by game-icons (spoted-flower) is registered among 39 unrelated
 * icons (the concept benchmark's distractors, every 400th monochrome one).
 */
const QUERY = 'tabler:flower';
const SAME_CONCEPT = { app: '5500001', key: 'game-icons:spoted-flower' };
const OTHERS = [
  'game-icons:3d-glasses',
  'game-icons:brute',
  'game-icons:double-face-mask',
  'game-icons:heart-necklace',
  'game-icons:morbid-humour',
  'game-icons:run',
  'game-icons:targeted',
  'mdi:account-switch',
  'mdi:attachment-off',
  'mdi:bug-outline',
  'mdi:clipboard-text-off',
  'mdi:delete-circle',
  'mdi:file-percent-outline',
  'mdi:generator-mobile',
  'mdi:keyboard-settings',
  'mdi:monitor-multiple',
  'mdi:phone-incoming',
  'mdi:roman-numeral-7',
  'mdi:state-machine',
  'mdi:truck-delivery',
  'tabler:ad-circle-off',
  'tabler:article-off',
  'tabler:brand-binance',
  'tabler:bucket-droplet',
  'tabler:circle-dashed-number-0',
  'tabler:corner-right-down-double',
  'tabler:diaper',
  'tabler:fire-extinguisher',
  'tabler:hospital-circle-filled',
  'tabler:lock-square-rounded',
  'tabler:music-down',
  'tabler:play',
  'tabler:seedling-off',
  'tabler:square-rounded-chevron-up',
  'tabler:triangle-inverted-filled',
  'lucide:beer-off',
  'lucide:focus',
  'lucide:rectangle-ellipsis',
  'lucide:zoom-in',
].map((key, i) => ({ app: String(5500010 + i), key }));

/** The icon drawn black on white at 128 px, as the concept benchmark draws it. */
const draw = (key: string) =>
  sharp(iconSvg(key, 128))
    .resize(128, 128, { fit: 'contain', background: { r: 255, g: 255, b: 255, alpha: 1 } })
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer();

const apps = (hits: { application_number: string }[]) => hits.map((h) => h.application_number);

describe('logo search by concept', function () {
  this.timeout(120_000);
  let t: LogoTestApp;
  let query: Buffer;
  const served = readManifest().models.find((m) => m.name === readManifest().default)!;

  before(async () => {
    t = await createLogoApp();
    const marks = [SAME_CONCEPT, ...OTHERS];
    await addLogos(
      t.app,
      marks.map((m) => ({ app: m.app, mark: '', draw: { slug: 'github' } })),
    );
    for (const m of marks) await t.app.deps.store.put(`logos/${m.app}.png`, await draw(m.key));
    expect(await indexPending(t)).to.deep.equal({ done: marks.length, failed: 0 });
    query = await draw(QUERY);
  });
  after(() => t.close());

  it('serves the concept score the benchmark chose on validation concepts, as docs/logos.md states it', async () => {
    const c = served.concept!;
    expect(c, 'models/manifest.json: the default model has a concept score').to.be.an('object');
    expect(c.model).to.equal(readManifest().fallback);
    expect(c.evaluation)
      .to.have.property('weight_chosen_on')
      .that.matches(/validation concepts/);
    expect(t.sidecar.model.concept).to.include({ model: c.model, weight: c.weight, candidates: c.candidates });
    const docs = fs.readFileSync(new URL('../../docs/logos.md', import.meta.url), 'utf8');
    expect(docs).to.include(`HOG weight ${c.weight}`);
    expect(docs).to.include(`${c.candidates} × img_cnt`);
  });

  it('finds the same concept drawn by another hand first, where the copy search ranks it lower', async () => {
    const deps = t.app.deps.logos.images;
    const copy = await nearestLogos(deps, query, 10);
    const concept = await nearestLogos(deps, query, 10, null, { likeness: 'concept' });
    expect(concept.likeness).to.equal('concept');
    expect(apps(concept.hits)[0], JSON.stringify(concept.hits.slice(0, 3))).to.equal(SAME_CONCEPT.app);
    const copyRank = apps(copy.hits).indexOf(SAME_CONCEPT.app);
    expect(copyRank === -1 || copyRank > 0, `copy rank ${copyRank}`).to.equal(true);
    // Its similarity is the stored vectors' blend at the served weight: (1 − w) × the CNN's cosine + w × HOG's.
    const w = served.concept!.weight;
    const e = await deps.sidecar.embed(query, true);
    const cosine = async (model: string, v: number[]) => {
      const r = await t.app.deps.db.raw(
        `select 1 - (embedding::halfvec(${v.length}) <=> ?::halfvec(${v.length})) as s
         from logo_vectors where application_number = ? and model = ?`,
        [`[${v.join(',')}]`, SAME_CONCEPT.app, model],
      );
      return Number(r.rows[0].s);
    };
    const blend = (1 - w) * (await cosine(served.name, e.vector)) + w * (await cosine(served.concept!.model, e.fallback_vector!));
    expect(concept.hits[0].similarity).to.be.closeTo(blend, 1e-3);
    expect(concept.thresholds).to.deep.equal(served.concept!.thresholds);
  });

  it('answers likeness=concept through the API with its own minimum similarity, and copy unchanged without it', async () => {
    const ask = (fields: Record<string, string>) => {
      const req = t.app.post('/v1/logo-search/image/').attach('uploaded_file', query, 'flower.png');
      for (const [k, v] of Object.entries(fields)) req.field(k, v);
      return req;
    };
    const concept = await ask({ likeness: 'concept', similarity_level: 'low', img_cnt: '5' });
    expect(concept.status, JSON.stringify(concept.body)).to.equal(200);
    expect(concept.body).to.include({ likeness: 'concept', min_similarity: served.concept!.thresholds.low });
    for (const r of concept.body.results) expect(r.clip_similarity).to.be.at.least(served.concept!.thresholds.low);
    expect(apps(concept.body.results)[0]).to.equal(SAME_CONCEPT.app);

    const plain = await ask({ similarity_level: 'low' });
    const copy = await ask({ similarity_level: 'low', likeness: 'COPY' });
    expect(plain.status, JSON.stringify(plain.body)).to.equal(200);
    expect(plain.body.likeness).to.equal('copy');
    expect(plain.body.min_similarity).to.equal(served.thresholds.low);
    expect(apps(plain.body.results)[0]).to.not.equal(SAME_CONCEPT.app);
    const strip = (b: { results: { logo: unknown }[] }) => b.results.map(({ logo: _, ...r }) => r);
    expect(strip(copy.body)).to.deep.equal(strip(plain.body));
    const direct = await nearestLogos(t.app.deps.logos.images, query, 50);
    expect(apps(plain.body.results)).to.deep.equal(apps(direct.hits.filter((h) => h.similarity >= served.thresholds.low)));
  });

  it('keeps to a filter, searching the filtered marks by the concept score', async () => {
    const ask = (cls: string) =>
      t.app
        .post('/v1/logo-search/image/')
        .attach('uploaded_file', query, 'flower.png')
        .field('likeness', 'concept')
        .field('similarity_level', 'low')
        .field('class_number', cls);
    const kept = await ask('30');
    expect(kept.status, JSON.stringify(kept.body)).to.equal(200);
    expect(apps(kept.body.results)[0]).to.equal(SAME_CONCEPT.app);
    const none = await ask('31');
    expect(none.status, JSON.stringify(none.body)).to.equal(200);
    expect(none.body.results).to.deep.equal([]);
  });

  it('takes likeness in bulk too, each item saying which score ranked it', async () => {
    const bulk = await t.app
      .post('/v1/logo-search/bulk-image/')
      .attach('uploaded_files', query, 'flower.png')
      .field('likeness', 'concept')
      .field('similarity_level', 'low');
    expect(bulk.status, JSON.stringify(bulk.body)).to.equal(200);
    expect(bulk.body.likeness).to.equal('concept');
    expect(bulk.body.results[0]).to.include({ likeness: 'concept', min_similarity: served.concept!.thresholds.low });
  });

  it('refuses a likeness that is neither copy nor concept, and a misspelt parameter, with 400s naming them', async () => {
    const bad = await t.app.post('/v1/logo-search/image/').attach('uploaded_file', query, 'flower.png').field('likeness', 'idea');
    expect(bad.status).to.equal(400);
    expect(bad.body.code).to.equal('validation_error');
    expect(JSON.stringify(bad.body)).to.contain('likeness must be copy or concept');
    const url = await t.app.post('/v1/logo-search/image-url/').send({ image_url: 'https://example.com/a.png', likeness: ['concept'] });
    expect(url.status).to.equal(400);
    expect(JSON.stringify(url.body)).to.contain('likeness');
    const unknown = await t.app.post('/v1/logo-search/image/').attach('uploaded_file', query, 'flower.png').field('likness', 'concept');
    expect(unknown.status).to.equal(400);
    expect(JSON.stringify(unknown.body)).to.contain('likness');
  });
});
