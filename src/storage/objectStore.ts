import type { Readable } from 'node:stream';
import type { UrlSigner } from './urlSigner.ts';

export interface SignedUrl {
  url: string;
  expiresAt: Date;
}

export interface SignOptions {
  /**
   * The account the URL is issued to. It is bound into the signature, so the URL cannot be re-issued
   * to another account, and the account's plan is checked when the URL is used (src/http/routes/files.ts).
   */
  accountId: string;
  /** The name the file is offered under (Content-Disposition); the key's last segment when absent. */
  filename?: string;
}

/** Where an S3 object's short-lived direct URL should send the client, and what to call the file. */
export interface DirectUrlOptions {
  filename: string;
  contentType: string;
  ttlSeconds: number;
}

/** Files of the registry (documents, journals, logos, reports). Keys are relative, `/`-separated. */
export interface ObjectStore {
  readonly driver: 'local' | 's3';
  put(key: string, data: Buffer, contentType?: string): Promise<void>;
  /** Streams `body` in; the object appears whole or not at all. Resolves to the bytes written. */
  putStream(key: string, body: Readable, contentType?: string): Promise<number>;
  /** Copies a local file in; a no-op when the key already exists (keys are content-addressed). */
  putFileOnce(key: string, sourcePath: string): Promise<boolean>;
  exists(key: string): Promise<boolean>;
  read(key: string): Promise<Buffer>;
  /** Opens the object for streaming; rejects with a `not_found` AppError when there is none. */
  open(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
  /** A 30-minute link to this API's /files/ route, which checks the signature and the account's plan. */
  signedUrl(key: string, opts: SignOptions): SignedUrl;
  /** Local driver: the file on disk, which /files/ sends itself. */
  localPath?(key: string): string;
  /** S3 driver: a short-lived URL straight to the object, which /files/ redirects to once it has checked the plan. */
  directUrl?(key: string, opts: DirectUrlOptions): Promise<string>;
  close?(): Promise<void>;
}

export const FILES_PREFIX = '/files/';

/** The signed /files/ link both drivers hand out: the API checks it before any byte leaves the store. */
export function signFileUrl(signer: UrlSigner, baseUrl: string, key: string, opts: SignOptions): SignedUrl {
  const urlPath = FILES_PREFIX + key;
  const { query, expiresAt } = signer.sign(urlPath, opts.accountId, opts.filename ?? '');
  return { url: `${baseUrl}${urlPath}?${query}`, expiresAt };
}

const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json',
  zip: 'application/zip',
};

export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}

/** Keys never climb out of the store: no empty segments, no `..`, a safe alphabet. */
export function isSafeKey(key: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(key) && !key.split('/').includes('..') && key.length <= 512;
}

/**
 * A download name safe in a header: what the client asked for when it is printable, else a
 * plain fallback. Content-Disposition carries both forms (RFC 6266).
 */
export function contentDisposition(filename: string, disposition: 'inline' | 'attachment' = 'inline'): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return ascii === filename ? `${disposition}; filename="${ascii}"` : `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
