import { Readable } from 'node:stream';
import { expect } from 'chai';
import request from 'supertest';
import { loadConfig } from '../../src/config.ts';
import { S3ObjectStore } from '../../src/storage/s3Store.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startS3, type TestS3 } from '../helpers/s3.ts';
import { seedRegistry } from '../helpers/seed.ts';

const local = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

/** Follows the API's redirect to the S3 server (loopback) and returns the response. */
async function follow(location: string, headers: Record<string, string> = {}): Promise<Response> {
  const u = new URL(location);
  expect(u.hostname).to.equal('127.0.0.1');
  return fetch(location, { headers, redirect: 'manual' });
}

describe('S3-compatible object store (against a real S3 server on loopback)', () => {
  let s3: TestS3;
  let t: TestApp;
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(100_000, 0x42)]);

  before(async () => {
    s3 = await startS3();
    t = await createTestApp(s3.env);
    await seedRegistry(t.deps.db);
    await t.deps.store.put('blobs/doc71.pdf', pdf);
  });
  after(async () => {
    await t?.close();
    await s3?.close();
  });

  it('is the driver the configuration selects, which refuses to start without a bucket', () => {
    expect(t.deps.store).to.be.instanceOf(S3ObjectStore);
    expect(t.deps.store.driver).to.equal('s3');
    expect(() => loadConfig({ OBJECT_STORE_DRIVER: 's3' })).to.throw(/S3_BUCKET: required/);
    expect(() => loadConfig({ OBJECT_STORE_DRIVER: 's3', S3_BUCKET: 'x' })).to.throw(/S3_BUCKET/);
    expect(() => loadConfig({ OBJECT_STORE_DRIVER: 's3', S3_BUCKET: 'docs', S3_PREFIX: 'no-slash' })).to.throw(/S3_PREFIX/);
    expect(() => loadConfig({ OBJECT_STORE_DRIVER: 'ftp' })).to.throw(/OBJECT_STORE_DRIVER/);
  });

  it('puts, reads, streams, checks and deletes objects', async () => {
    const store = t.deps.store;
    expect(await store.exists('blobs/doc71.pdf')).to.equal(true);
    expect(await store.exists('blobs/none.pdf')).to.equal(false);
    expect(Buffer.compare(await store.read('blobs/doc71.pdf'), pdf)).to.equal(0);
    const chunks: Buffer[] = [];
    for await (const c of await store.open('blobs/doc71.pdf')) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).length).to.equal(pdf.length);
    try {
      await store.open('blobs/none.pdf');
      expect.fail('opened a missing object');
    } catch (err) {
      expect((err as { code?: string }).code).to.equal('not_found');
    }
    await store.put('tmp/x.json', Buffer.from('{}'));
    await store.delete('tmp/x.json');
    expect(await store.exists('tmp/x.json')).to.equal(false);
  });

  it('streams a large object in as a multipart upload and reports its size', async () => {
    // Two 8 MB parts and a tail, produced lazily: never one buffer of the whole object.
    const part = Buffer.alloc(1024 * 1024, 7);
    const big = Readable.from(
      (function* () {
        for (let i = 0; i < 17; i++) yield part;
      })(),
    );
    const bytes = await t.deps.store.putStream('bulk/big.bin', big, 'application/octet-stream');
    expect(bytes).to.equal(17 * 1024 * 1024);
    const back = await t.deps.store.read('bulk/big.bin');
    expect(back.length).to.equal(bytes);
    expect(back.every((b) => b === 7)).to.equal(true);
    await t.deps.store.delete('bulk/big.bin');
  });

  it('hands out /files/ links that check the plan, then redirect to a 60-second S3 URL with the file name and type', async () => {
    const { body } = await t.get('/v1/trademarks/4000001/documents/');
    expect(body.count).to.equal(1);
    const link = body.documents[0].presigned_url as string;
    expect(new URL(link).pathname).to.equal('/files/blobs/doc71.pdf');
    const res = await request(t.app).get(local(link));
    expect(res.status).to.equal(302);
    const location = res.headers.location as string;
    expect(new URL(location).searchParams.get('X-Amz-Expires')).to.equal('60');
    const file = await follow(location);
    expect(file.status).to.equal(200);
    expect(Buffer.compare(Buffer.from(await file.arrayBuffer()), pdf)).to.equal(0);
    expect(file.headers.get('content-type')).to.equal('application/pdf');
    expect(file.headers.get('content-length')).to.equal(String(pdf.length));
    expect(file.headers.get('content-disposition')).to.equal('inline; filename="4000001 Examination Report 71.pdf"');
    const part = await follow(location, { Range: 'bytes=0-7' });
    expect(part.status).to.equal(206);
    expect(await part.text()).to.equal('%PDF-1.4');
  });

  it('refuses tampered, unsigned and inactive-plan links before redirecting, and 404s a missing object', async () => {
    const c = await t.client();
    const link = local((await c.get('/v1/documents/71/url/')).body.presigned_url);
    for (const bad of [link.replace(/exp=(\d+)/, (_m, e) => `exp=${Number(e) + 1}`), link.split('?')[0]]) {
      const res = await request(t.app).get(bad);
      expect(res.status).to.equal(403);
      expect(res.headers.location).to.equal(undefined);
    }
    const missing = t.deps.store.signedUrl('blobs/none.pdf', { accountId: c.account.accountId });
    const gone = await request(t.app).get(local(missing.url));
    expect(gone.status).to.equal(404);
    expect(gone.body.code).to.equal('not_found');
    await t.deps.db('subscriptions').where({ account_id: c.account.accountId }).update({ status: 'inactive' });
    // The app caches callers until PostgreSQL announces the change: wait for it rather than race it.
    await t.synced();
    const refused = await request(t.app).get(link);
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('subscription_inactive');
    expect(refused.headers.location).to.equal(undefined);
  });
});
