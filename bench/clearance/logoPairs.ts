import { type Icon, loadIcons, renderIcon } from '../../models/train/iconSet.ts';
import { MODELS_DIR, readManifest } from '../../src/logos/models.ts';
import { LogoImage, loadEmbedder } from '../../src/logos/pixels/embedders.ts';
import { decodeLogo } from '../../src/logos/pixels/image.ts';
import { perturb } from '../logos/perturb.ts';
import { Rng } from '../rng.ts';

// Logo pairs from the simple-icons set (the icons the logo model was trained on: only the test split's,
// which training never saw): one icon beside itself recoloured, mirrored or cropped is a confusing pair,
// two brands' icons are not. Each side carries another brand's name, so the words tell nothing and
// the logos decide, as with a copier who keeps the logo and changes the name. Embedded in process by
// the model the register's logos are indexed by (models/manifest.json's default), as the sidecar embeds.

export interface LogoPair {
  a: string;
  b: string;
  /** Cosine of the two images' vectors. */
  cosine: number;
  confusing: boolean;
  kind: 'colour' | 'mirror' | 'crop_10' | 'different';
  /** Icon slugs, for a report. */
  icons: string;
}

export async function logoPairs(perKind: number, seed: number): Promise<{ model: string; pairs: LogoPair[] }> {
  const manifest = readManifest();
  const spec = manifest.models.find((m) => m.name === manifest.default)!;
  const embedder = await loadEmbedder(spec, MODELS_DIR);
  const r = new Rng(seed);
  const byGroup = new Map<string, Icon>();
  for (const i of await loadIcons()) if (i.split === 'test' && !byGroup.has(i.group)) byGroup.set(i.group, i);
  const icons = [...byGroup.values()];
  for (let i = icons.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [icons[i], icons[j]] = [icons[j], icons[i]];
  }
  const vectorOf = async (png: Buffer) => embedder.embed(new LogoImage(png, await decodeLogo(png)));
  const cos = (x: Float32Array, y: Float32Array) => {
    let s = 0;
    for (let k = 0; k < x.length; k++) s += x[k] * y[k];
    return s;
  };
  const name = (icon: Icon) => icon.slug.replace(/[^a-z0-9]+/g, ' ').toUpperCase();
  const pairs: LogoPair[] = [];
  const kinds = ['colour', 'mirror', 'crop_10'] as const;
  const n = Math.min(icons.length / 2, perKind * kinds.length);
  for (let i = 0; i < n; i++) {
    const icon = icons[i];
    const other = icons[icons.length - 1 - i];
    const own = await vectorOf(await renderIcon(icon, 128));
    const kind = kinds[i % kinds.length];
    const copy = await vectorOf(await perturb(icon, kind));
    pairs.push({ a: name(icon), b: name(other), cosine: cos(own, copy), confusing: true, kind, icons: `${icon.slug}/${kind}` });
    const theirs = await vectorOf(await renderIcon(other, 128));
    pairs.push({
      a: name(icon),
      b: name(other),
      cosine: cos(own, theirs),
      confusing: false,
      kind: 'different',
      icons: `${icon.slug}/${other.slug}`,
    });
  }
  return { model: spec.name, pairs };
}
