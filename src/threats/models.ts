import { findClip, readManifest, type Thresholds } from '../logos/models.ts';

// Which logo model the threats analysis compares logos under, and that model's similarity levels.

let manifest: ReturnType<typeof readManifest> | null = null;
const known = () => (manifest ??= readManifest());

/** Models to compare under, best first: the configured one (unless "auto"), a placed CLIP model, the manifest's default, its fallback. */
export function preferredModels(configured: string): string[] {
  const m = known();
  const clip = configured === 'auto' ? findClip()?.name : undefined;
  return [...new Set([configured !== 'auto' ? configured : '', clip ?? '', m.default, m.fallback].filter(Boolean))];
}

// A model we have no thresholds for (none in the manifest): CLIP's defaults (src/logos/models.ts).
const UNKNOWN: Thresholds = { high: 0.9, medium: 0.8, low: 0.7 };

/** The model's calibrated similarity levels (models/manifest.json, or a placed CLIP model's). */
export function modelThresholds(model: string): Thresholds {
  const spec = known().models.find((x) => x.name === model);
  if (spec) return spec.thresholds;
  const clip = findClip();
  return clip && clip.name === model ? clip.thresholds : UNKNOWN;
}
