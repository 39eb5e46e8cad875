import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { openImage } from '../imageInput.ts';
import { MODELS_DIR, type ModelSpec, type Thresholds, verifyFiles } from '../models.ts';
import type { Box } from '../regionScores.ts';
import { hog, hogDimensions, unit } from './hog.ts';
import { type Decoded, LOGO_SIZE, type LogoCut, logoCut, normaliseLogo } from './image.ts';
import { findRegions, type Region } from './regions.ts';

// Image embedders: an image in, a unit vector out, cosine similarity between vectors. Our trained
// CNN and a placed CLIP model run through onnxruntime-node; HOG is computed here.

/** One image as the embedders read it: decoded once, each preparation made once. */
export class LogoImage {
  private readonly grey = new Map<number, Promise<Float32Array>>();
  private cut?: LogoCut;

  /**
   * `crop`: this image is a region of the one `bytes` hold (regions.ts), its box in the pixels of that
   * image as decoded (`width` × `height`); `decoded` is then the region's.
   */
  constructor(
    readonly bytes: Buffer,
    readonly decoded: Decoded,
    readonly crop?: { box: Box; width: number; height: number },
  ) {}

  /** Trimmed, squared, grey, `size` px a side (image.ts normaliseLogo). */
  logoGrey(size = LOGO_SIZE): Promise<Float32Array> {
    let g = this.grey.get(size);
    if (!g) {
      // The CNN and HOG read different sizes: the logo is found once for both.
      this.cut ??= logoCut(this.decoded);
      g = Promise.resolve(normaliseLogo(this.decoded, size, this.cut));
      this.grey.set(size, g);
    }
    return g;
  }
}

/** The candidate logo regions of an image (regions.ts), best first, each as an image the embedders read. */
export function regionImages(img: LogoImage, words: Box[] = []): { region: Region; image: LogoImage }[] {
  if (img.crop) return [];
  const { width, height } = img.decoded;
  return findRegions(img.decoded, words).map((region) => ({
    region,
    image: new LogoImage(img.bytes, region.decoded, { box: region.box, width, height }),
  }));
}

export interface Embedder {
  readonly name: string;
  readonly dimensions: number;
  readonly thresholds: Thresholds;
  embed(img: LogoImage): Promise<Float32Array>;
}

export class HogEmbedder implements Embedder {
  readonly dimensions = hogDimensions(LOGO_SIZE);

  constructor(
    readonly name: string,
    readonly thresholds: Thresholds,
  ) {}

  async embed(img: LogoImage): Promise<Float32Array> {
    return hog(await img.logoGrey(), LOGO_SIZE);
  }
}

/** An ONNX image model: our CNN (grey logo input) or a CLIP vision model (RGB, CLIP's preprocessing). */
export class OnnxEmbedder implements Embedder {
  private constructor(
    readonly name: string,
    readonly dimensions: number,
    readonly thresholds: Thresholds,
    private readonly session: ort.InferenceSession,
    private readonly spec: ModelSpec,
    private readonly inputName: string,
    private readonly outputName: string,
  ) {}

  static async load(spec: ModelSpec, dir = MODELS_DIR): Promise<OnnxEmbedder> {
    const problem = verifyFiles(spec, dir);
    if (problem) throw new Error(`model ${spec.name}: ${problem}`);
    // One thread per session: the sidecar's parallelism is its pool of workers, each with a session.
    const session = await ort.InferenceSession.create(path.join(dir, spec.files[0].path), {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
    const inputName = session.inputNames.includes(spec.input!.name) ? spec.input!.name : session.inputNames[0];
    // CLIP exports name their projected output image_embeds; a plain vision model's pooled output stands in.
    const outputName =
      [spec.output!, 'image_embeds', 'pooler_output'].find((n) => session.outputNames.includes(n)) ?? session.outputNames[0];
    const e = new OnnxEmbedder(spec.name, 0, spec.thresholds, session, spec, inputName, outputName);
    const probe = await e.run(new Float32Array(e.inputLength()));
    return new OnnxEmbedder(spec.name, probe.length, spec.thresholds, session, spec, inputName, outputName);
  }

  private inputLength(): number {
    const s = this.spec.input!.size;
    return (this.spec.input!.preprocess === 'clip-rgb' ? 3 : 1) * s * s;
  }

  async embed(img: LogoImage): Promise<Float32Array> {
    const input = this.spec.input!.preprocess === 'clip-rgb' ? await clipPixels(img, this.spec) : await img.logoGrey(this.spec.input!.size);
    return this.run(input);
  }

  private async run(data: Float32Array): Promise<Float32Array> {
    const s = this.spec.input!.size;
    const channels = this.spec.input!.preprocess === 'clip-rgb' ? 3 : 1;
    const out = await this.session.run({ [this.inputName]: new ort.Tensor('float32', data, [1, channels, s, s]) });
    const t = out[this.outputName];
    // A (1, tokens, d) output holds the class token first.
    const d = t.dims[t.dims.length - 1];
    return unit(Float32Array.from((t.data as Float32Array).subarray(0, d)));
  }
}

/** CLIP's preprocessing: shortest side to the input size, centre crop, RGB scaled by its mean and std, CHW. */
async function clipPixels(img: LogoImage, spec: ModelSpec): Promise<Float32Array> {
  const s = spec.input!.size;
  const mean = spec.input!.mean!;
  const std = spec.input!.std!;
  // Decoded afresh in colour, through the same door as every image (an SVG checked and drawn capped, a GIF's first frame).
  let pipeline = (await openImage(img.bytes)).pipeline().rotate().flatten({ background: '#ffffff' });
  if (img.crop) {
    // A region: the image at the size it was decoded, cut to the region's box, then prepared as any image.
    const c = img.crop;
    const cut = await pipeline
      .resize(c.width, c.height, { fit: 'fill' })
      .extract(c.box)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    pipeline = sharp(cut.data, { raw: { width: cut.info.width, height: cut.info.height, channels: cut.info.channels } });
  }
  const { data } = await pipeline
    .resize(s, s, { fit: 'cover', position: 'centre' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = new Float32Array(3 * s * s);
  for (let i = 0; i < s * s; i++) {
    for (let c = 0; c < 3; c++) out[c * s * s + i] = (data[i * 3 + c] / 255 - mean[c]) / std[c];
  }
  return out;
}

/** An embedder for a spec: HOG needs no file; ONNX models are verified against their checksums and loaded. */
export async function loadEmbedder(spec: ModelSpec, dir = MODELS_DIR): Promise<Embedder> {
  return spec.kind === 'hog' ? new HogEmbedder(spec.name, spec.thresholds) : OnnxEmbedder.load(spec, dir);
}
