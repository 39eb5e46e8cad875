import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import sharp, { type OverlayOptions } from 'sharp';
import { LOGO_SEARCH_QUEUE } from '../../src/logos/fanout.ts';
import { indexLogos, LOGO_INDEX_QUEUE } from '../../src/logos/indexer.ts';
import { type LogoWorkers, startLogoWorkers } from '../../workers/logos.ts';
import { type Sidecar, startSidecar } from '../../workers/sidecar/server.ts';
import { createTestApp, type TestApp } from './app.ts';
import { inkedIcon } from './inkedIcon.ts';
import { insertMarks } from './marks.ts';

// One ML sidecar (one embedding thread, one tesseract worker) shared by every logo test file.
let shared: Promise<Sidecar> | null = null;

export function sharedSidecar(): Promise<Sidecar> {
  shared ??= startSidecar({ workers: 1, ocrWorkers: 1 });
  return shared;
}

export async function closeSharedSidecar(): Promise<void> {
  if (shared) await (await shared).close();
  shared = null;
}

export interface LogoTestApp {
  app: TestApp;
  sidecar: Sidecar;
  workers: LogoWorkers;
  uploadDir: string;
  close(): Promise<void>;
}

/** The real app wired to the shared sidecar, with the logo workers (bulk fan-out, indexing) on its own queues. */
export async function createLogoApp(env: Record<string, string> = {}, opts: { plan?: boolean } = {}): Promise<LogoTestApp> {
  const sidecar = await sharedSidecar();
  const prefix = `test-logos-${randomBytes(5).toString('hex')}`;
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-uploads-'));
  const app = await createTestApp({ ML_URL: sidecar.url, QUEUE_PREFIX: prefix, UPLOAD_DIR: uploadDir, ...env });
  const workers = startLogoWorkers(app.deps, { plan: opts.plan ?? false });
  await workers.ready;
  return {
    app,
    sidecar,
    workers,
    uploadDir,
    async close() {
      await workers.close();
      for (const name of [LOGO_INDEX_QUEUE, LOGO_SEARCH_QUEUE]) {
        const q = new Queue(name, { connection: app.deps.connections.queues, prefix });
        await q.obliterate({ force: true });
        await q.close();
      }
      await app.close();
      fs.rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}

/** The model image results name: the sidecar's, joined by its re-ranking model's when it re-ranks. */
export const servedModel = (s: Sidecar) => (s.model.rerank ? `${s.model.model}+${s.model.rerank.model}` : s.model.model);

/** Bytes as a fetch body. */
export const blob = (b: Buffer) => new Blob([new Uint8Array(b)]);

export interface DrawSpec {
  slug: string;
  size?: number;
  ink?: [number, number, number];
  paper?: [number, number, number];
  /** A line of words under the icon. */
  text?: string;
  format?: 'png' | 'jpeg';
}

/** A simple-icons glyph drawn as a logo, optionally with a line of words under it. */
export async function drawLogo(spec: DrawSpec): Promise<Buffer> {
  const size = spec.size ?? 96;
  const ink = spec.ink ?? [20, 40, 160];
  const paper = spec.paper ?? [255, 255, 255];
  const icon = Math.round(spec.text ? size * 0.6 : size * 0.8);
  const m = await inkedIcon(spec.slug, icon, ink);
  const width = spec.text ? Math.max(size, spec.text.length * 22 + 20) : size;
  const height = spec.text ? size + 36 : size;
  const layers: OverlayOptions[] = [{ input: m.png, left: Math.round((width - m.w) / 2), top: Math.round((size - m.h) / 2) }];
  if (spec.text) {
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="40"><text x="${width / 2}" y="30" text-anchor="middle" ` +
      `font-family="DejaVu Sans" font-weight="bold" font-size="28" fill="rgb(${ink.join(',')})">${spec.text}</text></svg>`;
    layers.push({ input: Buffer.from(svg), left: 0, top: size - 4 });
  }
  const img = sharp({ create: { width, height, channels: 3, background: { r: paper[0], g: paper[1], b: paper[2] } } }).composite(layers);
  return spec.format === 'jpeg' ? img.jpeg({ quality: 90 }).toBuffer() : img.png().toBuffer();
}

export interface LogoMark {
  app: string;
  mark: string;
  draw: DrawSpec;
  /** Text supplied with the logo in the file set (ocr_text). */
  supplied?: string;
}

/** Device marks with logo files in the store and logos rows, pending indexing. */
export async function addLogos(app: TestApp, marks: LogoMark[]): Promise<void> {
  await insertMarks(
    app.deps.db,
    marks.map((m) => ({ app: m.app, mark: m.mark, type: 'DEVICE' })),
  );
  for (const m of marks) {
    const png = await drawLogo(m.draw);
    const key = `logos/${m.app}.${m.draw.format === 'jpeg' ? 'jpg' : 'png'}`;
    await app.deps.store.put(key, png);
    await app.deps.db('logos').insert({
      application_number: m.app,
      object_key: key,
      content_type: m.draw.format === 'jpeg' ? 'image/jpeg' : 'image/png',
      ocr_text: m.supplied ?? null,
    });
  }
}

/** Indexes every pending logo through the real indexing code and sidecar, as the workers would. */
export async function indexPending(t: LogoTestApp): Promise<{ done: number; failed: number }> {
  const { repo, sidecar } = t.app.deps.logos;
  const total = { done: 0, failed: 0 };
  for (;;) {
    const due = await repo.claim(50);
    if (!due.length) return total;
    const r = await indexLogos({ repo, sidecar, store: t.app.deps.store }, { logos: due });
    total.done += r.done;
    total.failed += r.failed;
  }
}
