import sharp from 'sharp';
import { MODELS_DIR, readManifest } from '../../src/logos/models.ts';
import { type Embedder, LogoImage, loadEmbedder } from '../../src/logos/pixels/embedders.ts';
import { decodeLogo } from '../../src/logos/pixels/image.ts';
import type { LogoProbe } from '../../src/threats/repository.ts';
import type { Rng } from '../rng.ts';

// A copier's changes to a logo (issue 21, item 6): the picture recoloured, mirrored or cropped by a
// tenth, filed under another name. Written with sharp, not with the logo model's training changes.

export const LOGO_EDITS = ['recolour', 'mirror', 'crop'] as const;
export type LogoEdit = (typeof LOGO_EDITS)[number];

export async function editLogo(bytes: Buffer, kind: LogoEdit, r: Rng): Promise<Buffer> {
  const img = sharp(bytes).flatten({ background: '#ffffff' });
  switch (kind) {
    case 'recolour':
      // Hue turned a third to two thirds of the way round, and the ink lightened or darkened.
      return img
        .modulate({ hue: 120 + r.int(120), brightness: 0.8 + 0.4 * r.next() })
        .png()
        .toBuffer();
    case 'mirror':
      return img.flop().png().toBuffer();
    case 'crop': {
      const m = await sharp(bytes).metadata();
      const w = m.width ?? 0;
      const h = m.height ?? 0;
      const dx = Math.floor(w * 0.1);
      const dy = Math.floor(h * 0.1);
      // A tenth off one side, the side drawn at random.
      const side = r.int(4);
      const box = {
        left: side === 0 ? dx : 0,
        top: side === 1 ? dy : 0,
        width: w - (side === 0 || side === 2 ? dx : 0),
        height: h - (side === 1 || side === 3 ? dy : 0),
      };
      return img.extract(box).png().toBuffer();
    }
  }
}

/** The register's logo model, run in process as the sidecar runs it (workers/sidecar/embedThread.ts). */
export async function logoModel(): Promise<{ name: string; embed: (bytes: Buffer) => Promise<LogoProbe> }> {
  const manifest = readManifest();
  const spec = manifest.models.find((m) => m.name === manifest.default)!;
  const e: Embedder = await loadEmbedder(spec, MODELS_DIR);
  return {
    name: spec.name,
    embed: async (bytes) => {
      const v = await e.embed(new LogoImage(bytes, await decodeLogo(bytes)));
      return { model: spec.name, dims: v.length, vector: Array.from(v) };
    },
  };
}
