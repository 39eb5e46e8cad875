import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// Which image models exist: models/manifest.json (our trained embedder and the HOG descriptor, with
// files, checksums, training data and evaluation) plus a CLIP vision model when one is placed in
// models/clip/. Nothing here is ever downloaded.

export interface Thresholds {
  high: number;
  medium: number;
  low: number;
}

export interface ModelFile {
  path: string;
  sha256: string;
  bytes: number;
}

export type Preprocess = 'logo-grey' | 'clip-rgb';

export interface Rerank {
  model: string;
  weight: number;
  candidates: number;
}

export interface ConceptScore extends Rerank {
  thresholds: Thresholds;
  evaluation?: unknown;
}

export interface ModelSpec {
  name: string;
  kind: 'onnx' | 'hog';
  dimensions: number;
  files: ModelFile[];
  /** ONNX models: the input tensor, how images are prepared for it, and the output to read. */
  input?: { name: string; preprocess: Preprocess; size: number; mean?: number[]; std?: number[] };
  output?: string;
  /** Minimum clip_similarity of each similarity_level (calibrated on validation icons; of the re-ranked score when re-ranking). */
  thresholds: Thresholds;
  /**
   * Re-ranking: the nearest `candidates` × img_cnt logos under this model are scored again as
   * (1 − weight) × this model's similarity + weight × `model`'s (chosen on validation icons).
   */
  rerank?: Rerank;
  /**
   * The concept score (likeness=concept): the nearest `candidates` × img_cnt logos under this model and under
   * `model` (HOG), re-scored as (1 − weight) × this model's similarity + weight × `model`'s; weight, pool and
   * thresholds chosen on validation concepts by bench/logos.ts --part concepts (docs/logos.md).
   */
  concept?: ConceptScore;
  description?: string;
  training?: unknown;
  evaluation?: unknown;
}

export interface Manifest {
  default: string;
  fallback: string;
  models: ModelSpec[];
}

export const MODELS_DIR = path.resolve(new URL('../../models/', import.meta.url).pathname);

// CLIP image-to-image cosines run high (unrelated logos often score 0.5-0.7): these are its defaults,
// overridable by models/clip/nishaan.json.
const CLIP_THRESHOLDS: Thresholds = { high: 0.9, medium: 0.8, low: 0.7 };
const CLIP_MEAN = [0.48145466, 0.4578275, 0.40821073];
const CLIP_STD = [0.26862954, 0.26130258, 0.27577711];

export function readManifest(dir = MODELS_DIR): Manifest {
  return JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

export function sha256File(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** A model's files are all there and match their checksums; otherwise why not. */
export function verifyFiles(spec: ModelSpec, dir: string): string | null {
  for (const f of spec.files) {
    const p = path.join(dir, f.path);
    if (!fs.existsSync(p)) return `${f.path} is missing`;
    if (f.sha256 && sha256File(p) !== f.sha256) return `${f.path} does not match its sha256 in the manifest`;
  }
  return null;
}

const CLIP_FILES = ['vision_model.onnx', 'onnx/vision_model.onnx', 'model.onnx', 'onnx/model.onnx'];

/**
 * A CLIP vision model placed in `<dir>/clip/` (the Hugging Face layout: vision_model.onnx, optionally
 * under onnx/, beside preprocessor_config.json), described as a model spec; null when there is none.
 * Its output size is read from the model when it is loaded (dimensions 0 here).
 */
export function findClip(dir = MODELS_DIR): ModelSpec | null {
  const root = path.join(dir, 'clip');
  const file = CLIP_FILES.find((f) => fs.existsSync(path.join(root, f)));
  if (!file) return null;
  const pre = readJson(path.join(root, 'preprocessor_config.json')) as {
    image_mean?: number[];
    image_std?: number[];
    crop_size?: number | { height: number };
    size?: number | { shortest_edge?: number };
  } | null;
  const own = readJson(path.join(root, 'nishaan.json')) as { name?: string; thresholds?: Thresholds } | null;
  const crop = pre?.crop_size;
  const size = typeof crop === 'number' ? crop : (crop?.height ?? 224);
  const sha = sha256File(path.join(root, file));
  return {
    name: own?.name ?? `clip-vision-${sha.slice(0, 8)}`,
    kind: 'onnx',
    dimensions: 0,
    files: [{ path: path.join('clip', file), sha256: sha, bytes: fs.statSync(path.join(root, file)).size }],
    input: { name: 'pixel_values', preprocess: 'clip-rgb', size, mean: pre?.image_mean ?? CLIP_MEAN, std: pre?.image_std ?? CLIP_STD },
    output: 'image_embeds',
    thresholds: own?.thresholds ?? CLIP_THRESHOLDS,
    description: 'A CLIP vision model placed in models/clip/',
  };
}

function readJson(file: string): unknown {
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
}

/**
 * The model to search with and the one to fall back to when it cannot be loaded: `choice` "auto"
 * takes a CLIP model when one is placed, else the manifest's default; the fallback is the manifest's
 * (the HOG descriptor, which needs no file).
 */
export function planModels(choice: string, dir = MODELS_DIR): { primary: ModelSpec; fallback: ModelSpec } {
  const manifest = readManifest(dir);
  const clip = findClip(dir);
  const all = [...(clip ? [clip] : []), ...manifest.models];
  const fallback = manifest.models.find((m) => m.name === manifest.fallback);
  if (!fallback) throw new Error(`models/manifest.json: fallback model ${manifest.fallback} is not listed`);
  const primary = choice === 'auto' ? (clip ?? all.find((m) => m.name === manifest.default)) : all.find((m) => m.name === choice);
  if (!primary) throw new Error(`LOGO_MODEL=${choice}: no such model (known: ${all.map((m) => m.name).join(', ')})`);
  return { primary, fallback };
}
