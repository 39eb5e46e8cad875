import type { Config } from '../config.ts';
import { LocalObjectStore } from './localStore.ts';
import type { ObjectStore } from './objectStore.ts';
import { S3ObjectStore } from './s3Store.ts';
import type { UrlSigner } from './urlSigner.ts';

/** The object store the configuration names (OBJECT_STORE_DRIVER). */
export function createObjectStore(config: Config, signer: UrlSigner, baseUrl: () => string): ObjectStore {
  if (config.OBJECT_STORE_DRIVER === 's3') {
    return new S3ObjectStore(
      {
        bucket: config.S3_BUCKET!,
        region: config.S3_REGION,
        endpoint: config.S3_ENDPOINT,
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
        accessKeyId: config.S3_ACCESS_KEY_ID,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY,
        prefix: config.S3_PREFIX,
      },
      signer,
      baseUrl,
    );
  }
  return new LocalObjectStore(config.objectStoreDir, signer, baseUrl);
}
