import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import request from 'supertest';
import { SessionStore } from '../../src/accounts/sessions.ts';
import { AppError } from '../../src/errors.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// The dashboard's cookie session (src/http/session.ts, src/http/routes/session.ts): what the cookie is,
// that it stands in for the bearer token only on this site's own requests, and that logging out ends it.
describe('dashboard cookie session (/user/v1/session/)', () => {
  let t: TestApp;
  let a: TestAccount;
  // Loopback is a trusted proxy here, so a test can say the request came over HTTPS (X-Forwarded-Proto).
  before(async () => {
    t = await createTestApp({ TRUSTED_PROXIES: 'loopback' });
    a = await createAccount(t.deps.db);
  });
  after(async () => t.close());

  const cookieOf = (res: request.Response): string => {
    const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    const c = set.find((s) => s.startsWith('nsh_session='));
    expect(c, 'a nsh_session cookie').to.be.a('string');
    return c!;
  };
  const pair = (setCookie: string) => setCookie.split(';')[0];

  async function login(): Promise<{ cookie: string; csrf: string }> {
    const res = await request(t.app).post('/user/v1/session/').send({ email: a.email, password: a.password });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return { cookie: pair(cookieOf(res)), csrf: res.body.csrf_token };
  }

  it('logs in with an httpOnly, SameSite=Strict cookie for the whole site and no token in the body', async () => {
    const res = await request(t.app).post('/user/v1/session/').send({ email: a.email, password: a.password });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.have.all.keys('account', 'csrf_token', 'expires_in');
    expect(res.body.account.id).to.equal(a.accountId);
    expect(res.body.expires_in).to.equal(t.deps.config.JWT_TTL_SECONDS);
    const c = cookieOf(res);
    expect(c).to.match(/; HttpOnly/);
    expect(c).to.match(/; SameSite=Strict/);
    expect(c).to.match(/; Path=\/;/);
    expect(c).to.match(new RegExp(`; Max-Age=${t.deps.config.JWT_TTL_SECONDS}`));
    expect(c, 'not Secure over plain HTTP').not.to.match(/; Secure/);
    expect(JSON.stringify(res.body)).not.to.include(pair(c).split('=')[1]);
  });

  it('marks the cookie Secure when the request came over HTTPS', async () => {
    const res = await request(t.app)
      .post('/user/v1/session/')
      .set('X-Forwarded-Proto', 'https')
      .send({ email: a.email, password: a.password });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(cookieOf(res)).to.match(/; Secure/);
  });

  it('signs up with a cookie: the first key shown once, no bearer token, and the session works at once', async () => {
    const email = `s-${randomBytes(4).toString('hex')}@example.in`;
    const res = await request(t.app)
      .post('/user/v1/session/signup/')
      .send({ first_name: 'Asha', last_name: 'Rao', email, password: 'correct horse', plan: 'pro' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).not.to.have.property('token');
    expect(res.body.api_key).to.match(/^nsh_[A-Za-z0-9]{32}$/);
    expect(res.body).to.include({ email, name: 'Asha Rao', plan: 'pro', subscription_status: 'trial' });
    const cookie = pair(cookieOf(res));
    const usage = await request(t.app).get('/user/v1/usage/').set('Cookie', cookie);
    expect(usage.status, JSON.stringify(usage.body)).to.equal(200);
    expect(usage.body.plan.code).to.equal('pro');
    expect(usage.body.subscription.status).to.equal('trial');
  });

  it('stands in for the bearer token on GETs, and tells a page its account and CSRF token', async () => {
    const { cookie, csrf } = await login();
    const keys = await request(t.app).get('/user/v1/keys/').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    expect(keys.status, JSON.stringify(keys.body)).to.equal(200);
    expect(keys.body.count).to.be.at.least(1);
    const me = await request(t.app).get('/user/v1/session/').set('Cookie', cookie);
    expect(me.status).to.equal(200);
    expect(me.body.account).to.deep.include({ id: a.accountId, email: a.email });
    expect(me.body.csrf_token).to.equal(csrf);
    expect(me.body.expires_in).to.be.within(1, t.deps.config.JWT_TTL_SECONDS);
    expect((await request(t.app).get('/user/v1/session/')).status, 'no cookie').to.equal(401);
  });

  it('refuses a state-changing request with the cookie but without the right X-CSRF-Token', async () => {
    const { cookie, csrf } = await login();
    const none = await request(t.app).post('/user/v1/keys/').set('Cookie', cookie).send({ name: 'x' });
    expect(none.status).to.equal(403);
    expect(none.body.code).to.equal('forbidden');
    expect(none.body.error).to.include('X-CSRF-Token');
    const other = await login();
    const wrong = await request(t.app).post('/user/v1/keys/').set('Cookie', cookie).set('X-CSRF-Token', other.csrf).send({ name: 'x' });
    expect(wrong.status, "another session's token").to.equal(403);
    const made = await request(t.app).post('/user/v1/keys/').set('Cookie', cookie).set('X-CSRF-Token', csrf).send({ name: 'browser' });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    const gone = await request(t.app).delete(`/user/v1/keys/${made.body.key.id}/`).set('Cookie', cookie);
    expect(gone.status, 'revoking needs the token too').to.equal(403);
    const revoked = await request(t.app).delete(`/user/v1/keys/${made.body.key.id}/`).set('Cookie', cookie).set('X-CSRF-Token', csrf);
    expect(revoked.status).to.equal(200);
    expect(revoked.body.active).to.equal(false);
  });

  it('never authenticates a cross-site request with the cookie, whatever the method', async () => {
    const { cookie, csrf } = await login();
    for (const site of ['cross-site', 'same-site']) {
      const res = await request(t.app).get('/user/v1/usage/').set('Cookie', cookie).set('Sec-Fetch-Site', site);
      expect(res.status, site).to.equal(403);
      expect(res.body.code).to.equal('forbidden');
    }
    const foreign = await request(t.app).get('/user/v1/usage/').set('Cookie', cookie).set('Origin', 'https://evil.example');
    expect(foreign.status).to.equal(403);
    const post = await request(t.app)
      .post('/user/v1/keys/')
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrf)
      .set('Origin', 'https://evil.example')
      .send({ name: 'stolen' });
    expect(post.status, 'even with the CSRF token').to.equal(403);
    const keys = await request(t.app).get('/user/v1/keys/').set('Cookie', cookie);
    expect(keys.body.keys.map((k: { name: string }) => k.name)).not.to.include('stolen');
    const own = await request(t.app)
      .get('/user/v1/usage/')
      .set('Cookie', cookie)
      .set('Host', 'example.test')
      .set('Origin', 'http://example.test');
    expect(own.status, 'its own origin').to.equal(200);
  });

  it('refuses a login started by another site (no session is made for it)', async () => {
    const res = await request(t.app)
      .post('/user/v1/session/')
      .set('Origin', 'https://evil.example')
      .send({ email: a.email, password: a.password });
    expect(res.status).to.equal(403);
    expect(res.headers['set-cookie']).to.equal(undefined);
  });

  it('leaves the bearer token as it was: an Authorization header is judged alone', async () => {
    const { cookie } = await login();
    const bad = await request(t.app).get('/user/v1/usage/').set('Cookie', cookie).set('Authorization', 'Bearer nope');
    expect(bad.status).to.equal(401);
    const token = (await request(t.app).post('/user/v1/login/').send({ email: a.email, password: a.password })).body.token;
    const made = await request(t.app).post('/user/v1/keys/').set('Authorization', `Bearer ${token}`).send({ name: 'server' });
    expect(made.status, 'no CSRF token asked of a bearer request').to.equal(201);
  });

  it('calls the keyed data endpoints with the session alone, charged to the account as its key would be', async () => {
    const { cookie, csrf } = await login();
    const before = await t.used(a.accountId, 'api_calls');
    const read = await request(t.app).get('/v1/journals/').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    expect(read.headers['ratelimit-limit'], 'the per-key window applies').to.be.a('string');
    expect(await t.used(a.accountId, 'api_calls')).to.equal(before + 1);
    const clear = () =>
      request(t.app)
        .post('/v1/clearance/')
        .set('Cookie', cookie)
        .send({ word_mark: 'SUNRISE', classes: [30] });
    const noCsrf = await clear();
    expect(noCsrf.status).to.equal(403);
    expect(noCsrf.body.error).to.contain('X-CSRF-Token');
    const cleared = await clear().set('X-CSRF-Token', csrf);
    expect(cleared.status, JSON.stringify(cleared.body)).to.equal(200);
    expect(await t.used(a.accountId, 'clearances')).to.equal(1);
    const crossSite = await request(t.app).get('/v1/journals/').set('Cookie', cookie).set('Sec-Fetch-Site', 'cross-site');
    expect(crossSite.status).to.equal(403);
    // A request that sends a key is judged by the key alone, cookie or not.
    const badKey = await request(t.app)
      .get('/v1/journals/')
      .set('Cookie', cookie)
      .set('X-API-Key', `nsh_${'x'.repeat(32)}`);
    expect(badKey.status).to.equal(401);
    await request(t.app).delete('/user/v1/session/').set('Cookie', cookie).set('X-CSRF-Token', csrf).expect(200);
    const ended = await request(t.app).get('/v1/journals/').set('Cookie', cookie);
    expect(ended.status).to.equal(401);
    expect(ended.body.error).to.contain('session has ended');
    expect((await request(t.app).get('/v1/journals/')).body.error, 'neither key nor cookie').to.contain('an API key is required');
  });

  it('logs out: needs the CSRF token, clears the cookie, and the session is over on the server too', async () => {
    const { cookie, csrf } = await login();
    expect((await request(t.app).delete('/user/v1/session/').set('Cookie', cookie)).status).to.equal(403);
    const out = await request(t.app).delete('/user/v1/session/').set('Cookie', cookie).set('X-CSRF-Token', csrf);
    expect(out.status).to.equal(200);
    expect(out.body).to.deep.equal({ logged_out: true });
    const cleared = cookieOf(out);
    expect(cleared).to.match(/^nsh_session=;/);
    expect(cleared).to.match(/Expires=Thu, 01 Jan 1970/);
    // A copy of the cookie kept from before is worth nothing now.
    const after = await request(t.app).get('/user/v1/usage/').set('Cookie', cookie);
    expect(after.status).to.equal(401);
    expect((await request(t.app).get('/user/v1/session/').set('Cookie', cookie)).status).to.equal(401);
    const again = await request(t.app).delete('/user/v1/session/');
    expect(again.status, 'idempotent without a session').to.equal(200);
  });
  it('fails closed with a 503 when Redis is away: no session starts and none is accepted', async () => {
    // Nothing listens on port 1: every command fails at once.
    const away = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    away.on('error', () => undefined);
    const store = new SessionStore(away, 'test:away', 'secret', 60);
    try {
      for (const attempt of [() => store.create(a.accountId), () => store.account('x'.repeat(43))]) {
        const err = await attempt().then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).to.be.instanceOf(AppError);
        expect((err as AppError).code).to.equal('service_unavailable');
      }
    } finally {
      away.disconnect();
    }
  });
});
