import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { monthOf, QuotaRepository } from '../../src/limits/quotaRepository.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { seedRegistry } from '../helpers/seed.ts';
import { startServerProcess } from '../helpers/serverProcess.ts';

function expect429(res: request.Response, code: string, resource: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(429);
  expect(res.body.code).to.equal(code);
  expect(res.body.details).to.include({ remaining: 0, resource });
  expect(res.body.details.limit).to.be.a('number');
  expect(Number(res.headers['retry-after'])).to.be.greaterThan(0);
}

describe('rate limits and quotas', () => {
  describe('per key, per IP and per plan limits', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ RATE_KEY_PER_SECOND: '3', RATE_IP_PER_MINUTE: '1000' });
      await seedRegistry(t.deps.db);
    });
    after(async () => t.close());

    it('sends RateLimit headers on keyed responses and refuses the 4th request in a second with key_rate_limited', async () => {
      const c = await t.client();
      const first = await c.get('/v1/journals/7/');
      expect(first.status).to.equal(200);
      expect(first.headers['ratelimit-limit']).to.equal('3');
      expect(first.headers['ratelimit-remaining']).to.equal('2');
      expect(Number(first.headers['ratelimit-reset'])).to.be.within(0, 1);
      await c.get('/v1/journals/7/');
      await c.get('/v1/journals/7/');
      const res = await c.get('/v1/journals/7/');
      expect429(res, 'key_rate_limited', 'key');
      expect(res.headers['ratelimit-remaining']).to.equal('0');
      // The refused request costs nothing, though its credit was taken while the key was read.
      expect(await t.used(c.account.accountId, 'api_calls')).to.equal(3);
    });

    it('refuses a request beyond the plan concurrency with concurrency_limited', async () => {
      const c = await t.client({ concurrency: 1 });
      // Hold the first request inside the database: a lock on journals makes its query wait.
      const locker = await t.deps.db.client.acquireRawConnection();
      await locker.query('begin; lock table journals in access exclusive mode');
      const slow = c.get('/v1/journals/7/').then((r) => r);
      // Wait until the first request's query is actually blocked on the lock.
      for (let i = 0; i < 200; i++) {
        const w = await t.deps.db.raw(
          `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
        );
        if (w.rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      const second = await c.get('/v1/journals/8/');
      await locker.query('rollback');
      await t.deps.db.client.destroyRawConnection(locker);
      expect429(second, 'concurrency_limited', 'concurrent_requests');
      expect((await slow).status).to.equal(200);
      // The slot is free again once the first request is done.
      expect((await c.get('/v1/journals/8/')).status).to.equal(200);
    });

    it('refuses an inactive or expired subscription with 403 subscription_inactive, before charging', async () => {
      const inactive = await t.client({}, 'inactive');
      const res = await inactive.get('/v1/journals/7/');
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('subscription_inactive');
      const expired = await t.client();
      await t.deps
        .db('subscriptions')
        .where({ account_id: expired.account.accountId })
        .update({ status: 'trial', expires_at: t.deps.db.raw(`now() - interval '1 second'`) });
      await t.synced();
      expect((await expired.get('/v1/journals/7/')).body.code).to.equal('subscription_inactive');
      expect(await t.used(inactive.account.accountId, 'api_calls')).to.equal(0);
    });

    it('applies a plan change to the next request once PostgreSQL has announced it', async () => {
      const c = await t.client();
      expect((await c.get('/v1/journals/')).status).to.equal(200);
      await t.deps
        .db('plans')
        .where({ id: c.account.planId })
        .update({ categories: ['cat_status_history'] });
      await t.synced();
      const res = await c.get('/v1/journals/');
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('category_not_on_plan');
    });
  });

  describe('per-IP limit on refused keys', () => {
    it('counts requests with a missing, malformed or unknown key against the IP', async () => {
      const t = await createTestApp({ RATE_IP_PER_MINUTE: '3' });
      try {
        const statuses: number[] = [];
        for (const key of [undefined, 'nsh_short', `nsh_${'A'.repeat(32)}`, `nsh_${'B'.repeat(32)}`]) {
          const r = request(t.app).get('/v1/journals/1/');
          const res = await (key ? r.set('X-API-Key', key) : r);
          statuses.push(res.status);
          if (res.status === 429) expect429(res, 'ip_rate_limited', 'ip');
        }
        expect(statuses).to.deep.equal([401, 401, 401, 429]);
      } finally {
        await t.close();
      }
    });
  });

  describe('monthly quotas', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp();
      await seedRegistry(t.deps.db);
    });
    after(async () => t.close());

    it('charges one api_calls per keyed 2xx and nothing for errors', async () => {
      const c = await t.client();
      await c.get('/v1/journals/7/');
      await c.get('/v1/journals/999/'); // 404
      await c.get('/v1/journals/x/'); // 400
      expect(await t.used(c.account.accountId, 'api_calls')).to.equal(1);
    });

    it('charges nothing for a request refused for its plan category', async () => {
      const c = await t.without('cat_journal');
      expect((await c.get('/v1/journals/')).status).to.equal(403);
      expect(await t.used(c.account.accountId, 'api_calls')).to.equal(0);
    });

    it('stops a parallel burst exactly at the quota', async () => {
      const c = await t.client({ quotas: { api_calls: 25 }, concurrency: 10 });
      const statuses: number[] = [];
      // Waves of 10 parallel requests: as many as the plan lets run at once.
      for (let wave = 0; wave < 5; wave++) {
        const res = await Promise.all(Array.from({ length: 10 }, () => c.get('/v1/journals/7/')));
        statuses.push(...res.map((r) => r.status));
        for (const r of res) if (r.status === 429) expect429(r, 'quota_exceeded', 'api_calls');
      }
      expect(statuses.filter((s) => s === 200)).to.have.length(25);
      expect(statuses.filter((s) => s === 429)).to.have.length(25);
      expect(await t.used(c.account.accountId, 'api_calls')).to.equal(25);
    });

    it('never over-grants under 200 concurrent reservations in PostgreSQL (the path taken while Redis is away)', async () => {
      const c = await t.client();
      const quotas = new QuotaRepository(t.deps.db);
      const month = monthOf(new Date());
      const granted = await Promise.all(Array.from({ length: 200 }, () => quotas.reserve(c.account.accountId, 'doc_views', 3, 100, month)));
      expect(granted.filter((g) => g !== null)).to.have.length(33);
      expect((await quotas.usage(c.account.accountId, month)).doc_views).to.equal(99);
    });

    it('never over-grants under 200 concurrent charges through the shared balance, blocks moving in between', async () => {
      const c = await t.client({ quotas: { doc_views: 1000 } });
      const charges = await Promise.all(Array.from({ length: 200 }, () => t.ledger.take(c.account.accountId, 'doc_views', 7, 1000)));
      // 142 charges of 7 fit in 1000; every one of them is granted, none beyond.
      expect(charges.filter((g) => g !== null)).to.have.length(142);
      expect(await t.used(c.account.accountId, 'doc_views')).to.equal(994);
      const counted = (await new QuotaRepository(t.deps.db).usage(c.account.accountId, monthOf(new Date()))).doc_views;
      expect(counted).to.be.at.most(1000);
    });

    it('names limit, remaining, reset and resource in a quota 429', async () => {
      const c = await t.client({ quotas: { api_calls: 1 } });
      await c.get('/v1/journals/7/');
      const res = await c.get('/v1/journals/7/');
      expect429(res, 'quota_exceeded', 'api_calls');
      expect(res.body.details.limit).to.equal(1);
      const reset = new Date(res.body.details.reset);
      expect(reset.getUTCDate()).to.equal(1);
      expect(reset.getTime()).to.be.greaterThan(Date.now());
    });
  });

  describe('across two API processes', () => {
    it('enforces one per-IP limit through Redis', async function () {
      this.timeout(60_000);
      const t = await createTestApp();
      const env = {
        DATABASE_URL: t.deps.config.DATABASE_URL,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'test',
        RATE_IP_PER_MINUTE: '6',
        RATE_KEY_PER_SECOND: '1000',
        RATE_LIMIT_PREFIX: `test:${randomBytes(5).toString('hex')}`,
      };
      const [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 8; i++) {
          const res = await request(i % 2 ? b.url : a.url)
            .get('/v1/journals/1/')
            .set('X-API-Key', t.account.key);
          statuses.push(res.status);
          if (res.status === 429) expect429(res, 'ip_rate_limited', 'ip');
        }
        // Six answered (404: no journals in this database), split over both processes; then refused.
        expect(statuses).to.deep.equal([404, 404, 404, 404, 404, 404, 429, 429]);
      } finally {
        await Promise.all([a.stop(), b.stop()]);
        await t.close();
      }
    });
  });
});
