import { expect } from 'chai';
import request from 'supertest';
import { nextMonthStart } from '../../src/limits/quotaRepository.ts';
import { createAccount } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, signupBody } from './support.ts';

describe('GET /user/v1/usage/', () => {
  let t: TestApp;
  let token: string;
  let key: string;
  before(async () => {
    t = await createTestApp();
    const res = await request(t.app).post('/user/v1/signup/').send(signupBody());
    expect(res.status).to.equal(201);
    token = `Bearer ${res.body.token}`;
    key = res.body.api_key;
  });
  after(async () => t.close());

  const usage = async (auth = token) => {
    const res = await request(t.app).get('/user/v1/usage/').set('Authorization', auth);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  const keyed = (path: string) => request(t.app).get(path).set('X-API-Key', key);

  it('shows this month, the plan, the subscription and every meter at zero for a new basic trial', async () => {
    const u = await usage();
    expect(u.month).to.equal(new Date().toISOString().slice(0, 7));
    expect(u.plan).to.deep.equal({ code: 'basic', name: 'Basic' });
    expect(u.subscription).to.include({ status: 'trial', active: true });
    expect(u.resets_at).to.equal(nextMonthStart().toISOString());
    expect(u.usage).to.deep.equal({
      api_calls: { used: 0, limit: 25_000, remaining: 25_000 },
      doc_views: { used: 0, limit: 500, remaining: 500 },
      logo_searches: { used: 0, limit: 500, remaining: 500 },
      pdf_reports: { used: 0, limit: 50, remaining: 50 },
      excel_reports: { used: 0, limit: 20, remaining: 20 },
      clearances: { used: 0, limit: 0, remaining: 0 },
    });
  });

  it('counts each keyed 2xx as one api_calls; errors, refusals and dashboard calls cost nothing', async () => {
    for (let i = 0; i < 3; i++) expect((await keyed('/v1/journals/').expect(200)).status).to.equal(200);
    expect((await keyed('/v1/journals/999999/')).status).to.equal(404);
    // Basic has no cat_tm_class: refused before anything is charged.
    expect((await keyed('/v1/tm-classes/')).status).to.equal(403);
    expect((await keyed('/v1/journals/abc/')).status).to.equal(400);
    await request(t.app).get('/user/v1/keys/').set('Authorization', token).expect(200);
    const u = await usage();
    expect(u.usage.api_calls).to.deep.equal({ used: 3, limit: 25_000, remaining: 24_997 });
    expect(u.usage.doc_views.used).to.equal(0);
  });

  it("shows only the caller's own usage", async () => {
    const other = await createAccount(t.deps.db, { quotas: { api_calls: 10 } });
    await request(t.app).get('/v1/journals/').set('X-API-Key', other.key).expect(200);
    const theirs = await usage(bearer(t, other.accountId));
    expect(theirs.usage.api_calls).to.deep.equal({ used: 1, limit: 10, remaining: 9 });
    expect((await usage()).usage.api_calls.used).to.equal(3);
  });

  it('never shows a negative remaining, and reflects an inactive subscription', async () => {
    const c = await createAccount(t.deps.db, { quotas: { api_calls: 2 } }, 'inactive');
    await t.deps.db.raw(
      `insert into usage_counters (account_id, month, resource, used)
       values (?, date_trunc('month', now() at time zone 'UTC')::date, 'api_calls', 5)`,
      [c.accountId],
    );
    const u = await usage(bearer(t, c.accountId));
    expect(u.usage.api_calls).to.deep.equal({ used: 5, limit: 2, remaining: 0 });
    expect(u.subscription).to.include({ status: 'inactive', active: false });
  });

  it('does not count last month', async () => {
    const d = await createAccount(t.deps.db);
    await t.deps.db.raw(
      `insert into usage_counters (account_id, month, resource, used)
       values (?, (date_trunc('month', now() at time zone 'UTC') - interval '1 month')::date, 'api_calls', 40)`,
      [d.accountId],
    );
    expect((await usage(bearer(t, d.accountId))).usage.api_calls.used).to.equal(0);
  });
});
