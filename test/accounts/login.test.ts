import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { AppError } from '../../src/errors.ts';
import { buildApp } from '../../src/http/app.ts';
import { RateLimits } from '../../src/limits/rateLimits.ts';
import { createRoot } from '../../src/root.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectFields } from './support.ts';

describe('POST /user/v1/login/', () => {
  let t: TestApp;
  let a: TestAccount;
  // Each test sends from its own client address (loopback is a trusted proxy here), so the per-address
  // counter of one test never throttles another.
  const ip = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;
  before(async () => {
    t = await createTestApp({
      TRUSTED_PROXIES: 'loopback',
      LOGIN_PAIR_SLOW_AFTER: '1',
      LOGIN_PAIR_MAX: '2',
      LOGIN_EMAIL_SLOW_AFTER: '2',
      LOGIN_EMAIL_MAX: '4',
      LOGIN_IP_SLOW_AFTER: '3',
      LOGIN_IP_MAX: '6',
      // The slow-down itself is checked on RateLimits below, without timing anything.
      LOGIN_MAX_DELAY_MS: '0',
    });
    a = await createAccount(t.deps.db);
  });
  after(async () => t.close());

  const login = (body: object, from = ip()) => request(t.app).post('/user/v1/login/').set('X-Forwarded-For', from).send(body);

  it('gives a bearer token with the documented shape for the right email and password', async () => {
    const res = await login({ email: a.email, password: a.password });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.token_type).to.equal('Bearer');
    expect(res.body.expires_in).to.equal(t.deps.config.JWT_TTL_SECONDS);
    expect(res.body.account).to.deep.equal({ id: a.accountId, email: a.email, name: `Test ${a.email.slice(5, 15)}` });
    const decoded = jwt.decode(res.body.token, { complete: true })!;
    expect(decoded.header.alg).to.equal('HS256');
    const claims = decoded.payload as jwt.JwtPayload;
    expect(claims).to.include({ sub: a.accountId, typ: 'dashboard' });
    expect(claims.exp! - claims.iat!).to.equal(res.body.expires_in);
    const keys = await request(t.app).get('/user/v1/keys/').set('Authorization', `Bearer ${res.body.token}`);
    expect(keys.status).to.equal(200);
    expect(keys.body.count).to.equal(1);
  });

  it('compares the email without regard to case or surrounding spaces', async () => {
    const res = await login({ email: `  ${a.email.toUpperCase()} `, password: a.password });
    expect(res.status).to.equal(200);
    expect(res.body.account.id).to.equal(a.accountId);
  });

  it('answers a wrong password and an unknown email alike: 401 invalid_credentials, same message', async () => {
    const wrong = await login({ email: a.email, password: 'not the password' });
    const unknown = await login({ email: 'nobody-here@example.in', password: a.password });
    for (const res of [wrong, unknown]) {
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('invalid_credentials');
      expect(res.body).to.not.have.property('token');
    }
    expect(wrong.body.error).to.equal(unknown.body.error);
  });

  it('names each missing or mistyped field in a 400', async () => {
    expectFields(await login({}), 'email', 'password');
    expectFields(await login({ email: a.email, password: 123 }), 'password');
    expectFields(await login({ email: '', password: 'x' }), 'email');
  });

  describe('throttling (lowered here: refused after 2 per email and address, 4 per email, 6 per address)', () => {
    it('refuses an email and address pair after 2 failures, and only that pair: the owner elsewhere gets in', async () => {
      const b = await createAccount(t.deps.db);
      const stranger = ip();
      for (let i = 0; i < 2; i++) expect((await login({ email: b.email, password: `wrong-${i}` }, stranger)).status).to.equal(401);
      const res = await login({ email: b.email, password: b.password }, stranger);
      expect(res.status, JSON.stringify(res.body)).to.equal(429);
      expect(res.body.details).to.include({ limit: 2, remaining: 0, resource: 'login', per: 'pair' });
      expect(res.body.error).to.contain('from your address');
      expect((await login({ email: b.email, password: b.password }, ip())).status).to.equal(200);
    });

    it('does not count a login whose check failed (the database away) against anyone', async () => {
      const b = await createAccount(t.deps.db);
      const from = ip();
      // The same app and limits, on a PostgreSQL that is not there (nothing listens on port 1).
      const away = createRoot({ ...t.deps.config, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
      const { app } = buildApp(away);
      try {
        for (let i = 0; i < 8; i++) {
          const res = await request(app)
            .post('/user/v1/login/')
            .set('X-Forwarded-For', from)
            .send({ email: b.email, password: b.password });
          expect(res.status, JSON.stringify(res.body)).to.equal(503);
          expect(res.body.code).to.equal('service_unavailable');
          expect(Number(res.headers['retry-after'])).to.be.greaterThan(0);
        }
      } finally {
        await away.close();
      }
      // Eight failed checks, past every maximum here (2, 4, 6): none counted, so the right password gets in.
      expect((await login({ email: b.email, password: b.password }, from)).status).to.equal(200);
    });

    it('refuses an email after 4 failures from anywhere: 429 login_throttled, Retry-After, details, even if right', async () => {
      const b = await createAccount(t.deps.db);
      for (let i = 0; i < 4; i++) expect((await login({ email: b.email, password: `wrong-${i}` })).status).to.equal(401);
      // Fresh addresses each time (no pair reaches its limit): it is the email that is throttled.
      const res = await login({ email: b.email, password: b.password });
      expect(res.status, JSON.stringify(res.body)).to.equal(429);
      expect(res.body.code).to.equal('login_throttled');
      expect(res.body.details).to.include({ limit: 4, remaining: 0, resource: 'login', per: 'email' });
      expect(Date.parse(res.body.details.reset)).to.be.greaterThan(Date.now());
      expect(Number(res.headers['retry-after'])).to.be.within(1, 900);
      // Upper case is the same email.
      expect((await login({ email: b.email.toUpperCase(), password: b.password })).status).to.equal(429);
      // Other accounts are not affected.
      expect((await login({ email: a.email, password: a.password })).status).to.equal(200);
    });

    it("forgets an email's failures after a successful login", async () => {
      const c = await createAccount(t.deps.db);
      for (let i = 0; i < 3; i++) expect((await login({ email: c.email, password: 'wrong' })).status).to.equal(401);
      expect((await login({ email: c.email, password: c.password })).status).to.equal(200);
      for (let i = 0; i < 4; i++) expect((await login({ email: c.email, password: 'wrong' })).status).to.equal(401);
      expect((await login({ email: c.email, password: 'wrong' })).status).to.equal(429);
    });

    it('refuses an address after 6 failures, whatever the emails, and only that address', async () => {
      const from = ip();
      for (let i = 0; i < 6; i++) {
        expect((await login({ email: `guess-${i}@example.in`, password: 'x' }, from)).status).to.equal(401);
      }
      const res = await login({ email: a.email, password: a.password }, from);
      expect(res.status).to.equal(429);
      expect(res.body.code).to.equal('login_throttled');
      expect(res.body.details).to.include({ limit: 6, remaining: 0, resource: 'login', per: 'ip' });
      expect(Number(res.headers['retry-after'])).to.be.greaterThan(0);
      expect((await login({ email: a.email, password: a.password }, ip())).status).to.equal(200);
    });

    it('counts a burst of parallel guesses: no more than the maximum reach the password check', async () => {
      const d = await createAccount(t.deps.db);
      const results = await Promise.all(Array.from({ length: 10 }, () => login({ email: d.email, password: 'wrong' })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 401)).to.have.length(4);
      expect(statuses.filter((s) => s === 429)).to.have.length(6);
      // From one address, the pair's limit comes first.
      const e = await createAccount(t.deps.db);
      const from = ip();
      const one = await Promise.all(Array.from({ length: 10 }, () => login({ email: e.email, password: 'wrong' }, from)));
      expect(one.filter((r) => r.status === 401)).to.have.length(2);
    });

    it('answers 503 while Redis is away, rather than check a password without its limits', async () => {
      const away = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
      away.on('error', () => undefined);
      const limits = new RateLimits(away, { ipPerMinute: 10, keyPerSecond: 10, publicSearchPerHour: 10, prefix: 'test:away' }, t.deps.log);
      try {
        const err = await limits.loginAttempt(a.email, '10.0.0.9').catch((e: unknown) => e);
        expect(err).to.be.instanceOf(AppError);
        expect((err as AppError).code).to.equal('service_unavailable');
        expect((err as AppError).headers!['Retry-After']).to.match(/^\d+$/);
      } finally {
        away.disconnect();
      }
    });

    it('is documented on the operation', () => {
      const op = (t.openapi as { paths: Record<string, { post: { description: string; responses: Record<string, unknown> } }> }).paths[
        '/user/v1/login/'
      ].post;
      expect(op.responses).to.have.keys('200', '400', '401', '429', '503');
      expect(op.description).to.contain('HS256').and.contain('login_throttled').and.contain('typ');
    });
  });

  describe('RateLimits login throttle (the slow-down, as numbers)', () => {
    const make = (login: object) =>
      new RateLimits(
        t.deps.redis,
        {
          ipPerMinute: 1000,
          keyPerSecond: 1000,
          publicSearchPerHour: 1000,
          prefix: `test:${randomBytes(5).toString('hex')}`,
          login,
        },
        t.deps.log,
      );

    const loose = { pairSlowAfter: 100, pairMax: 100 };

    it('waits longer with each failure past the email threshold, up to the cap, then refuses', async () => {
      const l = make({ ...loose, emailSlowAfter: 2, emailMax: 5, ipSlowAfter: 100, ipMax: 100, delayStepMs: 100, maxDelayMs: 250 });
      const delays: number[] = [];
      for (let i = 0; i < 5; i++) delays.push((await l.loginAttempt('x@example.in', '10.0.0.1')).delayMs);
      expect(delays).to.deep.equal([0, 0, 100, 200, 250]);
      const err = await l.loginAttempt('X@Example.in', '10.0.0.1').catch((e: unknown) => e);
      expect(err).to.be.instanceOf(AppError);
      expect((err as AppError).code).to.equal('login_throttled');
      expect((err as AppError).headers!['Retry-After']).to.match(/^\d+$/);
      const fresh = make({ ...loose, emailSlowAfter: 2, emailMax: 5, ipSlowAfter: 100, ipMax: 100, delayStepMs: 100, maxDelayMs: 250 });
      const attempt = await fresh.loginAttempt('y@example.in', '10.0.0.1');
      await attempt.succeeded();
      expect((await fresh.loginAttempt('y@example.in', '10.0.0.1')).delayMs).to.equal(0);
    });

    it('slows a pair down past its threshold while the same email from elsewhere is not', async () => {
      const l = make({ pairSlowAfter: 1, pairMax: 5, emailSlowAfter: 100, emailMax: 100, ipSlowAfter: 100, ipMax: 100, delayStepMs: 100 });
      const delays: number[] = [];
      for (let i = 0; i < 3; i++) delays.push((await l.loginAttempt('p@example.in', '10.0.0.4')).delayMs);
      expect(delays).to.deep.equal([0, 100, 200]);
      expect((await l.loginAttempt('p@example.in', '10.0.0.5')).delayMs).to.equal(0);
    });

    it('gives an abandoned attempt back to the address, the pair and the email', async () => {
      const l = make({ pairSlowAfter: 0, pairMax: 2, emailSlowAfter: 100, emailMax: 100, ipSlowAfter: 100, ipMax: 100, delayStepMs: 100 });
      for (let i = 0; i < 5; i++) await (await l.loginAttempt('q@example.in', '10.0.0.6')).abandoned();
      const attempt = await l.loginAttempt('q@example.in', '10.0.0.6');
      expect(attempt.delayMs).to.equal(100);
    });

    it('does not give an address its attempts back on success, so one valid login cannot launder guesses', async () => {
      const l = make({ ...loose, emailSlowAfter: 100, emailMax: 100, ipSlowAfter: 100, ipMax: 4, delayStepMs: 100, maxDelayMs: 250 });
      for (let i = 0; i < 2; i++) {
        await (await l.loginAttempt('mine@example.in', '10.0.0.3')).succeeded();
        await l.loginAttempt(`victim${i}@example.in`, '10.0.0.3');
      }
      const err = await l.loginAttempt('victim9@example.in', '10.0.0.3').catch((e: unknown) => e);
      expect((err as AppError).code).to.equal('login_throttled');
    });

    it('slows an address down past its threshold across emails', async () => {
      const l = make({ ...loose, emailSlowAfter: 100, emailMax: 100, ipSlowAfter: 2, ipMax: 10, delayStepMs: 300, maxDelayMs: 2000 });
      const delays: number[] = [];
      for (let i = 0; i < 4; i++) delays.push((await l.loginAttempt(`user${i}@example.in`, '10.0.0.2')).delayMs);
      expect(delays).to.deep.equal([0, 0, 300, 600]);
      expect((await l.loginAttempt('user@example.in', '10.0.0.3')).delayMs).to.equal(0);
    });

    it('defaults to 5/10 failures per email and address, 20/100 per email, 20/50 per address in 15 minutes, at most 2 s of delay', () => {
      expect(make({}).login).to.include({
        windowSeconds: 900,
        pairSlowAfter: 5,
        pairMax: 10,
        emailSlowAfter: 20,
        emailMax: 100,
        ipSlowAfter: 20,
        ipMax: 50,
        maxDelayMs: 2000,
      });
    });
  });
});
