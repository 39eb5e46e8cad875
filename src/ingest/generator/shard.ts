import { Builder } from './build.ts';
import { type Entity, emitMark, Sink } from './emit.ts';
import { loadReference } from './reference.ts';
import type { Force } from './types.ts';

// A contiguous range of baseline marks rendered to bytes. The same code runs in worker threads and,
// for small sets, in the main thread; output depends only on the range, so chunks can be produced
// anywhere and concatenated in index order.

export interface ShardConfig {
  seed: number;
  n: number;
  dataDir: string;
  forced: [number, Force][];
}

export interface ChunkOutput {
  bytes: Record<Entity, Buffer>;
  lines: Record<Entity, number>;
}

export class Shard {
  readonly builder: Builder;
  private readonly forced: Map<number, Force>;
  private readonly sink = new Sink();

  constructor(cfg: ShardConfig) {
    this.builder = new Builder(cfg.seed, cfg.n, loadReference(cfg.dataDir));
    this.forced = new Map(cfg.forced);
  }

  chunk(start: number, end: number): ChunkOutput {
    const appNo = (i: number) => this.builder.marks.appNo(i);
    for (let i = start; i < end; i++) emitMark(this.builder.build(i, this.forced.get(i)), this.sink, appNo);
    return this.sink.take();
  }
}
