import fs from 'node:fs';
import path from 'node:path';
import { ENTITIES, type Entity } from './emit.ts';

// One file set on disk: an append-only JSONL file per entity, written in large blocks, and the
// manifest that describes the set.

const BLOCK = 1 << 20;

export class SetWriter {
  private readonly fds = new Map<Entity, number>();
  readonly counts = Object.fromEntries(ENTITIES.map((e) => [e, 0])) as Record<Entity, number>;
  bytes = 0;

  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  /** Appends whole lines; empty entities get no file (a missing file means "no lines"). */
  write(entity: Entity, buf: Buffer, lines: number): void {
    if (buf.length === 0) return;
    let fd = this.fds.get(entity);
    if (fd === undefined) {
      fd = fs.openSync(path.join(this.dir, `${entity}.jsonl`), 'w');
      this.fds.set(entity, fd);
    }
    // Synchronous 1 MB writes: the page cache absorbs them, and the caller's loop is the backpressure.
    for (let off = 0; off < buf.length; off += BLOCK) {
      const end = Math.min(buf.length, off + BLOCK);
      let done = off;
      while (done < end) done += fs.writeSync(fd, buf, done, end - done);
    }
    this.counts[entity] += lines;
    this.bytes += buf.length;
  }

  writeAll(out: { bytes: Record<Entity, Buffer>; lines: Record<Entity, number> }): void {
    for (const e of ENTITIES) if (out.bytes[e]) this.write(e, out.bytes[e], out.lines[e]);
  }

  close(manifest: {
    kind: 'baseline' | 'delta';
    generatedAt: string;
    seed: number;
    records: number;
    extra?: Record<string, unknown>;
  }): void {
    for (const fd of this.fds.values()) fs.closeSync(fd);
    this.fds.clear();
    const counts = Object.fromEntries(ENTITIES.filter((e) => this.counts[e] > 0).map((e) => [e, this.counts[e]]));
    const body = {
      format: 'nishaan-ingest/1',
      kind: manifest.kind,
      generated_at: manifest.generatedAt,
      seed: manifest.seed,
      records: manifest.records,
      ...manifest.extra,
      counts,
    };
    fs.writeFileSync(path.join(this.dir, 'manifest.json'), `${JSON.stringify(body, null, 2)}\n`);
  }
}
