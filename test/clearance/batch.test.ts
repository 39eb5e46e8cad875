import { type ChildProcess, fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import os from 'node:os';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import request from 'supertest';
import { CLEARANCE_BATCH_QUEUE } from '../../src/clearance/batchService.ts';
import { startClearanceBatchWorker } from '../../workers/clearanceBatch.ts';
import type { WebhookWorkers } from '../../workers/webhooks.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type ImageServer, startImageServer } from '../helpers/imageServer.ts';
import { insertMarks, type MarkSpec } from '../helpers/marks.ts';
import { Receiver } from '../helpers/receiver.ts';
import { owner, startWorkers, until, webhookEnv } from '../webhooks/support.ts';

// POST /v1/clearance/batch/ and GET …/{job_id}/: validation up front, the job's shape, its answers
// (each as the single clearance answers), credits taken once per proposal, a worker killed mid-job,
// and the clearance.completed webhook event.

const MARKS: MarkSpec[] = [
  { app: '8100001', mark: 'SUNRISE OIL', cls: 29 },
  { app: '8100002', mark: 'SUNRIZE', cls: 30 },
  { app: '8100003', mark: 'KAVERI TEA', cls: 30 },
  { app: '8100004', mark: 'BLUEBERRY', cls: 29 },
];
const WORKER_MAIN = new URL('../helpers/clearanceWorkerMain.ts', import.meta.url).pathname;

type Keyed = { get(p: string): request.Test; post(p: string): request.Test };
const keyed = (t: TestApp, key: string): Keyed => ({
  get: (p) => request(t.app).get(p).set('X-API-Key', key),
  post: (p) => request(t.app).post(p).set('X-API-Key', key),
});
const words = ['SUNRISE FOODS', 'KAVERI', 'SUNRIZE OIL', 'BLUE BERRY', 'NEW MOON'];
const proposal = (i: number) => ({ word_mark: words[i % words.length], classes: i % 2 ? [29, 30] : [30] });
const classesOf = (ps: { classes: number[] }[]) => ps.reduce((n, p) => n + p.classes.length, 0);
const local = (url: string) => new URL(url).pathname;

describe('POST /v1/clearance/batch/', function () {
  this.timeout(90_000);
  let t: TestApp;
  let images: ImageServer;
  let connection: Redis;
  const env = webhookEnv();
  // A logo fetch held open until the worker fetching it is killed; afterwards the image is gone (404).
  const held: import('node:http').ServerResponse[] = [];
  let release = false;
  const held2: import('node:http').ServerResponse[] = [];
  let release2 = false;

  before(async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .png()
      .toBuffer();
    images = await startImageServer({
      '/logo.png': (res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(png),
      '/hold.png': (res) => {
        if (release) res.writeHead(404).end('gone');
        else held.push(res);
      },
      '/hold2.png': (res) => {
        if (release2) res.writeHead(404).end('gone');
        else held2.push(res);
      },
    });
    // No image sidecar answers here: a proposal with a logo fails as when the sidecar is away.
    Object.assign(env, {
      ML_URL: 'http://127.0.0.1:9',
      IMAGE_FETCH_TEST_ALLOW: images.hostPort,
      IMAGE_FETCH_TEST_CA: images.caFile,
      IMAGE_FETCH_TIMEOUT_MS: '60000',
    });
    t = await createTestApp(env);
    await insertMarks(t.deps.db, MARKS);
    connection = new Redis(t.deps.config.REDIS_URL, { maxRetriesPerRequest: null });
  });
  after(async () => {
    for (const res of [...held, ...held2]) res.destroy();
    const q = new Queue(CLEARANCE_BATCH_QUEUE, { connection, prefix: env.QUEUE_PREFIX });
    await q.obliterate({ force: true });
    await q.close();
    connection?.disconnect();
    await images?.close();
    await t?.close();
  });

  async function settled(c: Keyed, id: string, query = ''): Promise<request.Response> {
    let res!: request.Response;
    await until(
      `batch ${id} to end`,
      async () => {
        res = await c.get(`/v1/clearance/batch/${id}/${query}`);
        return res.body.status === 'completed' || res.body.status === 'failed';
      },
      { ms: 60_000, state: async () => JSON.stringify(res?.body).slice(0, 300) },
    );
    return res;
  }

  describe('without a worker', () => {
    it('accepts 1 to 1,000 proposals: 202, the job queued and its absolute URL in Location', async () => {
      const res = await t.post('/v1/clearance/batch/').send({ proposals: [proposal(0), proposal(1)] });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(Object.keys(res.body)).to.deep.equal(['job_id', 'status', 'total', 'done', 'status_url']);
      expect(res.body).to.include({ status: 'queued', total: 2, done: 0 });
      expect(res.body.job_id).to.match(/^[0-9a-f-]{36}$/);
      expect(res.headers.location).to.equal(`http://127.0.0.1:1/v1/clearance/batch/${res.body.job_id}/`);
      expect(res.body.status_url).to.equal(res.headers.location);
      const got = await t.get(local(res.headers.location));
      expect(got.status).to.equal(200);
      expect(got.body).to.include({ job_id: res.body.job_id, status: 'queued', total: 2, done: 0, errors: 0 });
      expect(got.body.results).to.equal(null);
      expect(got.body.credits).to.deep.equal({ clearances: 0, logo_searches: 0 });
      const max = await t.post('/v1/clearance/batch/').send({ proposals: Array.from({ length: 1000 }, (_, i) => proposal(i)) });
      expect(max.status).to.equal(202);
      expect(max.body.total).to.equal(1000);
    });

    it('refuses 1,001 proposals, and none, with 400', async () => {
      const over = await t.post('/v1/clearance/batch/').send({ proposals: Array.from({ length: 1001 }, (_, i) => proposal(i)) });
      expect(over.status).to.equal(400);
      expect(JSON.stringify(over.body)).to.contain('at most 1000');
      const none = await t.post('/v1/clearance/batch/').send({ proposals: [] });
      expect(none.status).to.equal(400);
    });

    it('refuses the whole batch with 400 naming the index and the field of each bad proposal', async () => {
      const before = await t.deps.db('clearance_batches').count<{ count: string }[]>('* as count');
      const res = await t.post('/v1/clearance/batch/').send({
        proposals: [proposal(0), { word_mark: 'X', classes: [46] }, { word_mark: '  ', classes: [29] }, { ...proposal(1), colour: 1 }],
      });
      expect(res.status).to.equal(400);
      const params = (res.body.details as { parameter: string }[]).map((d) => d.parameter);
      expect(params).to.include.members(['proposals.1.classes', 'proposals.2.word_mark', 'proposals.3.colour']);
      expect(params.some((p) => p.startsWith('proposals.0'))).to.equal(false);
      const logo = await t.post('/v1/clearance/batch/').send({ proposals: [{ classes: [29], logo_url: 'ftp://x/y.png' }] });
      expect(logo.status).to.equal(400);
      expect(JSON.stringify(logo.body)).to.contain('proposals.0.logo_url');
      const after = await t.deps.db('clearance_batches').count<{ count: string }[]>('* as count');
      expect(after[0].count).to.equal(before[0].count);
    });

    it("answers 404 for an unknown job id, a malformed one and another account's job", async () => {
      expect((await t.get('/v1/clearance/batch/00000000-0000-4000-8000-000000000000/')).status).to.equal(404);
      expect((await t.get('/v1/clearance/batch/not-a-job/')).status).to.equal(404);
      const mine = await t.post('/v1/clearance/batch/').send({ proposals: [proposal(0)] });
      const other = await t.client();
      const res = await other.get(`/v1/clearance/batch/${mine.body.job_id}/`);
      expect(res.status).to.equal(404);
      expect(res.body.code).to.equal('not_found');
    });

    it('is gated by the plan like single clearance', async () => {
      const c = await t.client({ quotas: { clearances: 0 } });
      const res = await c.post('/v1/clearance/batch/').send({ proposals: [proposal(0)] });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('clearance_not_on_plan');
    });
  });

  describe('with a worker', () => {
    let worker: ReturnType<typeof startClearanceBatchWorker>;
    let webhooks: WebhookWorkers;
    let receiver: Receiver;
    before(async () => {
      // The jobs the tests above left queued (a thousand proposals among them) are dropped from the queue: nothing waits for them.
      const q = new Queue(CLEARANCE_BATCH_QUEUE, { connection, prefix: env.QUEUE_PREFIX });
      await q.obliterate({ force: true });
      await q.close();
      worker = startClearanceBatchWorker(t.deps, { intervalMs: 60_000 });
      receiver = await new Receiver().start();
      webhooks = await startWorkers(t);
    });
    after(async () => {
      await worker?.close();
      await webhooks?.close();
      await receiver?.close();
    });

    it('answers every proposal as the single clearance does, charges each once, and sends clearance.completed signed', async () => {
      const o = await owner(t);
      const c = keyed(t, o.account.key);
      const hook = (
        await o
          .post('/user/v1/webhooks/')
          .send({ url: `${receiver.url}/batch`, monitored_applications: [], events: ['clearance.completed'] })
      ).body as { id: string; secret: string };
      const proposals = Array.from({ length: 30 }, (_, i) => proposal(i));
      const accepted = await c.post('/v1/clearance/batch/').send({ proposals });
      expect(accepted.status).to.equal(202);
      const id = accepted.body.job_id;
      const done = await settled(c, id, '?limit=100');
      expect(done.body).to.include({ status: 'completed', total: 30, done: 30, errors: 0 });
      expect(done.body.credits).to.deep.equal({ clearances: classesOf(proposals), logo_searches: 0 });
      expect(await t.used(o.account.accountId, 'clearances')).to.equal(classesOf(proposals));
      const answers = done.body.results.proposals as { index: number; status: string; result: object; error: null }[];
      expect(answers.map((a) => a.index)).to.deep.equal(proposals.map((_, i) => i));
      for (const i of [0, 1, 2]) {
        // The single clearance's answer, less the id it is kept under for its reports.
        const { clearance_id, ...single } = (await c.post('/v1/clearance/').send(proposals[i])).body;
        expect(clearance_id).to.be.a('string');
        expect(answers[i]).to.deep.equal({ index: i, status: 'done', result: single, error: null });
      }
      const page = await c.get(`/v1/clearance/batch/${id}/?limit=5&offset=27`);
      expect(page.body.results).to.include({ count: 30, limit: 5, offset: 27 });
      expect(page.body.results.proposals.map((a: { index: number }) => a.index)).to.deep.equal([27, 28, 29]);

      await until('the clearance.completed delivery', () => receiver.received.some((r) => r.path === '/batch'));
      const got = receiver.received.filter((r) => r.path === '/batch');
      expect(got).to.have.length(1);
      const r = got[0];
      expect(r.headers['x-nishaan-event']).to.equal('clearance.completed');
      expect(r.headers['x-nishaan-signature']).to.equal(`sha256=${createHmac('sha256', hook.secret).update(r.body).digest('hex')}`);
      const body = JSON.parse(r.body);
      expect(body.event).to.equal('clearance.completed');
      expect(body.clearance).to.include({ job_id: id, status: 'completed', total: 30, done: 30, errors: 0 });
      expect(body.clearance.credits).to.deep.equal({ clearances: classesOf(proposals), logo_searches: 0 });
      expect(body.clearance.status_url).to.equal(accepted.headers.location);
    });

    it('answers a proposal its credits do not cover with quota_exceeded, free, and goes on', async () => {
      const c = await t.client({ quotas: { clearances: 5, logo_searches: 10 } });
      const proposals = [
        { word_mark: 'SUNRISE', classes: [29, 30, 31] },
        { word_mark: 'KAVERI', classes: [29, 30, 31] },
        { word_mark: 'BLUEBERRY', classes: [29] },
      ];
      const accepted = await c.post('/v1/clearance/batch/').send({ proposals });
      const done = await settled(c, accepted.body.job_id);
      expect(done.body).to.include({ status: 'completed', done: 3, errors: 1 });
      const [a, b, d] = done.body.results.proposals;
      expect(a.status).to.equal('done');
      expect(b).to.deep.include({ status: 'error', result: null });
      expect(b.error.code).to.equal('quota_exceeded');
      expect(d.status).to.equal('done');
      expect(done.body.credits).to.deep.equal({ clearances: 4, logo_searches: 0 });
      expect(await t.used(c.account.accountId, 'clearances')).to.equal(4);
    });
  });

  describe('jobs that did not reach the queue, and chunks given up on', () => {
    let worker: ReturnType<typeof startClearanceBatchWorker>;
    before(() => {
      // The relay enqueues with one attempt a chunk here, so a chunk is given up on at its first failure.
      worker = startClearanceBatchWorker(t.deps, { intervalMs: 60_000, job: { attempts: 1, backoffMs: 10 } });
    });
    after(async () => worker?.close());

    /** A job written as the request writes it whose enqueue was lost, a minute ago. */
    async function lost(accountId: string, proposals: object[]): Promise<string> {
      const id = await t.deps.repos.clearanceBatches.create(accountId, proposals);
      await t.deps
        .db('clearance_batches')
        .where({ id })
        .update({ created_at: t.deps.db.raw("now() - interval '1 minute'") });
      return id;
    }

    it("enqueues a job whose request committed but whose enqueue was lost (the workers' relay)", async () => {
      const c = await t.client();
      const parsed = { word_mark: 'SUNRISE', classes: [29], status: ['live', 'pending'], limit: 50, offset: 0 };
      const id = await lost(c.account.accountId, [parsed, { ...parsed, word_mark: 'KAVERI' }]);
      expect(await worker.relayOnce()).to.be.at.least(1);
      const done = await settled(c, id);
      expect(done.body).to.include({ status: 'completed', total: 2, done: 2, errors: 0 });
      expect(done.body.credits).to.deep.equal({ clearances: 2, logo_searches: 0 });
    });

    it('ends the job failed when a chunk runs out of attempts: its proposals answered service_unavailable, free', async () => {
      const c = await t.client();
      const parsed = { classes: [29], logo_url: `${images.origin}/logo.png`, status: ['live', 'pending'], limit: 50, offset: 0 };
      const id = await lost(c.account.accountId, [parsed, parsed]);
      await worker.relayOnce();
      const done = await settled(c, id);
      expect(done.body).to.include({ status: 'failed', total: 2, done: 2, errors: 2 });
      for (const a of done.body.results.proposals) expect(a.error.code).to.equal('service_unavailable');
      expect(done.body.credits).to.deep.equal({ clearances: 0, logo_searches: 0 });
      expect(await t.used(c.account.accountId, 'clearances')).to.equal(0);
      const events = await t.deps.db('outbox').where({ event: 'clearance.completed', application_number: id });
      expect(events).to.have.length(1);
      expect(events[0].new_value).to.include({ job_id: id, status: 'failed', errors: 2 });
    });
  });

  describe('in workers processes of their own', () => {
    const children: ChildProcess[] = [];
    const start = (): Promise<ChildProcess> => {
      const child = fork(WORKER_MAIN, [], {
        env: {
          ...process.env,
          ...env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          DATABASE_URL: t.deps.config.DATABASE_URL,
          OBJECT_STORE_DIR: t.deps.config.OBJECT_STORE_DIR,
          PUBLIC_BASE_URL: 'http://127.0.0.1:1',
          URL_SIGNING_SECRET: 'test-signing-secret-0123456789',
          SEARCH_SNAPSHOT: '',
        },
        // Without the fence's --import: worker threads (the search index's) inherit it before they can load TypeScript.
        execArgv: ['--import', 'tsx'],
      });
      children.push(child);
      return new Promise((resolve, reject) => {
        child.once('message', () => resolve(child));
        child.once('exit', (code) => reject(new Error(`clearance worker exited ${code}`)));
      });
    };
    const kill = (p: ChildProcess) =>
      new Promise<void>((resolve) => {
        if (p.exitCode !== null || p.signalCode !== null) return resolve();
        p.once('exit', () => resolve());
        p.kill('SIGKILL');
      });
    after(async () => {
      for (const p of children) await kill(p);
    });
    /** The proposals of a batch answered so far, in order. */
    const answeredOf = (id: string) =>
      t.deps
        .db('clearance_batch_items')
        .where({ batch_id: id })
        .whereNot({ status: 'pending' })
        .orderBy('idx')
        .select('idx', 'answered_at');

    it('resumes in the next workers process: every proposal answered once and charged once', async () => {
      const c = await t.client();
      // Proposal 3's logo is fetched from a server that holds the answer: the worker is killed while it waits.
      const proposals = Array.from({ length: 7 }, (_, i) =>
        i === 3 ? { word_mark: 'SUNRISE', classes: [29], logo_url: `${images.origin}/hold.png` } : proposal(i),
      );
      const accepted = await c.post('/v1/clearance/batch/').send({ proposals });
      const id = accepted.body.job_id;
      const first = await start();
      const answered = () => answeredOf(id);
      await until('proposals 0-2 answered and the fetch of 3 held', async () => held.length > 0 && (await answered()).length === 3, {
        state: async () =>
          `held ${held.length}, seen ${images.seen.length}; ` +
          JSON.stringify(await t.deps.db('clearance_batch_items').where({ batch_id: id }).select('idx', 'status', 'error')),
      });
      const before = await answered();
      await kill(first);
      release = true;
      for (const res of held.splice(0)) res.destroy();
      await start();
      const done = await settled(c, id, '?limit=100');
      expect(done.body).to.include({ status: 'completed', total: 7, done: 7, errors: 1 });
      const answers = done.body.results.proposals;
      expect(answers[3].status).to.equal('error');
      expect(answers[3].error.code).to.equal('image_url_unreachable');
      for (const i of [0, 1, 2, 4, 5, 6]) expect(answers[i].status, `proposal ${i}`).to.equal('done');
      // Answered once: those answered before the kill were not answered again.
      const after = await answered();
      expect(after.slice(0, 3)).to.deep.equal(before);
      const paid = classesOf(proposals.filter((_, i) => i !== 3));
      expect(done.body.credits).to.deep.equal({ clearances: paid, logo_searches: 0 });
      expect(await t.used(c.account.accountId, 'clearances')).to.equal(paid);
      expect(await t.used(c.account.accountId, 'logo_searches')).to.equal(0);
      const events = await t.deps.db('outbox').where({ event: 'clearance.completed', application_number: id });
      expect(events).to.have.length(1);
    });

    it('shares a batch between two processes: chunks screened at once, every proposal answered once and charged once', async () => {
      // Only these two processes consume (the test above leaves one running).
      for (const p of children.splice(0)) await kill(p);
      const q = new Queue(CLEARANCE_BATCH_QUEUE, { connection, prefix: env.QUEUE_PREFIX });
      await q.obliterate({ force: true });
      const c = await t.client();
      // Three chunks (25, 25, 10). Proposal 1's logo is fetched from a server that holds the answer: the
      // process that took chunk 0 waits there, so chunks 1 and 2 can only be screened by the other one.
      const proposals = Array.from({ length: 60 }, (_, i) =>
        i === 1 ? { word_mark: 'SUNRISE', classes: [29], logo_url: `${images.origin}/hold2.png` } : proposal(i),
      );
      const accepted = await c.post('/v1/clearance/batch/').send({ proposals });
      const id = accepted.body.job_id;
      const workers = await Promise.all([start(), start()]);
      const answered = () => answeredOf(id);
      await until(
        'chunks 1 and 2 answered while chunk 0 waits on the held logo',
        async () => held2.length > 0 && (await answered()).filter((a) => a.idx >= 25).length === 35,
        { state: async () => `held ${held2.length}, answered ${(await answered()).map((a) => a.idx).join(',')}` },
      );
      const before = (await answered()).filter((a) => a.idx >= 25);
      expect((await answered()).filter((a) => a.idx < 25).map((a) => a.idx)).to.deep.equal([0]);
      // The waiting chunk names the process that holds it (the others are finished, and gone from the queue).
      const active = await q.getJobs(['active']);
      await q.close();
      expect(active.map((j) => j.id)).to.deep.equal([`cb-${id}-0`]);
      expect(workers.map((p) => `${os.hostname()}:${p.pid}`)).to.include(active[0].processedBy);
      release2 = true;
      for (const res of held2.splice(0)) res.destroy();
      const done = await settled(c, id, '?limit=100');
      expect(done.body).to.include({ status: 'completed', total: 60, done: 60, errors: 1 });
      const answers = done.body.results.proposals;
      expect(answers[1].error.code).to.equal('image_url_unreachable');
      expect(answers.filter((a: { status: string }) => a.status === 'done')).to.have.length(59);
      // Answered once: the other process's answers were not written again.
      expect((await answered()).filter((a) => a.idx >= 25)).to.deep.equal(before);
      const paid = classesOf(proposals.filter((_, i) => i !== 1));
      expect(done.body.credits).to.deep.equal({ clearances: paid, logo_searches: 0 });
      expect(await t.used(c.account.accountId, 'clearances')).to.equal(paid);
      const events = await t.deps.db('outbox').where({ event: 'clearance.completed', application_number: id });
      expect(events).to.have.length(1);
    });
  });
});
