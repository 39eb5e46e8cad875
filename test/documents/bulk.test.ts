import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import JSZip from 'jszip';
import request from 'supertest';
import { BULK_QUEUE } from '../../src/documents/bulkService.ts';
import { BulkZipBuilder } from '../../src/documents/bulkWorker.ts';
import type { ObjectStore } from '../../src/storage/objectStore.ts';
import { startBulkDocumentWorker } from '../../workers/bulkDocuments.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { binary } from '../helpers/http.ts';
import { seedRegistry } from '../helpers/seed.ts';

const local = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe('bulk document download (/v3/documents/bulk/)', () => {
  let t: TestApp;
  let connection: Redis;
  let worker: ReturnType<typeof startBulkDocumentWorker>;
  const prefix = `test-bulk-${randomBytes(5).toString('hex')}`;
  const files: Record<string, Buffer> = {
    'blobs/doc71.pdf': Buffer.from('%PDF-1.4\nexamination report 71\n'),
    'blobs/doc72.pdf': Buffer.from('%PDF-1.4\nnotice of opposition 72\n'),
    'blobs/doc73.pdf': Buffer.from('%PDF-1.4\nreply 73\n'),
    'blobs/doc75.pdf': Buffer.concat([Buffer.from('%PDF-1.4\nregistration certificate 75\n'), Buffer.alloc(300_000, 0x20)]),
  };

  before(async () => {
    t = await createTestApp({ QUEUE_PREFIX: prefix });
    await seedRegistry(t.deps.db);
    await t.deps.db('documents').insert([
      {
        id: 73,
        application_number: '4000001',
        name: 'Reply',
        document_type: 'Reply to Examination Report',
        upload_date: '2019-06-20',
        object_key: 'blobs/doc73.pdf',
      },
      // Its file never reached the store: listed as a failure and refunded.
      {
        id: 74,
        application_number: '4000001',
        name: 'Hearing Notice',
        document_type: 'Hearing Notice',
        upload_date: '2019-11-01',
        object_key: 'blobs/doc74.pdf',
      },
      {
        id: 75,
        application_number: '4000002',
        name: 'Registration Certificate',
        document_type: 'Registration Certificate',
        upload_date: '2021-06-01',
        object_key: 'blobs/doc75.pdf',
      },
    ]);
    for (const [key, body] of Object.entries(files)) await t.deps.store.put(key, body);
    connection = new Redis(t.deps.config.REDIS_URL, { maxRetriesPerRequest: null });
    worker = startBulkDocumentWorker(t.deps, { concurrency: 2, job: { attempts: 2, backoffMs: 10 }, intervalMs: 60_000 });
  });
  after(async () => {
    await worker?.close();
    // Redis is shared: this run's queues go with it.
    for (const p of [prefix, `${prefix}-broken`]) {
      const q = new Queue(BULK_QUEUE, { connection, prefix: p });
      await q.obliterate({ force: true });
      await q.close();
    }
    connection?.disconnect();
    await t?.close();
  });

  async function settled(c: { get(p: string): request.Test }, id: string): Promise<request.Response> {
    for (let i = 0; i < 200; i++) {
      const res = await c.get(`/v3/documents/bulk/${id}/`);
      if (!['queued', 'running'].includes(res.body.status)) return res;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`job ${id} did not finish`);
  }

  async function unzip(url: string): Promise<JSZip> {
    const res = await request(t.app).get(local(url)).buffer(true).parse(binary);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('application/zip');
    return JSZip.loadAsync(res.body as Buffer);
  }

  it('zips the documents of several marks, lists what failed, and charges one doc_views per document delivered', async () => {
    const c = await t.client();
    const res = await c.post('/v3/documents/bulk/').send({ application_numbers: ['4000001', '4000002', '4000002', '9999999'] });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(res.body).to.include({ status: 'queued', documents_requested: 5, credits_charged: 5, opposition_documents_excluded: 0 });
    expect(res.body.not_found).to.deep.equal(['9999999']);
    expect(res.body.application_numbers).to.deep.equal(['4000001', '4000002', '9999999']);
    // Absolute, as a Location must be (PUBLIC_BASE_URL of the test app), and in the 202's Location.
    expect(res.body.status_url).to.equal(`http://127.0.0.1:1/v3/documents/bulk/${res.body.job_id}/`);
    expect(res.headers.location).to.equal(res.body.status_url);
    expect(await t.used(c.account.accountId, 'doc_views')).to.equal(5);

    const done = await settled(c, res.body.job_id);
    expect(done.body, JSON.stringify(done.body)).to.include({ status: 'done', documents_included: 4, credits_refunded: 1 });
    expect(done.body.failures).to.deep.equal([
      { document_id: 74, application_number: '4000001', reason: "the document's file is missing from the store" },
    ]);
    expect(done.body.download.expires_in).to.equal('30 minutes');
    expect(await t.used(c.account.accountId, 'doc_views')).to.equal(4);

    const zip = await unzip(done.body.download.presigned_url);
    const names = Object.keys(zip.files)
      .filter((n) => !zip.files[n].dir)
      .sort();
    expect(names).to.deep.equal([
      '4000001/4000001 Examination Report 71.pdf',
      '4000001/4000001 Notice of Opposition 72.pdf',
      '4000001/4000001 Reply 73.pdf',
      '4000002/4000002 Registration Certificate 75.pdf',
      'manifest.json',
    ]);
    for (const [name, key] of [
      ['4000001/4000001 Examination Report 71.pdf', 'blobs/doc71.pdf'],
      ['4000002/4000002 Registration Certificate 75.pdf', 'blobs/doc75.pdf'],
    ]) {
      expect(Buffer.compare(await zip.file(name)!.async('nodebuffer'), files[key]), name).to.equal(0);
    }
    const manifest = JSON.parse(await zip.file('manifest.json')!.async('string'));
    // by mark, then upload date
    expect(manifest.documents.map((d: { document_id: number }) => d.document_id)).to.deep.equal([71, 73, 72, 75]);
    expect(manifest.failures).to.have.length(1);
    // Polling is free and each poll hands out a fresh link.
    expect(await t.used(c.account.accountId, 'api_calls')).to.equal(0);
  });

  it('filters by document type and leaves opposition filings out without cat_opp_docs', async () => {
    const c = await t.without('cat_opp_docs');
    const res = await c.post('/v3/documents/bulk/').send({ application_numbers: '4000001, 4000002' });
    expect(res.status).to.equal(202);
    expect(res.body).to.include({ documents_requested: 4, opposition_documents_excluded: 1 });
    const typed = await c.post('/v3/documents/bulk/').send({ application_numbers: ['4000001'], document_types: ['Examination Report'] });
    expect(typed.status).to.equal(202);
    expect(typed.body).to.include({ documents_requested: 1 });
    const done = await settled(c, typed.body.job_id);
    const zip = await unzip(done.body.download.presigned_url);
    expect(Object.keys(zip.files).sort()).to.deep.equal(['4000001/4000001 Examination Report 71.pdf', 'manifest.json']);
    const none = await c.post('/v3/documents/bulk/').send({ application_numbers: ['4000003'] });
    expect(none.status).to.equal(404);
    // Five charged; the missing file of the first job given back.
    expect((await settled(c, res.body.job_id)).body.credits_refunded).to.equal(1);
    expect(await t.used(c.account.accountId, 'doc_views')).to.equal(4);
  });

  it('refuses a request whole when doc_views are short, and applies the bulk and category rules', async () => {
    const c = await t.client({ quotas: { doc_views: 4 }, bulk_search_limit: 2 });
    const short = await c.post('/v3/documents/bulk/').send({ application_numbers: ['4000001', '4000002'] });
    expect(short.status).to.equal(429);
    expect(short.body.details).to.include({ resource: 'doc_views', needed: 5, remaining: 4 });
    expect(await t.used(c.account.accountId, 'doc_views')).to.equal(0);
    expect(await t.deps.db('bulk_document_jobs').where({ account_id: c.account.accountId }).count('* as n').first()).to.deep.equal({
      n: 0,
    });

    const big = await c.post('/v3/documents/bulk/').send({ application_numbers: ['4000001', '4000002', '4000003'] });
    expect(big.status).to.equal(403);
    expect(big.body.code).to.equal('bulk_size_exceeds_plan');
    const huge = await c.post('/v3/documents/bulk/').send({ application_numbers: Array.from({ length: 101 }, (_, i) => String(i + 1)) });
    expect(huge.status).to.equal(400);
    const types = await c.post('/v3/documents/bulk/').send({ application_numbers: ['4000001'], document_types: [] });
    expect(types.status).to.equal(400);
    expect(types.body.details[0].parameter).to.equal('document_types');
    const noDocs = await t.without('cat_documents');
    expect((await noDocs.post('/v3/documents/bulk/').send({ application_numbers: ['4000001'] })).status).to.equal(403);
  });

  it('shows a job to its own account only', async () => {
    const c = await t.client();
    const { body } = await c.post('/v3/documents/bulk/').send({ application_numbers: ['4000002'] });
    const other = await t.client();
    expect((await other.get(`/v3/documents/bulk/${body.job_id}/`)).status).to.equal(404);
    expect((await other.get('/v3/documents/bulk/not-a-uuid/')).status).to.equal(404);
    expect((await c.get(`/v3/documents/bulk/${body.job_id}/`)).status).to.equal(200);
  });

  /** A job for document 75 as the API commits it (one credit charged), a minute old and in no queue. */
  async function unqueuedJob(accountId: string): Promise<string> {
    const [row] = await t.deps
      .db('bulk_document_jobs')
      .insert({
        account_id: accountId,
        application_numbers: ['4000002'],
        document_ids: [75],
        not_found: [],
        charge: JSON.stringify({ units: 1, month: `${new Date().toISOString().slice(0, 8)}01` }),
        created_at: t.deps.db.raw("now() - interval '1 minute'"),
      })
      .returning('id');
    return row.id;
  }

  it('builds a job once: running it again does nothing, and a job whose enqueue was lost is relayed', async () => {
    const c = await t.client();
    const { body } = await c.post('/v3/documents/bulk/').send({ application_numbers: ['4000002'] });
    const done = await settled(c, body.job_id);
    const builder = new BulkZipBuilder(t.deps.repos.bulkJobs, t.deps.repos.documents, t.deps.store, t.deps.log);
    expect(await builder.build(body.job_id)).to.equal('skipped');
    expect((await c.get(`/v3/documents/bulk/${body.job_id}/`)).body.finished_at).to.equal(done.body.finished_at);

    // A request committed but never enqueued (the API lost Redis right after its commit).
    const id = await unqueuedJob(c.account.accountId);
    expect(await worker.relayOnce()).to.equal(1);
    expect((await settled(c, id)).body.status).to.equal('done');
    expect(await worker.relayOnce()).to.equal(0);
  });

  it('fails a job for good after its retries and gives every credit back', async () => {
    const c = await t.client();
    // A store that cannot write: every attempt fails.
    const broken: ObjectStore = Object.create(t.deps.store, {
      putStream: {
        value: async () => {
          throw new Error('disk full');
        },
      },
    });
    const w = startBulkDocumentWorker(t.deps, {
      store: broken,
      prefix: `${prefix}-broken`,
      concurrency: 1,
      job: { attempts: 2, backoffMs: 10 },
      intervalMs: 60_000,
    });
    try {
      const id = await unqueuedJob(c.account.accountId);
      await t.deps.db.raw(
        `insert into usage_counters (account_id, month, resource, used)
         values (?, date_trunc('month', now() at time zone 'UTC')::date, 'doc_views', 1)`,
        [c.account.accountId],
      );
      expect(await w.relayOnce()).to.equal(1);
      const res = await settled(c, id);
      expect(res.body).to.include({ status: 'failed', error: 'disk full', credits_refunded: 1, download: null });
      const attempts = await t.deps.db('bulk_document_jobs').where({ id }).first('attempts');
      expect(attempts.attempts).to.equal(2);
      expect(await t.used(c.account.accountId, 'doc_views')).to.equal(0);
    } finally {
      await w.close();
    }
  });

  it('deletes zips past their retention and marks their jobs expired', async () => {
    const c = await t.client();
    const { body } = await c.post('/v3/documents/bulk/').send({ application_numbers: ['4000002'] });
    await settled(c, body.job_id);
    const key = `bulk/${body.job_id}.zip`;
    expect(await t.deps.store.exists(key)).to.equal(true);
    await t.deps
      .db('bulk_document_jobs')
      .where({ id: body.job_id })
      .update({ finished_at: t.deps.db.raw("now() - interval '25 hours'") });
    expect(await worker.sweepOnce()).to.equal(1);
    expect(await t.deps.store.exists(key)).to.equal(false);
    const res = await c.get(`/v3/documents/bulk/${body.job_id}/`);
    expect(res.body).to.include({ status: 'expired', download: null });
  });
});
