import { expect } from 'chai';
import { MODELS_DIR, planModels, readManifest, verifyFiles } from '../../src/logos/models.ts';
import { LogoImage, loadEmbedder } from '../../src/logos/pixels/embedders.ts';
import { cosine } from '../../src/logos/pixels/hog.ts';
import { decodeLogo } from '../../src/logos/pixels/image.ts';
import { startSidecar } from '../../workers/sidecar/server.ts';
import { drawLogo } from '../helpers/logos.ts';

// Every model the manifest names stays loadable (issue 22: a new model is added beside the old one, never in
// its place): its file is committed and matches its checksum, it embeds a logo into a unit vector of its
// dimensions, LOGO_MODEL can choose it, and the sidecar serves it by name without falling back.

describe('the models of models/manifest.json', function () {
  this.timeout(60_000);
  const manifest = readManifest();
  const onnx = manifest.models.filter((m) => m.kind === 'onnx');

  it('lists v1 (copies), v2 (concepts), v3 and v4 (uploads), v5 (uploads as they are), the default and the fallback among them', () => {
    const names = manifest.models.map((m) => m.name);
    expect(names).to.include.members([
      'nishaan-logo-cnn-v1',
      'nishaan-logo-cnn-v2',
      'nishaan-logo-cnn-v3',
      'nishaan-logo-cnn-v4',
      'nishaan-logo-cnn-v5',
      'nishaan-hog-v1',
    ]);
    expect(names).to.include(manifest.default);
    expect(names).to.include(manifest.fallback);
  });

  for (const spec of onnx) {
    it(`${spec.name}: its file matches the manifest, it embeds a logo and LOGO_MODEL chooses it`, async () => {
      expect(verifyFiles(spec, MODELS_DIR)).to.equal(null);
      expect(planModels(spec.name).primary.name).to.equal(spec.name);
      const e = await loadEmbedder(spec, MODELS_DIR);
      const bytes = await drawLogo({ slug: 'github' });
      const img = new LogoImage(bytes, await decodeLogo(bytes));
      const v = await e.embed(img);
      expect(v.length).to.equal(spec.dimensions);
      expect(Math.hypot(...v)).to.be.closeTo(1, 1e-4);
      // The same image embeds the same; another logo does not.
      expect(cosine(v, await e.embed(new LogoImage(bytes, await decodeLogo(bytes))))).to.be.greaterThan(0.9999);
      const other = await drawLogo({ slug: 'spotify' });
      expect(cosine(v, await e.embed(new LogoImage(other, await decodeLogo(other))))).to.be.lessThan(0.99);
    });
  }

  it('the sidecar serves the alternative model by name, without falling back', async () => {
    const alt = onnx.find((m) => m.name !== manifest.default)!;
    const s = await startSidecar({ model: alt.name, workers: 1, ocrWorkers: 1 });
    try {
      expect(s.model).to.include({ model: alt.name, fallbackUsed: false });
      expect(s.model.thresholds).to.deep.equal(alt.thresholds);
    } finally {
      await s.close();
    }
  });
});
