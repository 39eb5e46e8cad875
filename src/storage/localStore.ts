import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, notFound } from '../errors.ts';
import { isSafeKey, type ObjectStore, type SignedUrl, type SignOptions, signFileUrl } from './objectStore.ts';
import type { UrlSigner } from './urlSigner.ts';

export { FILES_PREFIX } from './objectStore.ts';

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG']);

/** Files in a local folder, served by the API itself at /files/<key> behind signed URLs. */
export class LocalObjectStore implements ObjectStore {
  readonly driver = 'local' as const;

  constructor(
    readonly root: string,
    private readonly signer: UrlSigner,
    private readonly baseUrl: () => string,
  ) {}

  pathOf(key: string): string {
    if (!isSafeKey(key)) throw new AppError('bad_request', `invalid object key: ${key}`);
    return path.join(this.root, key);
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  /** A temporary name beside the destination: renamed over it when complete, so a reader never sees half a file. */
  private async temp(key: string): Promise<{ dest: string; tmp: string }> {
    const dest = this.pathOf(key);
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    return { dest, tmp: `${dest}.${randomBytes(6).toString('hex')}.tmp` };
  }

  async put(key: string, data: Buffer): Promise<void> {
    const { dest, tmp } = await this.temp(key);
    await fsp.writeFile(tmp, data);
    await fsp.rename(tmp, dest);
  }

  async putStream(key: string, body: Readable): Promise<number> {
    const { dest, tmp } = await this.temp(key);
    let bytes = 0;
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, count, fs.createWriteStream(tmp));
      await fsp.rename(tmp, dest);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    return bytes;
  }

  async putFileOnce(key: string, sourcePath: string): Promise<boolean> {
    if (await this.exists(key)) return false;
    const { dest, tmp } = await this.temp(key);
    await fsp.copyFile(sourcePath, tmp);
    await fsp.rename(tmp, dest);
    return true;
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await fsp.stat(this.pathOf(key))).isFile();
    } catch {
      return false;
    }
  }

  read(key: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(key));
  }

  async open(key: string): Promise<Readable> {
    // Opened before the stream is handed out, so a missing file is a rejection here, not a late stream error.
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(this.pathOf(key), 'r');
      if (!(await handle.stat()).isFile()) {
        await handle.close();
        throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
      }
    } catch (err) {
      if (MISSING.has((err as NodeJS.ErrnoException).code ?? '')) throw notFound(`object ${key}`);
      throw err;
    }
    return handle.createReadStream();
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  signedUrl(key: string, opts: SignOptions): SignedUrl {
    return signFileUrl(this.signer, this.baseUrl(), key, opts);
  }
}
