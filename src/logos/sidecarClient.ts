import { AppError, type ErrorCode, invalidParameter } from '../errors.ts';
import type { ConceptScore, Rerank, Thresholds } from './models.ts';
import type { Box } from './regionScores.ts';

// The API's and the workers' side of the ML sidecar (workers/sidecar/server.ts): loopback HTTP,
// image bytes in, JSON out. An image the sidecar cannot use comes back as the AppError of its code
// (400); a sidecar that cannot be reached or is busy as 503 service_unavailable.

export interface Region {
  box: { left: number; top: number; width: number; height: number };
  score: number;
  vector: number[];
  fallback_vector?: number[];
}

export interface Embedding {
  model: string;
  vector: number[];
  fallback_model?: string;
  fallback_vector?: number[];
  image: { width: number; height: number; format: string };
  /** With `regions`: the image's candidate logo regions (src/logos/pixels/regions.ts), best first; empty for a clean logo. */
  regions?: Region[];
}

export interface OcrRead {
  text: string;
  confidence: number;
}

export interface SidecarHealth {
  model: {
    model: string;
    dimensions: number;
    fallbackUsed: boolean;
    /** The fallback's (HOG's) vector size. */
    fallbackDimensions: number;
    reason?: string;
    thresholds: Thresholds;
    rerank?: Rerank;
    /** The concept score of likeness=concept, when the model has one (models/manifest.json). */
    concept?: ConceptScore;
  };
  fallback: { name: string; thresholds: Thresholds };
}

const IMAGE_CODES = new Set<ErrorCode>(['not_an_image', 'unsupported_image_type', 'image_corrupt', 'image_dimensions', 'svg_refused']);

export class SidecarClient {
  private health: Promise<SidecarHealth> | null = null;

  constructor(
    private readonly url: string,
    private readonly timeoutMs = 30_000,
  ) {}

  /**
   * `regions`: also embed the image's candidate logo regions (a page, a label holding the logo). `part`: embed that
   * part of the image alone (a 400 naming `region` when it is not inside the image).
   */
  embed(bytes: Buffer, withFallback = false, regions = false, part?: Box): Promise<Embedding> {
    const q = [withFallback && 'hog=1', regions && 'regions=1', part && partQuery(part)].filter(Boolean).join('&');
    return this.post(`/embed${q ? `?${q}` : ''}`, bytes);
  }

  /**
   * The image's embedding and its candidate logo regions' (as `embed` with `regions`), each as soon as the sidecar
   * has it: the caller can search with the whole image while the regions are embedded. `regions` rejects
   * whenever `image` does.
   */
  embedInParts(bytes: Buffer, withFallback = false, part?: Box): { image: Promise<Embedding>; regions: Promise<Region[]> } {
    let image!: { resolve: (e: Embedding) => void; reject: (err: Error) => void };
    const first = new Promise<Embedding>((resolve, reject) => {
      image = { resolve, reject };
    });
    const regions = (async () => {
      const res = await this.request(`/embed?${withFallback ? 'hog=1&' : ''}regions=1&stream=1${part ? `&${partQuery(part)}` : ''}`, bytes);
      // An answer other than 200 is one JSON document, which json() throws as the image's or the service's error.
      if (!res.ok) return this.json<never>(res);
      let text = '';
      let imageSeen = false;
      try {
        for await (const chunk of res.body!.pipeThrough(new TextDecoderStream())) {
          text += chunk;
          for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
            const line = JSON.parse(text.slice(0, nl)) as { image?: Embedding; regions?: Region[]; code?: string; error?: string };
            text = text.slice(nl + 1);
            if (line.image) {
              imageSeen = true;
              image.resolve(line.image);
            } else if (line.regions && imageSeen) return line.regions;
            else throw unavailable("the image service failed on the image's regions", { code: line.code, error: line.error });
          }
        }
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw unavailable("the image service's answer was cut short; try again shortly", { reason: (err as Error).message });
      }
      throw unavailable("the image service's answer was cut short; try again shortly", {});
    })();
    regions.catch((err: Error) => image.reject(err));
    return { image: first, regions };
  }

  /** Embedding (with the fallback's, for re-ranking) and OCR of one image (logo indexing). */
  analyse(bytes: Buffer): Promise<Embedding & { ocr: OcrRead }> {
    return this.post('/analyse?hog=1', bytes);
  }

  /** The model the sidecar embeds with and its thresholds, asked once and kept (a failed ask is not kept). */
  models(): Promise<SidecarHealth> {
    this.health ??= this.get<SidecarHealth>('/health').catch((err) => {
      this.health = null;
      throw err;
    });
    return this.health;
  }

  /** Thresholds of a model the sidecar knows (its model or its fallback). */
  async thresholds(model: string): Promise<Thresholds> {
    const h = await this.models();
    if (model === h.model.model) return h.model.thresholds;
    if (model === h.fallback.name) return h.fallback.thresholds;
    throw new AppError('service_unavailable', `the image model ${model} is not loaded`);
  }

  private async get<T>(path: string): Promise<T> {
    return this.json<T>(await this.fetch(path, { method: 'GET' }));
  }

  private async post<T>(path: string, bytes: Buffer): Promise<T> {
    return this.json<T>(await this.request(path, bytes));
  }

  private request(path: string, bytes: Buffer): Promise<Response> {
    return this.fetch(path, {
      method: 'POST',
      body: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) as unknown as BodyInit,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
  }

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${this.url}${path}`, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw unavailable('the image service is not available; try again shortly', { reason: (err as Error).message });
    }
  }

  /** The answer's JSON; an answer other than 200 is the image's own fault (400 with its code, 413), else the service's. */
  private async json<T>(res: Response): Promise<T> {
    const body = (await res.json().catch(() => ({}))) as { code?: string; error?: string };
    if (res.ok) return body as T;
    if (res.status === 400 && body.code && IMAGE_CODES.has(body.code as ErrorCode))
      throw new AppError(body.code as ErrorCode, body.error ?? 'unusable image');
    // The caller's box, not the image, is wrong: the request's own parameter.
    if (res.status === 400 && body.code === 'region_outside') throw invalidParameter('body', 'region', body.error ?? 'region', true);
    if (res.status === 413) throw new AppError('payload_too_large', body.error ?? 'the image is too large');
    throw unavailable('the image service could not process the image; try again shortly', { status: res.status, code: body.code });
  }
}

const unavailable = (message: string, details: Record<string, unknown>) => new AppError('service_unavailable', message, details);
const partQuery = (b: Box) => `region=${b.left},${b.top},${b.width},${b.height}`;
