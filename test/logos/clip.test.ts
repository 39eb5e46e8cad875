import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { indexLogos } from '../../src/logos/indexer.ts';
import { findClip, MODELS_DIR, planModels, readManifest } from '../../src/logos/models.ts';
import { LogoImage, loadEmbedder } from '../../src/logos/pixels/embedders.ts';
import { cosine } from '../../src/logos/pixels/hog.ts';
import { decodeLogo } from '../../src/logos/pixels/image.ts';
import { type Sidecar, startSidecar } from '../../workers/sidecar/server.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addLogos, blob, drawLogo } from '../helpers/logos.ts';

// A CLIP vision model placed in models/clip/ is found, loaded through onnxruntime-node with CLIP's
// preprocessing, preferred over our own model, and named in every response. The model here is a
// stand-in of a few KB with a CLIP export's inputs and outputs (test/fixtures/clip/make.py).

const FIXTURE = new URL('../fixtures/clip/', import.meta.url).pathname;
const expected = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'expected.json'), 'utf8')).embedding as number[];

function modelsDirWithClip(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-models-'));
  for (const f of fs.readdirSync(MODELS_DIR)) {
    if (fs.statSync(path.join(MODELS_DIR, f)).isFile()) fs.copyFileSync(path.join(MODELS_DIR, f), path.join(dir, f));
  }
  fs.mkdirSync(path.join(dir, 'clip', 'onnx'), { recursive: true });
  fs.copyFileSync(path.join(FIXTURE, 'model', 'vision_model.onnx'), path.join(dir, 'clip', 'onnx', 'vision_model.onnx'));
  fs.copyFileSync(path.join(FIXTURE, 'model', 'preprocessor_config.json'), path.join(dir, 'clip', 'preprocessor_config.json'));
  return dir;
}

describe('a CLIP model placed in models/', function () {
  this.timeout(60_000);
  const dir = modelsDirWithClip();
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is found with its preprocessing and chosen first; LOGO_MODEL can name another', () => {
    const clip = findClip(dir)!;
    expect(clip.name).to.match(/^clip-vision-[0-9a-f]{8}$/);
    expect(clip.input).to.deep.include({ name: 'pixel_values', preprocess: 'clip-rgb', size: 224 });
    expect(planModels('auto', dir).primary.name).to.equal(clip.name);
    expect(planModels('nishaan-hog-v1', dir).primary.name).to.equal('nishaan-hog-v1');
    expect(() => planModels('no-such-model', dir)).to.throw(/no such model/);
    expect(findClip(MODELS_DIR)).to.equal(null);
  });

  it("embeds through onnxruntime-node with CLIP's resize, crop and normalisation", async () => {
    const e = await loadEmbedder(findClip(dir)!, dir);
    expect(e.dimensions).to.equal(16);
    const bytes = fs.readFileSync(path.join(FIXTURE, 'pattern.png'));
    const v = await e.embed(new LogoImage(bytes, await decodeLogo(bytes)));
    expect(cosine(v, expected)).to.be.greaterThan(0.9999);
    expect(Math.hypot(...v)).to.be.closeTo(1, 1e-5);
  });

  it('refuses a model file that does not match its manifest checksum, so the sidecar falls back to HOG and says why', async () => {
    const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-models-'));
    const manifest = readManifest(MODELS_DIR);
    const cnn = manifest.models.find((m) => m.name === manifest.default)!;
    fs.writeFileSync(path.join(broken, cnn.files[0].path), 'not the trained model');
    cnn.files[0].sha256 = cnn.files[0].sha256 || '0'.repeat(64);
    fs.writeFileSync(path.join(broken, 'manifest.json'), JSON.stringify(manifest));
    let s: Sidecar | undefined;
    try {
      s = await startSidecar({ modelsDir: broken, workers: 1, ocrWorkers: 1 });
      expect(s.model).to.include({ model: 'nishaan-hog-v1', fallbackUsed: true });
      expect(s.model.reason).to.match(/sha256|missing/);
    } finally {
      await s?.close();
      fs.rmSync(broken, { recursive: true, force: true });
    }
  });

  describe('in the sidecar and the API', () => {
    let sidecar: Sidecar;
    let app: TestApp;
    before(async () => {
      sidecar = await startSidecar({ modelsDir: dir, workers: 1, ocrWorkers: 1 });
      app = await createTestApp({ ML_URL: sidecar.url });
      await addLogos(app, [
        { app: '5300001', mark: 'CHECKS', draw: { slug: 'github' } },
        { app: '5300002', mark: 'WHALE', draw: { slug: 'docker' } },
      ]);
      const { repo } = app.deps.logos;
      await repo.ensureModelIndex(sidecar.model.model, sidecar.model.dimensions);
      await indexLogos({ repo, sidecar: app.deps.logos.sidecar, store: app.deps.store }, { logos: await repo.claim(10) });
    });
    after(async () => {
      await app?.close();
      await sidecar?.close();
    });

    it('serves the CLIP model and names it on every image result', async () => {
      expect(sidecar.model).to.include({ dimensions: 16, fallbackUsed: false });
      const res = await fetch(`${sidecar.url}/embed`, { method: 'POST', body: blob(fs.readFileSync(path.join(FIXTURE, 'pattern.png'))) });
      const body = await res.json();
      expect(body.model).to.equal(sidecar.model.model);
      expect(cosine(body.vector, expected)).to.be.greaterThan(0.9999);

      const search = await app
        .post('/v1/logo-search/image/')
        .attach('uploaded_file', await drawLogo({ slug: 'github' }), 'q.png')
        .field('similarity_level', 'low');
      expect(search.status, JSON.stringify(search.body)).to.equal(200);
      expect(search.body.model).to.equal(sidecar.model.model);
      expect(search.body.results.length).to.be.greaterThan(0);
      for (const r of search.body.results) expect(r.model).to.equal(sidecar.model.model);
      expect(search.body.results[0].application_number).to.equal('5300001');
    });
  });
});
