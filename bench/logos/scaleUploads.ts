import os from 'node:os';
import sharp from 'sharp';
import type { Icon } from '../../models/train/iconSet.ts';
import type { ImageSearchDeps } from '../../src/logos/imageSearch.ts';
import { type Embedder, LogoImage } from '../../src/logos/pixels/embedders.ts';
import { decodeLogo } from '../../src/logos/pixels/image.ts';
import { SidecarClient } from '../../src/logos/sidecarClient.ts';
import { startSidecar } from '../../workers/sidecar/server.ts';
import { upload } from './pages.ts';
import { perturb } from './perturb.ts';

// Issue 22's speed targets at scale: image search end to end over HTTP on uploads that hold their logo
// among other things (a page, a photographed label, beside another name: region finding gives them 1-4
// regions, each embedded and searched) beside clean logos (one embedding), in the same run, interleaved
// so the machine's load falls on every kind alike; where the time goes (the sidecar's embedding of the
// image and its regions, the nearest-neighbour queries); and what one image costs to embed on one core.

export const REGION_KINDS = ['page', 'photo', 'beside_name'] as const;
const CLEAN = ['colour', 'jpeg_q25', 'text', 'rotate_5', 'crop_10'] as const;
export type Kind = 'clean' | (typeof REGION_KINDS)[number];

export interface Timing {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  n: number;
}

export interface KindReport {
  /** Upload -> JSON over HTTP. */
  e2e: Timing;
  /** The API's logo service alone (its response_ms: read the stored upload, sidecar, queries, merge, results). */
  service: Timing;
  /** Regions searched beside the whole image (mean, max). */
  regions: { mean: number; max: number };
  /** The sidecar alone: decode, find regions, embed the image and each region (CNN + HOG), one request at a time. */
  sidecar: Timing;
  /** The nearest-neighbour queries of the image and its regions (with HOG re-rank), as the API runs them (in parallel). */
  db: Timing;
  /** The same queries one after another, to see what running them in parallel saves. */
  dbSerial: Timing;
}

export interface EmbedCost {
  /** Images, one at a time, on one thread (sharp.concurrency(1), onnxruntime one thread). */
  images: number;
  /** In process, what a sidecar thread does: decode + normalise + CNN + HOG. Wall and CPU ms per image. */
  inProcess: { wallMean: number; wallP95: number; cpuMean: number; cnnOnlyCpuMean: number; decodeCpuMean: number };
  /** Through a one-thread sidecar over loopback HTTP (/embed?hog=1), client-side wall ms. */
  sidecar: Timing;
  /** Region uploads through the same sidecar (/embed?hog=1&regions=1): wall ms per image embedded (1 + regions). */
  perEmbeddedImage: Record<string, { msPerImage: number; images: number }>;
  load: number[];
}

export const pct = (a: number[], q: number) => {
  const s = [...a].sort((x, y) => x - y);
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 10) / 10;
};
const r1 = (x: number) => Math.round(x * 10) / 10;
export const timing = (a: number[]): Timing => ({
  p50: pct(a, 0.5),
  p95: pct(a, 0.95),
  p99: pct(a, 0.99),
  mean: r1(a.reduce((s, x) => s + x, 0) / a.length),
  n: a.length,
});

/** The query images: `perKind` held-out icons under each region kind, and clean logos under five light changes. */
export async function uploadsByKind(test: Icon[], perKind: number): Promise<Record<Kind, Buffer[]>> {
  const out: Record<Kind, Buffer[]> = { clean: [], page: [], photo: [], beside_name: [] };
  for (let i = 0; i < perKind; i++) {
    const icon = test[i % test.length];
    out.clean.push(await perturb(icon, CLEAN[i % CLEAN.length]));
    for (const k of REGION_KINDS) out[k].push(await upload(icon, k));
  }
  return out;
}

/**
 * End to end over HTTP, `rounds` requests per kind, the kinds interleaved; then, one upload at a time,
 * the sidecar's part and the database's part of each kind's first `parts` uploads.
 */
export async function timeKinds(
  uploads: Record<Kind, Buffer[]>,
  imageSearch: (bytes: Buffer) => Promise<{ ms: number; service: number }>,
  deps: ImageSearchDeps,
  opts: { rounds: number; parts: number; k: number },
  log: (s: string) => void,
): Promise<Record<Kind, KindReport> & { load: number[] }> {
  const kinds = Object.keys(uploads) as Kind[];
  for (let i = 0; i < 10; i++) for (const k of kinds) await imageSearch(uploads[k][i % uploads[k].length]);
  const e2e: Record<string, number[]> = Object.fromEntries(kinds.map((k) => [k, []]));
  const service: Record<string, number[]> = Object.fromEntries(kinds.map((k) => [k, []]));
  const load = [os.loadavg()[0]];
  for (let i = 0; i < opts.rounds; i++) {
    for (const k of kinds) {
      const t = await imageSearch(uploads[k][i % uploads[k].length]);
      e2e[k].push(t.ms);
      service[k].push(t.service);
    }
  }
  load.push(os.loadavg()[0]);
  log(`scale: end to end by kind: ${kinds.map((k) => `${k} p95 ${pct(e2e[k], 0.95)} ms`).join(', ')}`);

  const { model } = await deps.sidecar.models();
  const rr = model.rerank!;
  const out = { load } as Record<Kind, KindReport> & { load: number[] };
  for (const k of kinds) {
    const regions: number[] = [];
    const side: number[] = [];
    const par: number[] = [];
    const ser: number[] = [];
    for (const [n, bytes] of uploads[k].slice(0, opts.parts).entries()) {
      const s = performance.now();
      const e = await deps.sidecar.embed(bytes, true, true);
      side.push(performance.now() - s);
      const vs = [e, ...(e.regions ?? [])];
      regions.push(vs.length - 1);
      const q = (v: { vector: number[]; fallback_vector?: number[] }) =>
        deps.repo.nearest(e.model, v.vector, opts.k, {
          model: rr.model,
          vector: v.fallback_vector!,
          weight: rr.weight,
          candidates: rr.candidates,
        });
      // The second run of the same queries finds their pages cached: which goes first alternates.
      const parallel = async () => {
        const t = performance.now();
        await Promise.all(vs.map(q));
        par.push(performance.now() - t);
      };
      const serial = async () => {
        const t = performance.now();
        for (const v of vs) await q(v);
        ser.push(performance.now() - t);
      };
      for (const run of n % 2 ? [serial, parallel] : [parallel, serial]) await run();
    }
    out[k] = {
      e2e: timing(e2e[k]),
      service: timing(service[k]),
      regions: { mean: Math.round((regions.reduce((a, b) => a + b, 0) / regions.length) * 100) / 100, max: Math.max(...regions) },
      sidecar: timing(side),
      db: timing(par),
      dbSerial: timing(ser),
    };
  }
  load.push(os.loadavg()[0]);
  return out;
}

/** Embedding cost of one image on one core, decoding included: in process (wall and CPU) and through a one-thread sidecar. */
export async function embedCost(
  uploads: Record<Kind, Buffer[]>,
  main: Embedder,
  hogEmbedder: Embedder,
  modelName: string,
  n: number,
  log: (s: string) => void,
): Promise<EmbedCost> {
  const clean = Array.from({ length: n }, (_, i) => uploads.clean[i % uploads.clean.length]);
  const load = [os.loadavg()[0]];
  const before = sharp.concurrency();
  sharp.concurrency(1);
  const cpuOf = async (f: (b: Buffer) => Promise<unknown>) => {
    for (const b of clean.slice(0, 10)) await f(b);
    const wall: number[] = [];
    const c0 = process.cpuUsage();
    for (const b of clean) {
      const s = performance.now();
      await f(b);
      wall.push(performance.now() - s);
    }
    const c = process.cpuUsage(c0);
    return { wall, cpu: (c.user + c.system) / 1000 / clean.length };
  };
  const full = await cpuOf(async (b) => {
    const img = new LogoImage(b, await decodeLogo(b));
    await main.embed(img);
    await hogEmbedder.embed(img);
  });
  const cnn = await cpuOf(async (b) => main.embed(new LogoImage(b, await decodeLogo(b))));
  const dec = await cpuOf(async (b) => new LogoImage(b, await decodeLogo(b)).logoGrey());
  sharp.concurrency(before);
  log(`scale: embedding in process, one image at a time: ${r1(full.cpu)} ms CPU, p95 ${pct(full.wall, 0.95)} ms wall`);

  const sidecar = await startSidecar({ workers: 1, ocrWorkers: 1, model: modelName });
  try {
    const client = new SidecarClient(sidecar.url);
    for (const b of clean.slice(0, 10)) await client.embed(b, true);
    const wall: number[] = [];
    for (const b of clean) {
      const s = performance.now();
      await client.embed(b, true);
      wall.push(performance.now() - s);
    }
    const perEmbeddedImage: EmbedCost['perEmbeddedImage'] = {};
    for (const k of REGION_KINDS) {
      let ms = 0;
      let images = 0;
      for (const b of uploads[k].slice(0, Math.min(n, 100))) {
        const s = performance.now();
        const e = await client.embed(b, true, true);
        ms += performance.now() - s;
        images += 1 + (e.regions?.length ?? 0);
      }
      perEmbeddedImage[k] = { msPerImage: r1(ms / images), images };
    }
    load.push(os.loadavg()[0]);
    return {
      images: clean.length,
      inProcess: {
        wallMean: r1(full.wall.reduce((a, b) => a + b, 0) / full.wall.length),
        wallP95: pct(full.wall, 0.95),
        cpuMean: r1(full.cpu),
        cnnOnlyCpuMean: r1(cnn.cpu),
        decodeCpuMean: r1(dec.cpu),
      },
      sidecar: timing(wall),
      perEmbeddedImage,
      load,
    };
  } finally {
    await sidecar.close();
  }
}
