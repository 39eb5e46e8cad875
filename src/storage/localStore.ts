import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError } from '../errors.ts';
import { isSafeKey, type ObjectStore, type SignedUrl, type SignOptions } from './objectStore.ts';
import type { UrlSigner } from './urlSigner.ts';

export const FILES_PREFIX = '/files/';

/** Files in a local folder, served by the API itself at /files/<key> behind signed URLs. */
export class LocalObjectStore implements ObjectStore {
  constructor(
    readonly root: string,
    private readonly signer: UrlSigner,
    private readonly baseUrl: () => string,
  ) {}

  pathOf(key: string): string {
    if (!isSafeKey(key)) throw new AppError('bad_request', `invalid object key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const dest = this.pathOf(key);
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const tmp = `${dest}.${randomBytes(6).toString('hex')}.tmp`;
    await fsp.writeFile(tmp, data);
    await fsp.rename(tmp, dest);
  }

  async putFileOnce(key: string, sourcePath: string): Promise<boolean> {
    if (await this.exists(key)) return false;
    const dest = this.pathOf(key);
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    const tmp = `${dest}.${randomBytes(6).toString('hex')}.tmp`;
    await fsp.copyFile(sourcePath, tmp);
    await fsp.rename(tmp, dest);
    return true;
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fsp.access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  read(key: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(key));
  }

  stream(key: string): Readable {
    return fs.createReadStream(this.pathOf(key));
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  signedUrl(key: string, opts: SignOptions): SignedUrl {
    const urlPath = FILES_PREFIX + key;
    const { query, expiresAt } = this.signer.sign(urlPath, opts.accountId);
    return { url: `${this.baseUrl()}${urlPath}?${query}`, expiresAt };
  }
}
