import { Worker } from 'node:worker_threads';
import type { Entity } from './emit.ts';
import { type ChunkOutput, Shard, type ShardConfig } from './shard.ts';

// Runs chunk generation on worker threads (or inline) and delivers chunks strictly in index order,
// with a bounded number in flight so memory stays flat however large the set is.

export type Deliver = (chunk: number, out: ChunkOutput) => void;

interface Reply {
  chunk: number;
  parts: { entity: Entity; ab: ArrayBuffer; offset: number; length: number }[];
  lines: Record<Entity, number>;
}

const WORKER_URL = new URL('./worker.ts', import.meta.url).href;

/** Workers load TypeScript through tsx's loader, registered inside the worker before the entry. */
function spawn(cfg: ShardConfig): Worker {
  const api = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(WORKER_URL)}); });`;
  // A larger young generation: chunk building allocates many short-lived strings.
  return new Worker(boot, { eval: true, workerData: cfg, resourceLimits: { maxYoungGenerationSizeMb: 96 } });
}

export async function runChunks(
  cfg: ShardConfig,
  total: number,
  chunkSize: number,
  threads: number,
  deliver: Deliver,
  yieldToOthers: () => Promise<void>,
): Promise<void> {
  const chunks = Math.ceil(total / chunkSize);
  const range = (c: number) => [c * chunkSize, Math.min(total, (c + 1) * chunkSize)] as const;
  if (threads <= 0) {
    const shard = new Shard(cfg);
    for (let c = 0; c < chunks; c++) {
      const [s, e] = range(c);
      deliver(c, shard.chunk(s, e));
      await yieldToOthers();
    }
    return;
  }

  const workers = Array.from({ length: threads }, () => spawn(cfg));
  const ready = new Map<number, ChunkOutput>();
  let nextToDeliver = 0;
  let nextToSend = 0;
  const perWorker = 2;
  try {
    await new Promise<void>((resolve, reject) => {
      const send = (w: Worker) => {
        if (nextToSend >= chunks || nextToSend - nextToDeliver >= threads * perWorker * 2) return false;
        const c = nextToSend++;
        const [start, end] = range(c);
        w.postMessage({ chunk: c, start, end });
        return true;
      };
      const idle = new Set<Worker>();
      for (const w of workers) {
        w.on('error', reject);
        w.on('exit', (code) => {
          if (code !== 0 && nextToDeliver < chunks) reject(new Error(`generator worker exited with code ${code}`));
        });
        w.on('message', (r: Reply) => {
          const bytes = {} as Record<Entity, Buffer>;
          for (const p of r.parts) bytes[p.entity] = Buffer.from(p.ab, p.offset, p.length);
          ready.set(r.chunk, { bytes, lines: r.lines });
          try {
            while (ready.has(nextToDeliver)) {
              const out = ready.get(nextToDeliver)!;
              ready.delete(nextToDeliver);
              deliver(nextToDeliver++, out);
            }
          } catch (e) {
            reject(e);
            return;
          }
          if (nextToDeliver >= chunks) return resolve();
          if (!send(w)) idle.add(w);
          for (const other of idle) {
            if (!send(other)) break;
            idle.delete(other);
          }
        });
        for (let k = 0; k < perWorker; k++) if (!send(w)) idle.add(w);
      }
      if (chunks === 0) resolve();
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
