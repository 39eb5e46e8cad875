import fs from 'node:fs';
import { type Readable, Transform } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { AppError, notFound } from '../errors.ts';
import {
  contentDisposition,
  contentTypeOf,
  type DirectUrlOptions,
  isSafeKey,
  type ObjectStore,
  type SignedUrl,
  type SignOptions,
  signFileUrl,
} from './objectStore.ts';
import type { UrlSigner } from './urlSigner.ts';

export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible service's address (MinIO, R2, a test server); AWS's own when absent. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** Static credentials; the SDK's default chain (environment, profile, instance role) when absent. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Prepended to every key, so one bucket can hold several deployments. */
  prefix: string;
}

const notFoundStatus = (err: unknown) =>
  err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound');

/**
 * Files in an S3-compatible bucket. Clients never get a bucket URL that outlives a plan: they get the
 * same signed /files/ link as with the local driver, and the API redirects a checked request to a
 * 60-second presigned GET (directUrl).
 */
export class S3ObjectStore implements ObjectStore {
  readonly driver = 's3' as const;
  private readonly client: S3Client;

  constructor(
    private readonly s3: S3Settings,
    private readonly signer: UrlSigner,
    private readonly baseUrl: () => string,
  ) {
    this.client = new S3Client({
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: s3.forcePathStyle,
      credentials: s3.accessKeyId && s3.secretAccessKey ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } : undefined,
      // Checksums only where S3 requires them: S3-compatible services differ in the trailers they accept.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(key: string): string {
    if (!isSafeKey(key)) throw new AppError('bad_request', `invalid object key: ${key}`);
    return this.s3.prefix + key;
  }

  async put(key: string, data: Buffer, contentType = contentTypeOf(key)): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.s3.bucket, Key: this.key(key), Body: data, ContentType: contentType }));
  }

  /** Multipart upload in parts of 8 MB: memory stays at a few parts whatever the object's size. */
  async putStream(key: string, body: Readable, contentType = contentTypeOf(key)): Promise<number> {
    let bytes = 0;
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    body.once('error', (err) => count.destroy(err));
    const upload = new Upload({
      client: this.client,
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: false,
      params: { Bucket: this.s3.bucket, Key: this.key(key), Body: body.pipe(count), ContentType: contentType },
    });
    await upload.done();
    return bytes;
  }

  async putFileOnce(key: string, sourcePath: string): Promise<boolean> {
    if (await this.exists(key)) return false;
    await this.putStream(key, fs.createReadStream(sourcePath));
    return true;
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.s3.bucket, Key: this.key(key) }));
      return true;
    } catch (err) {
      if (notFoundStatus(err)) return false;
      throw err;
    }
  }

  async read(key: string): Promise<Buffer> {
    const body = await this.open(key);
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  async open(key: string): Promise<Readable> {
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.s3.bucket, Key: this.key(key) }));
      return r.Body as Readable;
    } catch (err) {
      if (notFoundStatus(err)) throw notFound(`object ${key}`);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.s3.bucket, Key: this.key(key) }));
  }

  signedUrl(key: string, opts: SignOptions): SignedUrl {
    return signFileUrl(this.signer, this.baseUrl(), key, opts);
  }

  directUrl(key: string, opts: DirectUrlOptions): Promise<string> {
    const cmd = new GetObjectCommand({
      Bucket: this.s3.bucket,
      Key: this.key(key),
      ResponseContentDisposition: contentDisposition(opts.filename),
      ResponseContentType: opts.contentType,
    });
    return getSignedUrl(this.client, cmd, { expiresIn: opts.ttlSeconds });
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
