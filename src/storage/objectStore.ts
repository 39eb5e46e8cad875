import type { Readable } from 'node:stream';

export interface SignedUrl {
  url: string;
  expiresAt: Date;
}

export interface SignOptions {
  /**
   * The account the URL is issued to. It is bound into the signature, so the URL cannot be re-issued
   * to another account; nothing checks the account's plan when the URL is used yet (that comes with
   * the documents endpoints).
   */
  accountId: string;
}

/** Files of the registry (documents, journals, logos, reports). Keys are relative, `/`-separated. */
export interface ObjectStore {
  put(key: string, data: Buffer): Promise<void>;
  /** Copies a local file in; a no-op when the key already exists (keys are content-addressed). */
  putFileOnce(key: string, sourcePath: string): Promise<boolean>;
  exists(key: string): Promise<boolean>;
  read(key: string): Promise<Buffer>;
  stream(key: string): Readable;
  delete(key: string): Promise<void>;
  signedUrl(key: string, opts: SignOptions): SignedUrl;
}

export const SIGNED_URL_TTL_SECONDS = 30 * 60;

const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json',
};

export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}

/** Keys never climb out of the store: no empty segments, no `..`, a safe alphabet. */
export function isSafeKey(key: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(key) && !key.split('/').includes('..') && key.length <= 512;
}
