// Files a set refers to (`file` fields) go into the object store under content-addressed keys,
// `blobs/<sha256>.<ext>`: a PDF shared by a million documents is hashed and stored once, and a
// re-import finds every key present and writes nothing. Blobs are written before the import's
// transaction commits; if it then fails, they are merely unreferenced (and reused by the next try).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import sharp, { type Metadata } from 'sharp';
import type { ObjectStore } from '../../storage/objectStore.ts';

export interface FileFacts {
  key: string;
  size: number;
  /** Only for images: what the bytes are, whatever the file name says. */
  contentType?: string;
  width?: number;
  height?: number;
}

/** A file's facts, or the reason the line naming it is refused. */
export type FileResult = FileFacts | { reason: string };

const IMAGE_TYPES: Record<string, { ext: string; contentType: string }> = {
  png: { ext: 'png', contentType: 'image/png' },
  jpeg: { ext: 'jpg', contentType: 'image/jpeg' },
};

// Enough parallel hashing and copying to keep the disk busy without flooding it.
const CONCURRENCY = 16;
const IN_MEMORY = 4 << 20;

export class SetFiles {
  private readonly done = new Map<string, FileResult>();
  private readonly running = new Map<string, Promise<FileResult>>();
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private realDirP: Promise<string> | undefined;
  hashed = 0;
  stored = 0;

  constructor(
    private readonly dir: string,
    private readonly store: ObjectStore,
  ) {}

  /**
   * Facts of the file at `rel` (a path inside the set, already checked by lines.ts). Synchronous
   * once the file has been seen, so the millions of lines sharing a few files cost a map lookup.
   */
  resolve(rel: string, image: boolean): FileResult | Promise<FileResult> {
    const id = image ? `img:${rel}` : rel;
    const known = this.done.get(id);
    if (known) return known;
    let p = this.running.get(id);
    if (!p) {
      p = this.limited(() => this.load(rel, image)).then((r) => {
        this.done.set(id, r);
        this.running.delete(id);
        return r;
      });
      this.running.set(id, p);
    }
    return p;
  }

  private async limited<T>(fn: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot straight to the next waiter, so `active` never overshoots.
    if (this.active >= CONCURRENCY) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** The set directory with every link resolved, found once. */
  private realDir(): Promise<string> {
    this.realDirP ??= fs.promises.realpath(this.dir);
    return this.realDirP;
  }

  private async load(rel: string, image: boolean): Promise<FileResult> {
    // lines.ts only checks the path's text; a link in the set (`files/x.pdf -> /etc/passwd`, or a
    // linked folder) would still lead outside it, and whatever it names would be stored and served.
    // So the real path must lie inside the set's real path; everything below uses that real path.
    let abs: string;
    try {
      abs = await fs.promises.realpath(path.join(this.dir, rel));
    } catch {
      return { reason: `file not found: ${rel}` };
    }
    const root = await this.realDir();
    if (!abs.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) return { reason: `file is outside the set: ${rel}` };
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(abs);
    } catch {
      return { reason: `file not found: ${rel}` };
    }
    if (!stat.isFile()) return { reason: `file is not a regular file: ${rel}` };
    // Small files (every logo, most PDFs) are read once and hashed, inspected and stored from memory;
    // big ones are streamed.
    const data = stat.size <= IN_MEMORY ? await fs.promises.readFile(abs) : undefined;
    let ext = path.extname(rel).slice(1).toLowerCase();
    let facts: Partial<FileFacts> = {};
    if (image) {
      let meta: Metadata;
      try {
        meta = await sharp(data ?? abs).metadata();
      } catch {
        return { reason: `file is not a readable image: ${rel}` };
      }
      const kind = meta.format ? IMAGE_TYPES[meta.format] : undefined;
      if (!kind) return { reason: `file must be a PNG or JPEG image: ${rel}` };
      ext = kind.ext;
      facts = { contentType: kind.contentType, width: meta.width, height: meta.height };
    }
    if (!/^[a-z0-9]{1,10}$/.test(ext)) ext = 'bin';
    const hash = createHash('sha256');
    if (data) hash.update(data);
    else await pipeline(fs.createReadStream(abs), hash);
    this.hashed++;
    const key = `blobs/${hash.digest('hex')}.${ext}`;
    if (data) {
      if (!(await this.store.exists(key))) {
        await this.store.put(key, data);
        this.stored++;
      }
    } else if (await this.store.putFileOnce(key, abs)) {
      this.stored++;
    }
    return { key, size: stat.size, ...facts };
  }
}
