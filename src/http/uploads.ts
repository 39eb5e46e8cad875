import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';
import multer from 'multer';
import { AppError, invalidParameter } from '../errors.ts';
import { SNIFF_BYTES } from '../logos/imageInput.ts';
import { isUpload, type StoredUpload } from '../schema/upload.ts';

// Multipart uploads, streamed to disk as they arrive (never held in memory), hashed and measured on
// the way; the first bytes are kept so the file can be judged by content, not by its name. Files are
// deleted when the response is done, whatever happened; a file's name begins with its API process's
// instance (INSTANCE_ID), so that when the process dies `npm start` removes what it left
// (removeUploadsOf, scripts/start.ts).

// As many as the image check reads: an SVG's root can come after its XML declaration and an editor's comment.
const HEAD = SNIFF_BYTES;
const noop = () => undefined;

/**
 * Every file begun for one request. multer's own list is not enough: a body cut off inside a file leaves
 * it a placeholder with no path, and the file itself on disk.
 */
class RequestFiles {
  private readonly paths = new Set<string>();
  ended = false;

  add(p: string): void {
    this.paths.add(p);
  }

  /** The response is over: every file goes (one still being written goes when its stream closes). */
  end(): void {
    this.ended = true;
    for (const p of this.paths) fs.rm(p, { force: true }, noop);
  }
}

const requestFiles = new WeakMap<Request, RequestFiles>();

function filesOf(req: Request): RequestFiles {
  let files = requestFiles.get(req);
  if (!files) requestFiles.set(req, (files = new RequestFiles()));
  return files;
}

const SUFFIX = '.upload';
const ownedBy = (instance: string) => `${instance}_`;

class HashingDiskStorage implements multer.StorageEngine {
  constructor(private readonly dir: string) {}

  _handleFile(
    req: Request,
    file: Express.Multer.File,
    cb: (error?: unknown, info?: Partial<Express.Multer.File & StoredUpload>) => void,
  ): void {
    // A request cut off mid-file (a timeout closing it, a client gone) never ends the file's stream: close the file.
    const cutOff = () => req.complete || fail(new Error('the request ended before the file did'));
    req.once('close', cutOff);
    const files = filesOf(req);
    if (files.ended) {
      file.stream.resume();
      cb(new Error('the request has ended'));
      return;
    }
    const instance = (req.app.locals as { instance?: string }).instance ?? 'unnamed';
    const target = path.join(this.dir, `${ownedBy(instance)}${randomUUID()}${SUFFIX}`);
    files.add(target);
    const hash = createHash('sha256');
    const heads: Buffer[] = [];
    let size = 0;
    let settled = false;
    const out = fs.createWriteStream(target, { flags: 'wx', mode: 0o600 });
    // A file that was still being opened or written when the response ended is removed once it is closed.
    out.on('close', () => files.ended && fs.rm(target, { force: true }, noop));
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      // pipe() does not end the file when its source fails (a body cut off mid-file): close it here.
      out.destroy();
      fs.rm(target, { force: true }, () => cb(err));
    };
    file.stream.on('data', (c: Buffer) => {
      hash.update(c);
      if (size < HEAD) heads.push(c.subarray(0, HEAD - size));
      size += c.length;
    });
    file.stream.on('error', fail);
    file.stream.pipe(out);
    out.on('error', fail);
    out.on('finish', () => {
      req.off('close', cutOff);
      if (settled) return;
      settled = true;
      cb(null, { path: target, size, sha256: hash.digest('hex'), head: Buffer.concat(heads) });
    });
  }

  _removeFile(_req: Request, file: Express.Multer.File, cb: (error: Error | null) => void): void {
    if (typeof file.path !== 'string') {
      cb(null);
      return;
    }
    fs.rm(file.path, { force: true }, () => cb(null));
  }
}

/** Where uploads go, and how long one may take to arrive. */
export interface UploadSettings {
  dir: string;
  /** Longest silence while the body arrives. */
  idleMs: number;
  /** Longest time for the whole body. */
  totalMs: number;
}

/**
 * Reads a multipart form with up to `maxCount` files in `field` into `req.body` (each file as a
 * StoredUpload; one file alone when maxCount is 1), at most `maxBytes` per file.
 *
 * The form is read after the request was admitted, so while it arrives it holds one of the account's
 * concurrency slots: a body that trickles in (or stops) would hold it as long as the client liked. One that
 * sends nothing for `idleMs`, or is not all there after `totalMs`, is answered 408 `request_timeout` and its
 * connection closed; its files go with it.
 */
export function multipartReader(s: UploadSettings, field: string, maxCount: number, maxBytes: number) {
  fs.mkdirSync(s.dir, { recursive: true });
  sweepStale(s.dir);
  return (req: Request, res: Response): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const begun = filesOf(req);
      if (res.closed) begun.end();
      else res.once('close', () => begun.end());
      let settled = false;
      let busboy: NodeJS.WritableStream | undefined;
      const timeout = (message: string, ms: number) => () => {
        if (settled) return;
        settled = true;
        clearTimeout(total);
        clearTimeout(idle);
        const err = new AppError('request_timeout', message, { timeout_ms: ms }, { Connection: 'close' });
        // The answer goes out now, and the connection closes behind it, which ends the read (multer waits for it).
        res.once('finish', () => req.destroy());
        busboy?.emit('error', err);
        reject(err);
      };
      const idle = setTimeout(timeout(`the upload sent nothing for ${s.idleMs / 1000} s`, s.idleMs), s.idleMs);
      const total = setTimeout(timeout(`the upload took longer than ${s.totalMs / 1000} s`, s.totalMs), s.totalMs);
      const parse = multer({
        storage: new HashingDiskStorage(s.dir),
        limits: { fileSize: maxBytes, files: maxCount, fields: 20, fieldSize: 4096, parts: maxCount + 20 },
        // The body reaches busboy through here, so every chunk that arrives puts the idle deadline back.
        streamHandler: (r: Request, b: NodeJS.WritableStream) => {
          busboy = b;
          r.on('data', () => idle.refresh());
          r.pipe(b);
        },
      } as multer.Options).array(field, maxCount);
      parse(req, res, (err?: unknown) => {
        clearTimeout(total);
        clearTimeout(idle);
        if (settled) return;
        settled = true;
        // Only stored files: multer may leave a placeholder (no path) for a file that failed.
        const files = ((req.files ?? []) as unknown[]).filter(isUpload).map((f) => ({
          path: f.path,
          size: f.size,
          sha256: f.sha256,
          head: f.head,
          originalname: f.originalname,
          mimetype: f.mimetype,
        }));
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
    if (!f.endsWith(SUFFIX)) continue;
    const p = path.join(dir, f);
    try {
      if (Date.now() - fs.statSync(p).mtimeMs > STALE_MS) fs.rmSync(p, { force: true });
    } catch {
      // Gone already (another process swept it).
    }
  }
}

/**
 * Removes the uploads an API process left behind (its instance's files): called by `npm start` when one
 * of its API processes has died, since the process itself cannot. Resolves to how many were removed.
 */
export async function removeUploadsOf(dir: string, instance: string): Promise<number> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return 0;
  }
  const mine = names.filter((f) => f.startsWith(ownedBy(instance)) && f.endsWith(SUFFIX));
  await Promise.all(mine.map((f) => fs.promises.rm(path.join(dir, f), { force: true })));
  return mine.length;
}

function multipartError(err: unknown, field: string, maxCount: number, maxBytes: number): AppError {
  if (err instanceof multer.MulterError) {
    switch (err.code) {
      case 'LIMIT_FILE_SIZE':
        return new AppError('payload_too_large', `${field}: a file is larger than ${maxBytes} bytes (5 MB)`, {
          parameter: field,
          max_bytes: maxBytes,
        });
      case 'LIMIT_FILE_COUNT':
      case 'LIMIT_UNEXPECTED_FILE':
        return err.field && err.field !== field
          ? invalidParameter('body', err.field, `unexpected file field: send the image${maxCount > 1 ? 's' : ''} as ${field}`)
          : invalidParameter('body', field, maxCount === 1 ? 'send one file' : `at most ${maxCount} files per request`);
      default:
        return invalidParameter('body', err.field ?? '(body)', err.message);
    }
  }
  // busboy's complaints about a malformed form (a cut-off body, a bad boundary).
  return new AppError('bad_request', `the multipart body could not be read: ${(err as Error).message ?? 'malformed'}`);
}
