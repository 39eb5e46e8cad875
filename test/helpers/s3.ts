import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  /** Configuration that points the app's S3 driver at this server (a key prefix of its own). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on a loopback port, with one bucket, for the S3 driver's tests. */
export async function startS3(): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-s3-'));
  const bucket = 'nishaan-test';
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    env: {
      OBJECT_STORE_DRIVER: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PREFIX: `run-${randomBytes(4).toString('hex')}/`,
    },
    async close() {
      // Idle keep-alive connections (the SDK's, fetch's) would hold close() up for a minute.
      const closing = server.close();
      (server as unknown as { httpServer: import('node:http').Server }).httpServer.closeAllConnections();
      await closing;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
