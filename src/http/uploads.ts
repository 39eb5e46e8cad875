import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';
import multer from 'multer';
import { z } from './zod.ts';
import { AppError } from '../errors.ts';

// Multipart uploads, streamed to disk as they arrive (never held in memory), hashed and measured on
// the way; the first bytes are kept so the file can be judged by content, not by its name. Files are
// deleted when the response is done, whatever happened.

export interface StoredUpload {
  path: string;
  size: number;
  sha256: string;
  /** The first bytes of the file. */
  head: Buffer;
  originalname: string;
  mimetype: string;
}

const HEAD = 64;

class HashingDiskStorage implements multer.StorageEngine {
  constructor(private readonly dir: string) {}

  _handleFile(_req: Request, file: Express.Multer.File, cb: (error?: unknown, info?: Partial<Express.Multer.File & StoredUpload>) => void): void {
    const target = path.join(this.dir, `${randomUUID()}.upload`);
    const hash = createHash('sha256');
    const heads: Buffer[] = [];
    let size = 0;
    const out = fs.createWriteStream(target, { flags: 'wx', mode: 0o600 });
    file.stream.on('data', (c: Buffer) => {
      hash.update(c);
      if (size < HEAD) heads.push(c.subarray(0, HEAD - size));
      size += c.length;
    });
    file.stream.pipe(out);
    out.on('error', (err) => cb(err));
    out.on('finish', () => cb(null, { path: target, size, sha256: hash.digest('hex'), head: Buffer.concat(heads) }));
  }

  _removeFile(_req: Request, file: Express.Multer.File, cb: (error: Error | null) => void): void {
    fs.rm(file.path, { force: true }, () => cb(null));
  }
}

const isUpload = (v: unknown): v is StoredUpload =>
  typeof v === 'object' && v !== null && typeof (v as StoredUpload).path === 'string' && typeof (v as StoredUpload).sha256 === 'string';

/** A form field holding one uploaded file (documented as binary). */
export const UploadField = (description: string) =>
  z.custom<StoredUpload>(isUpload, { message: 'a file is required here' }).openapi({ type: 'string', format: 'binary', description });

const invalid = (parameter: string, message: string) =>
  new AppError('validation_error', `invalid body parameter: ${parameter}`, [{ in: 'body', parameter, message }]);

/**
 * Reads a multipart form with up to `maxCount` files in `field` into `req.body` (each file as a
 * StoredUpload; one file alone when maxCount is 1), at most `maxBytes` per file.
 */
export function multipartReader(dir: string, field: string, maxCount: number, maxBytes: number) {
  fs.mkdirSync(dir, { recursive: true });
  sweepStale(dir);
  const parse = multer({
    storage: new HashingDiskStorage(dir),
    limits: { fileSize: maxBytes, files: maxCount, fields: 20, fieldSize: 4096, parts: maxCount + 20 },
  }).array(field, maxCount);
  return (req: Request, res: Response): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      parse(req, res, (err?: unknown) => {
        const files = ((req.files ?? []) as unknown as StoredUpload[]).map((f) => ({
          path: f.path, size: f.size, sha256: f.sha256, head: f.head, originalname: f.originalname, mimetype: f.mimetype,
        }));
        const remove = () => files.forEach((f) => fs.rm(f.path, { force: true }, () => undefined));
        res.once('close', remove);
        if (err) return reject(multipartError(err, field, maxCount, maxBytes));
        const body: Record<string, unknown> = { ...(req.body ?? {}) };
        if (maxCount === 1) {
          if (files.length) body[field] = files[0];
        } else if (files.length) body[field] = files;
        req.body = body;
        resolve();
      });
    });
}

// Uploads outlive their request only when a process died mid-request; an hour later they are litter.
const STALE_MS = 3600_000;

function sweepStale(dir: string): void {
  for (const f of fs.readdirSync(dir)) {
    if (!f.endsWith('.upload')) continue;
    const p = path.join(dir, f);
    try {
      if (Date.now() - fs.statSync(p).mtimeMs > STALE_MS) fs.rmSync(p, { force: true });
    } catch {
      // Gone already (another process swept it).
    }
  }
}

function multipartError(err: unknown, field: string, maxCount: number, maxBytes: number): AppError {
  if (err instanceof multer.MulterError) {
    switch (err.code) {
      case 'LIMIT_FILE_SIZE':
        return new AppError('payload_too_large', `${field}: a file is larger than ${maxBytes} bytes (5 MB)`, { parameter: field, max_bytes: maxBytes });
      case 'LIMIT_FILE_COUNT':
      case 'LIMIT_UNEXPECTED_FILE':
        return err.field && err.field !== field
          ? invalid(err.field, `unexpected file field: send the image${maxCount > 1 ? 's' : ''} as ${field}`)
          : invalid(field, maxCount === 1 ? 'send one file' : `at most ${maxCount} files per request`);
      default:
        return invalid(err.field ?? '(body)', err.message);
    }
  }
  // busboy's complaints about a malformed form (a cut-off body, a bad boundary).
  return new AppError('bad_request', `the multipart body could not be read: ${(err as Error).message ?? 'malformed'}`);
}
