import { parentPort, workerData } from 'node:worker_threads';
import { ImageError } from '../../src/logos/imageInput.ts';
import type { ModelSpec } from '../../src/logos/models.ts';
import { type Embedder, LogoImage, loadEmbedder, regionImages } from '../../src/logos/pixels/embedders.ts';
import { type Decoded, decodeLogo, greyOfColour, sharpForEmbedding } from '../../src/logos/pixels/image.ts';
import type { Box } from '../../src/logos/regionScores.ts';
import { ocrInput } from './ocrInput.ts';

// One sidecar worker thread: decodes and normalises images with sharp and runs the embedders.
// It loads the primary model, or the fallback when the primary cannot be loaded, and always HOG
// (the fallback) for re-ranking and comparison.

export interface ThreadData {
  primary: ModelSpec;
  fallback: ModelSpec;
  modelsDir: string;
}

export interface EmbedTask {
  bytes: ArrayBuffer;
  /** Also the fallback model's vector (HOG), for re-ranking or comparison. */
  withFallback?: boolean;
  /** Also a grey PNG of the decoded image, upscaled for OCR. */
  forOcr?: boolean;
  /**
   * Decode in colour, for region finding, and report the decoded image ({ partial: Decoded }) before embedding
   * it: its regions are found (a FindTask) and embedded (an EmbedRegionTask each) by whichever threads are free.
   */
  regions?: boolean;
}

/**
 * Find the candidate logo regions (src/logos/pixels/regions.ts) of an image an EmbedTask decoded: reports them
 * ({ partial: FoundRegion[] }) and answers how many.
 */
export interface FindTask {
  regionsOf: Decoded;
}

/** A region found, ready to be embedded by any thread (an EmbedRegionTask). */
export interface FoundRegion {
  /** In the pixels of the image as sent. */
  box: Box;
  score: number;
  /** The region's pixels, and where it lies in the image as decoded (a CLIP model cuts the image afresh). */
  decoded: Decoded;
  crop: { box: Box; width: number; height: number };
}

/** Embed one region found: answers RegionVectors. */
export interface EmbedRegionTask {
  region: FoundRegion;
  /** The image's bytes (a CLIP model decodes the region afresh from them). */
  bytes: ArrayBuffer;
  withFallback?: boolean;
}

export interface RegionVectors {
  /** In the pixels of the image as sent. */
  box: { left: number; top: number; width: number; height: number };
  score: number;
  vector: Float32Array;
  fallbackVector?: Float32Array;
}

export interface EmbedResult {
  model: string;
  vector: Float32Array;
  fallbackVector?: Float32Array;
  width: number;
  height: number;
  format: string;
  ocrPng?: Uint8Array;
}

export interface Loaded {
  model: string;
  dimensions: number;
  fallbackUsed: boolean;
  reason?: string;
  fallbackDimensions: number;
}

const { primary, fallback, modelsDir } = workerData as ThreadData;
sharpForEmbedding();

let main: Embedder;
let hogEmbedder: Embedder;
let reason: string | undefined;
try {
  hogEmbedder = await loadEmbedder(fallback, modelsDir);
  try {
    main = primary.name === fallback.name ? hogEmbedder : await loadEmbedder(primary, modelsDir);
  } catch (err) {
    reason = (err as Error).message;
    main = hogEmbedder;
  }
  // Made now rather than by the first search, which would wait for it (image.ts).
  await greyOfColour();
  const loaded: Loaded = {
    model: main.name,
    dimensions: main.dimensions,
    fallbackUsed: main === hogEmbedder && primary.name !== fallback.name,
    reason,
    fallbackDimensions: hogEmbedder.dimensions,
  };
  parentPort!.postMessage({ ready: true, loaded });
} catch (err) {
  parentPort!.postMessage({ failed: (err as Error).message });
}

parentPort!.on('message', async (task: EmbedTask | FindTask | EmbedRegionTask) => {
  try {
    const value = 'regionsOf' in task ? findIn(task) : 'region' in task ? await embedRegion(task) : await embedImage(task);
    parentPort!.postMessage({ ok: true, value });
  } catch (err) {
    const e = err as Error;
    parentPort!.postMessage({ ok: false, error: { message: e.message, code: err instanceof ImageError ? err.code : 'internal' } });
  }
});

/** HOG's vector of an image the main model embedded as `vector`: that one when HOG is the main model. */
const hogOf = (image: LogoImage, vector: Float32Array): Promise<Float32Array> =>
  main === hogEmbedder ? Promise.resolve(vector) : hogEmbedder.embed(image);

async function embedImage(task: EmbedTask): Promise<EmbedResult> {
  const bytes = Buffer.from(task.bytes);
  const img = new LogoImage(bytes, await decodeLogo(bytes, { colour: !!task.regions }));
  if (task.regions) parentPort!.postMessage({ partial: img.decoded });
  const vector = await main.embed(img);
  const value: EmbedResult = {
    model: main.name,
    vector,
    width: img.decoded.source.width,
    height: img.decoded.source.height,
    format: img.decoded.source.format,
  };
  if (task.withFallback) value.fallbackVector = await hogOf(img, vector);
  if (task.forOcr) value.ocrPng = await ocrInput(img.decoded);
  return value;
}

// Buffers arrive from another thread as plain Uint8Arrays.
const asBuffer = (a: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.length);
const received = (d: Decoded): Decoded => ({
  ...d,
  grey: asBuffer(d.grey),
  ...(d.chroma ? { chroma: asBuffer(d.chroma) } : {}),
  ...(d.hue ? { hue: { rg: asBuffer(d.hue.rg), yb: asBuffer(d.hue.yb) } } : {}),
});

function findIn(task: FindTask): number {
  const d = received(task.regionsOf);
  const scale = d.source.width / d.width;
  // No bytes are needed to find regions; each region's own task carries them.
  const found = regionImages(new LogoImage(Buffer.alloc(0), d)).map(({ region, image }): FoundRegion => {
    const [left, top, width, height] = [region.box.left, region.box.top, region.box.width, region.box.height].map((n) =>
      Math.round(n * scale),
    );
    return { box: { left, top, width, height }, score: region.score, decoded: image.decoded, crop: image.crop! };
  });
  parentPort!.postMessage({ partial: found });
  return found.length;
}

async function embedRegion(task: EmbedRegionTask): Promise<RegionVectors> {
  const { region } = task;
  const image = new LogoImage(Buffer.from(task.bytes), received(region.decoded), region.crop);
  const vector = await main.embed(image);
  const fallbackVector = task.withFallback ? await hogOf(image, vector) : undefined;
  return { box: region.box, score: region.score, vector, ...(fallbackVector ? { fallbackVector } : {}) };
}
