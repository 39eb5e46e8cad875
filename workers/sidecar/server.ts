import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ImageError, MAX_IMAGE_BYTES } from '../../src/logos/imageInput.ts';
import { MODELS_DIR, type ModelSpec, planModels } from '../../src/logos/models.ts';
import { cutImage, type Decoded, RegionError } from '../../src/logos/pixels/image.ts';
import type { EmbedRegionTask, EmbedResult, EmbedTask, FindTask, FoundRegion, Loaded, RegionVectors, ThreadData } from './embedThread.ts';
import { Ocr, type OcrResult } from './ocr.ts';
import { ThreadPool } from './pool.ts';

// The ML sidecar: image embeddings and OCR for the API and the workers, over HTTP on loopback.
//   GET  /health            models loaded, pool and OCR state
//   POST /embed[?hog=1][&regions=1[&stream=1]][&region=x,y,w,h]  body: an image (src/logos/imageInput.ts); answers the
//                           model's name and the unit vector (and the fallback's, HOG, which re-ranking needs; with regions=1
//                           those of its candidate logo regions too, src/logos/pixels/regions.ts; with stream=1 as two lines,
//                           see stream()); with region, of that part of the image alone (400 region_outside when it is not inside)
//   POST /ocr               body: an image; answers the words read
//   POST /analyse[?hog=1]   both, decoding once (logo indexing)
// An unusable image is 400 with a code (not_an_image, unsupported_image_type, image_corrupt,
// image_dimensions, svg_refused); a body over 5 MB 413; a full queue 503 busy. Embedding runs on a pool of worker
// threads (sharp + onnxruntime, one thread each); OCR on tesseract.js's own workers.

export interface SidecarOptions {
  host?: string;
  port?: number;
  workers?: number;
  ocrWorkers?: number;
  model?: string;
  modelsDir?: string;
  log?: (msg: string) => void;
}

export interface Sidecar {
  url: string;
  model: Loaded & { thresholds: ModelSpec['thresholds']; rerank?: ModelSpec['rerank']; concept?: ModelSpec['concept'] };
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > MAX_IMAGE_BYTES) {
        // The rest is read and dropped, so the 413 reaches the client instead of a reset connection.
        req.off('data', onData);
        req.resume();
        chunks.length = 0;
        reject(new HttpError(413, 'payload_too_large', `the image is larger than ${MAX_IMAGE_BYTES} bytes`));
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** `region=x,y,w,h`: the part of the image to search, in its pixels; null when absent. */
function regionOf(v: string | null): { left: number; top: number; width: number; height: number } | null {
  if (v === null) return null;
  const m = /^(\d{1,5}),(\d{1,5}),(\d{1,5}),(\d{1,5})$/.exec(v);
  if (!m || Number(m[3]) < 16 || Number(m[4]) < 16)
    throw new HttpError(400, 'region_outside', 'region must be x,y,w,h: whole pixels, w and h at least 16');
  return { left: Number(m[1]), top: Number(m[2]), width: Number(m[3]), height: Number(m[4]) };
}

/** The part of an image a search names, as an image of its own; a box outside the image, or an unusable image, is a 400. */
async function cut(body: Buffer, box: { left: number; top: number; width: number; height: number }): Promise<Buffer> {
  try {
    return await cutImage(body, box);
  } catch (err) {
    if (err instanceof RegionError || err instanceof ImageError) throw new HttpError(400, err.code, err.message);
    throw err;
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * /embed?regions=1&stream=1: the answer as lines of JSON, each sent when it is ready, so the caller can search
 * with the whole image while its regions are embedded: `{"image": …}`, then `{"regions": […], "ms": …}`, or
 * `{"error": …, "code": …}` should the regions fail after the image was sent.
 */
async function stream(
  res: http.ServerResponse,
  image: Record<string, unknown>,
  regions: Promise<Record<string, unknown>[]>,
  t0: number,
  log?: (msg: string) => void,
): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
  res.write(`${JSON.stringify({ image })}\n`);
  try {
    res.end(`${JSON.stringify({ regions: await regions, ms: performance.now() - t0 })}\n`);
  } catch (err) {
    if (!(err instanceof HttpError)) log?.(`sidecar regions failed: ${(err as Error).stack ?? err}`);
    const e = err instanceof HttpError ? err : new HttpError(500, 'internal', 'the sidecar failed on this image');
    res.end(`${JSON.stringify({ code: e.code, error: e.message })}\n`);
  }
}

export async function startSidecar(opts: SidecarOptions = {}): Promise<Sidecar> {
  const dir = opts.modelsDir ?? MODELS_DIR;
  const { primary, fallback } = planModels(opts.model ?? 'auto', dir);
  const data: ThreadData = { primary, fallback, modelsDir: dir };
  const pool = new ThreadPool(new URL('./embedThread.ts', import.meta.url), opts.workers ?? 2, data);
  const ocrPromise = Ocr.start(opts.ocrWorkers ?? 1);
  ocrPromise.catch(() => undefined);
  let loaded: Loaded;
  try {
    await pool.ready();
    loaded = pool.info as Loaded;
  } catch (err) {
    await pool.close();
    await ocrPromise.then(
      (o) => o.close(),
      () => undefined,
    );
    throw err;
  }
  const ocr = await ocrPromise;
  const own = loaded.fallbackUsed || loaded.model === fallback.name ? fallback : primary;
  if (loaded.fallbackUsed) opts.log?.(`model ${primary.name} could not be loaded (${loaded.reason}); using ${fallback.name}`);
  // Re-ranking needs the fallback's (HOG) vector beside the model's, at indexing and at search.
  const rerank = own.rerank && own.rerank.model === fallback.name ? own.rerank : undefined;
  // So does the concept score (likeness=concept), which also searches the HOG vectors; its evaluation stays in the manifest.
  const concept = own.concept && own.concept.model === fallback.name ? { ...own.concept, evaluation: undefined } : undefined;
  const model = { ...loaded, thresholds: own.thresholds, ...(rerank ? { rerank } : {}), ...(concept ? { concept } : {}) };

  // Images the model has embedded since the sidecar started (a search with regions embeds more than one).
  let embedded = 0;
  const copy = (body: Buffer) => body.buffer.slice(body.byteOffset, body.byteOffset + body.length) as ArrayBuffer;
  const settled = <T>(job: Promise<T> | null): Promise<T> => {
    if (!job) throw new HttpError(503, 'busy', 'the sidecar is busy: too many images waiting');
    return job.catch((err) => {
      const code = (err as { code?: string }).code;
      if (code && code !== 'internal') throw new HttpError(400, code, (err as Error).message);
      throw err;
    });
  };
  /**
   * The image's embedding and, with `regions`, its regions': as soon as a thread has decoded the image it reports
   * it, and the next free thread finds its regions while that one embeds the whole image; each region is then
   * embedded by whichever thread is free. Both go ahead of new images: their request is waiting for them.
   */
  const embed = (body: Buffer, hog: boolean, forOcr: boolean, regions = false) => {
    let found!: (job: Promise<RegionVectors[]>) => void;
    const regionsOf = new Promise<RegionVectors[]>((resolve) => {
      found = resolve;
    });
    const onPartial = (decoded: unknown) => {
      let embeds: Promise<RegionVectors[]> = Promise.resolve([]);
      // The regions are reported before the finding task ends, so their tasks are queued before its thread takes another.
      const onFound = (crops: unknown) => {
        embeds = Promise.all((crops as FoundRegion[]).map((region) => embedRegion(region, body, hog))).then((vs) =>
          vs.filter((v) => v !== null),
        );
      };
      const find = pool.run<number>({ regionsOf: decoded as Decoded } satisfies FindTask, [], { first: true, onPartial: onFound });
      found(settled(find).then(() => embeds));
    };
    const ab = copy(body);
    const image = settled(
      pool.run<EmbedResult>({ bytes: ab, withFallback: hog, forOcr, regions } satisfies EmbedTask, [ab], { onPartial }),
    ).then((r) => {
      embedded += 1;
      return r;
    });
    // An image that failed before it was decoded has no regions: its failure is theirs.
    image.catch((err) => found(Promise.reject(err)));
    regionsOf.catch(() => undefined);
    return { image, regions: regions ? regionsOf : null };
  };
  // A region that cannot be embedded is left out (null): the whole image is searched whatever happens to it.
  const embedRegion = async (region: FoundRegion, body: Buffer, hog: boolean): Promise<RegionVectors | null> => {
    // Only a colour model (CLIP) reads a region from the image's bytes; ours read the region's grey pixels.
    const bytes = own.input?.preprocess === 'clip-rgb' ? copy(body) : new ArrayBuffer(0);
    try {
      const v = await pool.run<RegionVectors>({ region, bytes, withFallback: hog } satisfies EmbedRegionTask, [bytes], { first: true });
      embedded += 1;
      return v;
    } catch {
      return null;
    }
  };
  const imageBody = (r: EmbedResult) => ({
    model: r.model,
    dimensions: r.vector.length,
    vector: Array.from(r.vector),
    ...(r.fallbackVector ? { fallback_model: fallback.name, fallback_vector: Array.from(r.fallbackVector) } : {}),
    image: { width: r.width, height: r.height, format: r.format },
  });
  const regionsBody = (regions: RegionVectors[]) =>
    regions.map((g) => ({
      box: g.box,
      score: g.score,
      vector: Array.from(g.vector),
      ...(g.fallbackVector ? { fallback_vector: Array.from(g.fallbackVector) } : {}),
    }));
  const read = async (r: EmbedResult): Promise<OcrResult> => ocr.read(r.ocrPng!);

  const server = http.createServer(async (req, res) => {
    const t0 = performance.now();
    try {
      const url = new URL(req.url ?? '/', 'http://sidecar');
      const hog = url.searchParams.get('hog') === '1';
      if (req.method === 'GET' && url.pathname === '/health') {
        send(res, 200, {
          ok: true,
          model,
          fallback: { name: fallback.name, thresholds: fallback.thresholds },
          pool: { workers: pool.size, busy: pool.busy, queued: pool.queued },
          ocr: { workers: ocr.workers, languages: ['eng', 'hin'] },
          embedded,
        });
        return;
      }
      if (req.method !== 'POST' || !['/embed', '/ocr', '/analyse'].includes(url.pathname))
        throw new HttpError(404, 'not_found', 'no such endpoint');
      const body = await readBody(req);
      if (!body.length) throw new HttpError(400, 'not_an_image', 'the body is empty: send the image bytes');
      const regions = url.pathname === '/embed' && url.searchParams.get('regions') === '1';
      const part = url.pathname === '/embed' ? regionOf(url.searchParams.get('region')) : null;
      const parts = embed(part ? await cut(body, part) : body, hog, url.pathname !== '/embed', regions);
      const r = await parts.image;
      if (regions && url.searchParams.get('stream') === '1') {
        await stream(res, imageBody(r), parts.regions!.then(regionsBody), t0, opts.log);
        return;
      }
      if (url.pathname === '/embed') {
        const crops = regions ? { regions: regionsBody(await parts.regions!) } : {};
        send(res, 200, { ...imageBody(r), ...crops, ms: performance.now() - t0 });
      } else if (url.pathname === '/ocr') send(res, 200, { ...(await read(r)), ms: performance.now() - t0 });
      else send(res, 200, { ...imageBody(r), ocr: await read(r), ms: performance.now() - t0 });
    } catch (err) {
      if (err instanceof HttpError) send(res, err.status, { code: err.code, error: err.message });
      else {
        opts.log?.(`sidecar request failed: ${(err as Error).stack ?? err}`);
        send(res, 500, { code: 'internal', error: 'the sidecar failed on this image' });
      }
    }
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve);
  });
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${addr.address}:${addr.port}`,
    model,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([pool.close(), ocr.close()]);
    },
  };
}
