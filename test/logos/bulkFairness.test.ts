import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Job, Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { FanOut, LOGO_SEARCH_QUEUE } from '../../src/logos/fanout.ts';
import { type ImageServer, type Route, startImageServer } from '../helpers/imageServer.ts';
import { addLogos, createLogoApp, drawLogo, indexPending, type LogoTestApp } from '../helpers/logos.ts';

// Bulk image URLs when one account sends many slow ones (issue 18, defect 4): the workers' slots are
// shared between accounts, a request that ends withdraws its images, and a fetch that ran to its
// deadline is charged. The slow image server holds every /slow/… request open until the test answers
// it, so what happens is decided by what the test does, not by how long anything takes.

interface Held {
  path: string;
  res: ServerResponse;
  answered: boolean;
  /** The fetch went away before it was answered. */
  dropped: boolean;
}

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('logo search: bulk image URLs from a tenant with slow images', function () {
  this.timeout(60_000);
  let server: ImageServer;
  let logo: Buffer;
  const held: Held[] = [];
  const heldUnder = (prefix: string) => held.filter((h) => h.path.startsWith(prefix));
  const answer = (h: Held) => {
    h.answered = true;
    h.res.writeHead(200, { 'Content-Type': 'image/png' }).end(logo);
  };
  let refuse = false;
  const hold: Route = (res) => {
    if (refuse) return void res.destroy();
    const h: Held = { path: res.req.url ?? '', res, answered: false, dropped: false };
    res.on('close', () => {
      if (!h.answered) h.dropped = true;
    });
    held.push(h);
  };

  before(async () => {
    logo = await drawLogo({ slug: 'docker', size: 120, ink: [0, 120, 200] });
    const routes: Record<string, Route> = { '/fast.png': (res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(logo) };
    for (const set of ['a', 'gone', 'late', 'stop', 'deadline']) for (let i = 0; i < 12; i++) routes[`/slow/${set}/${i}.png`] = hold;
    server = await startImageServer(routes);
  });
  after(async () => {
    await server?.close();
  });

  describe('with a 60 s fetch deadline', () => {
    let t: LogoTestApp;
    let queue: Queue;
    let redis: Redis;
    /** The jobs of the images whose URLs contain `part`. */
    const jobsOf = async (part: string, states: ('prioritized' | 'wait' | 'active' | 'delayed' | 'failed')[]) =>
      (await queue.getJobs(states)).filter((j: Job) => j?.data.ref.includes(part));

    before(async () => {
      t = await createLogoApp({
        IMAGE_FETCH_TEST_ALLOW: server.hostPort,
        IMAGE_FETCH_TEST_CA: server.caFile,
        IMAGE_FETCH_TIMEOUT_MS: '60000',
      });
      await addLogos(t.app, [{ app: '5300001', mark: 'WHALE', draw: { slug: 'docker' } }]);
      await indexPending(t);
      redis = new Redis(t.app.deps.config.REDIS_URL, { maxRetriesPerRequest: null });
      queue = new Queue(LOGO_SEARCH_QUEUE, { connection: redis, prefix: t.app.deps.config.QUEUE_PREFIX });
    });
    afterEach(async () => {
      // Whatever a failed test left queued or hanging ends now, so it holds no slot in the next.
      refuse = true;
      for (const h of held) if (!h.answered && !h.dropped) h.res.destroy();
      await until('the queue to drain', async () =>
        Object.values(await queue.getJobCounts('active', 'wait', 'prioritized', 'delayed')).every((n) => n === 0),
      );
      refuse = false;
    });
    after(async () => {
      await queue?.close();
      redis?.disconnect();
      await t?.close();
    });

    it("answers another account's one image at the first free slot, while the first account's 12 slow ones are still pending", async () => {
      const a = await t.app.client({ bulk_logo_limit: 100 });
      const b = await t.app.client({ bulk_logo_limit: 100 });
      const aUrls = Array.from({ length: 12 }, (_, i) => `${server.origin}/slow/a/${i}.png`);
      let aDone = false;
      const aRes = a
        .post('/v1/logo-search/bulk-image-url/')
        .send({ image_urls: aUrls, similarity_level: 'low' })
        .then((r) => {
          aDone = true;
          return r;
        });
      await until("A's images fill every slot", () => heldUnder('/slow/a/').length === 4);

      let bDone = false;
      const bRes = b
        .post('/v1/logo-search/bulk-image-url/')
        .send({ image_urls: [`${server.origin}/fast.png`], similarity_level: 'low' })
        .then((r) => {
          bDone = true;
          return r;
        });
      // B's image is taken in by the workers although A's hold every slot (its turn is theirs to give), or, as before
      // issue 18, it stays in the queue's one list behind A's eight; either way the slots decide what comes next.
      await until(
        "B's image taken in, or left waiting behind A's",
        async () =>
          (await jobsOf('/fast.png', ['active'])).length === 1 ||
          ((await jobsOf('/fast.png', ['wait', 'prioritized'])).length === 1 && (await queue.getActiveCount()) === 4),
      );
      // Free A's slots one at a time, each once the freed slot was given to someone, until B has its answer.
      while (!bDone) {
        const seen = server.seen.length;
        const next = heldUnder('/slow/a/').find((h) => !h.answered);
        if (next) answer(next);
        await until('a freed slot to be used, or B answered', () => bDone || server.seen.length > seen);
      }
      const fetched = server.seen.filter((p) => p.startsWith('/slow/a/') || p === '/fast.png');
      expect(fetched.indexOf('/fast.png'), fetched.join(' ')).to.equal(4);
      expect(aDone, 'A is still waiting for its slow images').to.equal(false);
      const bBody = (await bRes).body;
      expect(bBody.results[0].error).to.equal(null);
      expect(bBody.results[0].results[0].application_number).to.equal('5300001');

      // Answered at last, A's images are all searched and all charged.
      while (!aDone) {
        for (const h of heldUnder('/slow/a/')) if (!h.answered) answer(h);
        await until('A answered or another of its images fetched', () => aDone || heldUnder('/slow/a/').some((h) => !h.answered));
      }
      const aBody = (await aRes).body;
      expect(aBody.results.map((r: { error: unknown }) => r.error)).to.deep.equal(aUrls.map(() => null));
      expect(aBody.charged).to.equal(12);
      expect(await t.app.used(a.account.accountId, 'logo_searches')).to.equal(12);
    });

    it(
      'withdraws the images of a client that went away: ' + 'the running fetches are closed, the rest never fetched, nothing charged',
      async () => {
        const a = await t.app.client({ bulk_logo_limit: 100 });
        const api = http.createServer(t.app.app).listen(0, '127.0.0.1');
        await new Promise((r) => api.once('listening', r));
        try {
          const req = http.request({
            host: '127.0.0.1',
            port: (api.address() as AddressInfo).port,
            path: '/v1/logo-search/bulk-image-url/',
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-API-Key': a.account.key },
          });
          req.on('error', () => undefined);
          req.end(JSON.stringify({ image_urls: Array.from({ length: 12 }, (_, i) => `${server.origin}/slow/gone/${i}.png`) }));
          await until('the images fill every slot', () => heldUnder('/slow/gone/').length === 4);
          expect(await t.app.used(a.account.accountId, 'logo_searches')).to.equal(12);
          req.destroy();

          await until('the running fetches to be closed', () => heldUnder('/slow/gone/').every((h) => h.dropped));
          await until(
            'no job of the request left to run',
            async () => (await jobsOf('/slow/gone/', ['prioritized', 'wait', 'active', 'delayed'])).length === 0,
          );
          const failed = await jobsOf('/slow/gone/', ['failed']);
          expect(failed.map((j) => j.failedReason))
            .to.have.length(12)
            .and.satisfy((r: string[]) => r.every((x) => x.startsWith('cancelled')));
          expect(heldUnder('/slow/gone/')).to.have.length(4);
          // Charged when admitted; every item given back, as none was searched.
          await until('the credits given back', async () => (await t.app.used(a.account.accountId, 'logo_searches')) === 0);
        } finally {
          api.closeAllConnections();
          await new Promise((r) => api.close(r));
        }
      },
    );

    it('withdraws the images when the API stops waiting for them', async () => {
      const fan = new FanOut(t.app.deps.connections, t.app.deps.config.QUEUE_PREFIX, 3000);
      try {
        const run = fan.run(
          Array.from({ length: 12 }, (_, i) => ({ kind: 'url' as const, ref: `${server.origin}/slow/late/${i}.png`, k: 5 })),
          { account: 'late' },
        );
        await until('the images fill every slot', () => heldUnder('/slow/late/').length === 4);
        const answers = await run;
        expect(answers.map((x) => (x.ok ? 'ok' : x.code))).to.deep.equal(answers.map(() => 'service_unavailable'));
        await until('the running fetches to be closed', () => heldUnder('/slow/late/').every((h) => h.dropped));
        await until(
          'no job left to run',
          async () => (await jobsOf('/slow/late/', ['prioritized', 'wait', 'active', 'delayed'])).length === 0,
        );
        expect(heldUnder('/slow/late/')).to.have.length(4);
      } finally {
        await fan.close();
      }
    });
  });

  describe('when the workers process stops', () => {
    it('puts the images still waiting for their turn back in the queue, and lets the running ones finish', async () => {
      const t = await createLogoApp({
        IMAGE_FETCH_TEST_ALLOW: server.hostPort,
        IMAGE_FETCH_TEST_CA: server.caFile,
        IMAGE_FETCH_TIMEOUT_MS: '60000',
      });
      const redis = new Redis(t.app.deps.config.REDIS_URL, { maxRetriesPerRequest: null });
      const queue = new Queue(LOGO_SEARCH_QUEUE, { connection: redis, prefix: t.app.deps.config.QUEUE_PREFIX });
      const counts = () => queue.getJobCounts('active', 'wait', 'prioritized', 'delayed', 'completed', 'failed');
      try {
        await queue.addBulk(
          Array.from({ length: 12 }, (_, i) => ({
            name: 'url',
            data: { kind: 'url', ref: `${server.origin}/slow/stop/${i}.png`, k: 5, account: 'stop' },
            opts: { attempts: 3 },
          })),
        );
        await until('the images fill every slot', () => heldUnder('/slow/stop/').length === 4);
        const stopping = t.workers.close();
        await until('the waiting ones put back', async () => {
          const c = await counts();
          return c.active === 4 && c.wait + c.prioritized + c.delayed === 8;
        });
        for (const h of heldUnder('/slow/stop/')) answer(h);
        await stopping;
        const c = await counts();
        expect([c.completed, c.wait + c.prioritized + c.delayed, c.active, c.failed]).to.deep.equal([4, 8, 0, 0]);
        expect(heldUnder('/slow/stop/')).to.have.length(4);
      } finally {
        await queue.close();
        redis.disconnect();
        await t.close();
      }
    });
  });

  describe('with a short fetch deadline', () => {
    let t: LogoTestApp;
    before(async () => {
      t = await createLogoApp({
        IMAGE_FETCH_TEST_ALLOW: server.hostPort,
        IMAGE_FETCH_TEST_CA: server.caFile,
        IMAGE_FETCH_TIMEOUT_MS: '500',
      });
    });
    after(() => t?.close());

    it('charges an image URL that ran to its deadline, and gives back one that failed at once', async () => {
      const c = await t.app.client({ bulk_logo_limit: 100 });
      const res = await c.post('/v1/logo-search/bulk-image-url/').send({
        image_urls: [`${server.origin}/slow/deadline/0.png`, `${server.origin}/missing.png`, `${server.origin}/fast.png`],
        similarity_level: 'low',
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.results.map((r: { error: { code: string } | null }) => r.error?.code ?? null)).to.deep.equal([
        'image_url_unreachable',
        'image_url_unreachable',
        null,
      ]);
      expect(heldUnder('/slow/deadline/')[0].dropped).to.equal(true);
      expect(res.body.charged).to.equal(2);
      expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(2);
    });
  });
});
