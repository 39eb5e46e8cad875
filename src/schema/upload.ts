import { z } from './zod.ts';

/** A file of a multipart form as the request pipeline stored it (src/http/uploads.ts): on disk, hashed and measured. */
export interface StoredUpload {
  path: string;
  size: number;
  sha256: string;
  /** The first bytes of the file. */
  head: Buffer;
  originalname: string;
  mimetype: string;
}

/**
 * Only what the multipart reader stored: its first bytes are a Buffer, which no JSON body can hold, so
 * an endpoint that takes JSON too never reads a file a client names.
 */
export const isUpload = (v: unknown): v is StoredUpload =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as StoredUpload).path === 'string' &&
  typeof (v as StoredUpload).sha256 === 'string' &&
  Buffer.isBuffer((v as StoredUpload).head);

/** A form field holding one uploaded file (documented as binary). */
export const UploadField = (description: string) =>
  z.custom<StoredUpload>(isUpload, { message: 'a file is required here' }).openapi({ type: 'string', format: 'binary', description });
