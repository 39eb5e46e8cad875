import { expect } from 'chai';
import request from 'supertest';
import { KEY_PATTERN } from '../../src/accounts/keys.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectFields, signupBody } from './support.ts';

describe('POST /user/v1/signup/', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  const signup = (body: unknown) =>
    request(t.app)
      .post('/user/v1/signup/')
      .send(body as object);

  describe('validation: a 400 naming each bad field', () => {
    const long = (n: number) => 'x'.repeat(n);
    const cases: [string, Record<string, unknown>][] = [
      ['first_name', { first_name: undefined }],
      ['first_name', { first_name: 42 }],
      ['first_name', { first_name: '   ' }],
      ['first_name', { first_name: long(101) }],
      ['first_name', { first_name: 'As\u0000ha' }],
      ['last_name', { last_name: undefined }],
      ['last_name', { last_name: ['Rao'] }],
      ['last_name', { last_name: '' }],
      ['last_name', { last_name: long(101) }],
      ['email', { email: undefined }],
      ['email', { email: 7 }],
      ['email', { email: 'not-an-email' }],
      ['email', { email: 'asha@' }],
      ['email', { email: `${long(250)}@example.in` }],
      ['password', { password: undefined }],
      ['password', { password: 12345678 }],
      ['password', { password: 'seven77' }],
      ['password', { password: long(201) }],
      ['organisation', { organisation: 5 }],
      ['organisation', { organisation: '  ' }],
      ['organisation', { organisation: long(201) }],
      ['phone', { phone: 9876543210 }],
      ['phone', { phone: 'call me' }],
      ['plan', { plan: 'gold' }],
      ['plan', { plan: 'custom-plan' }],
      ['plan', { plan: 1 }],
      ['plan', { plan: null }],
    ];
    for (const [field, patch] of cases) {
      const v = patch[field];
      const label = typeof v === 'string' && v.length > 20 ? `a ${v.length}-character string` : (JSON.stringify(v) ?? '(missing)');
      it(`${field} = ${label}`, async () => {
        const res = await signup(signupBody(patch));
        expectFields(res, field);
      });
    }

    it('names every missing required field at once', async () => {
      expectFields(await signup({}), 'first_name', 'last_name', 'email', 'password');
    });

    it('names every bad field at once, whatever the mix of errors', async () => {
      const res = await signup({ first_name: 1, email: 'x', password: 'short', plan: 'gold', phone: '?' });
      expectFields(res, 'first_name', 'last_name', 'email', 'password', 'plan', 'phone');
    });

    it('treats a request without a body as every required field missing', async () => {
      expectFields(await request(t.app).post('/user/v1/signup/'), 'first_name', 'last_name', 'email', 'password');
    });

    it('refuses a body that is not a JSON object', async () => {
      const arr = await signup([signupBody()]);
      expect(arr.status).to.equal(400);
      expect(arr.body.code).to.equal('validation_error');
      const bad = await request(t.app).post('/user/v1/signup/').set('Content-Type', 'application/json').send('{"first_name":');
      expect(bad.status).to.equal(400);
      expect(bad.body.code).to.equal('malformed_json');
    });

    it('creates nothing when it refuses', async () => {
      const body = signupBody({ password: 'short' });
      await signup(body);
      const n = await t.deps.db('accounts').where({ email: body.email }).count<{ count: string }[]>('* as count');
      expect(Number(n[0].count)).to.equal(0);
    });
  });

  describe('success', () => {
    it(
      'answers 201 {token, api_key, email, name, plan, subscription_status, trial_ends_at} ' +
        'and stores a lower-case email and an argon2id hash',
      async () => {
        const body = signupBody({
          email: '  Asha.RAO+X@Example.IN ',
          first_name: ' Asha ',
          organisation: 'Rao & Co',
          phone: '+91 98765 43210',
        });
        const res = await signup(body);
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        expect(Object.keys(res.body).sort()).to.deep.equal([
          'api_key',
          'email',
          'name',
          'plan',
          'subscription_status',
          'token',
          'trial_ends_at',
        ]);
        // The plan chosen (basic unless named) and the trial's end: TRIAL_DAYS (14) from now, as stored.
        expect(res.body).to.include({ plan: 'basic', subscription_status: 'trial' });
        const sub = await t.deps
          .db('subscriptions')
          .join('accounts', 'accounts.id', 'subscriptions.account_id')
          .where('accounts.email', 'asha.rao+x@example.in')
          .first('subscriptions.expires_at');
        expect(res.body.trial_ends_at).to.equal(sub.expires_at.toISOString());
        expect(Date.parse(res.body.trial_ends_at) - Date.now()).to.be.within(13.9 * 86_400_000, 14 * 86_400_000);
        expect(res.body.email).to.equal('asha.rao+x@example.in');
        expect(res.body.name).to.equal('Asha Rao');
        expect(res.body.api_key).to.match(KEY_PATTERN);
        expect(res.body.token.split('.')).to.have.length(3);
        const row = await t.deps.db('accounts').where({ email: 'asha.rao+x@example.in' }).first();
        expect(row).to.include({ first_name: 'Asha', last_name: 'Rao', organisation: 'Rao & Co', phone: '+91 98765 43210' });
        expect(row.password_hash).to.match(/^\$argon2id\$/);
        expect(row.password_hash).to.not.contain(body.password);
        // The key itself is never stored: only its SHA-256 and display prefix.
        const keys = await t.deps.db('api_keys').where({ account_id: row.id });
        expect(keys).to.have.length(1);
        expect(keys[0].display_prefix).to.equal(res.body.api_key.slice(0, 8));
        expect(JSON.stringify(keys[0])).to.not.contain(res.body.api_key);
      },
    );

    it('returns an API key the data endpoints accept and a token the dashboard endpoints accept', async () => {
      const res = await signup(signupBody());
      // A journal that does not exist: 404, not 401, proves the key authenticated (and cat_journal is on basic).
      const keyed = await request(t.app).get('/v1/journals/999999/').set('X-API-Key', res.body.api_key);
      expect(keyed.status, JSON.stringify(keyed.body)).to.equal(404);
      expect(keyed.body.code).to.equal('not_found');
      const list = await request(t.app).get('/v1/journals/').set('X-API-Key', res.body.api_key);
      expect(list.status).to.equal(200);
      const keys = await request(t.app).get('/user/v1/keys/').set('Authorization', `Bearer ${res.body.token}`);
      expect(keys.status).to.equal(200);
      expect(keys.body.count).to.equal(1);
      expect(keys.body.keys[0]).to.include({ name: 'default', display_prefix: res.body.api_key.slice(0, 8), active: true });
    });

    it('starts a 14-day trial of basic by default, and of the plan asked for', async () => {
      for (const [plan, expected] of [
        [undefined, 'basic'],
        ['pro', 'pro'],
        ['business', 'business'],
      ] as const) {
        const res = await signup(signupBody(plan ? { plan } : {}));
        expect(res.status).to.equal(201);
        const sub = await t.deps.db.raw(
          `select p.code, s.status, extract(epoch from s.expires_at - now()) / 86400 as days_left
           from subscriptions s join plans p on p.id = s.plan_id join accounts a on a.id = s.account_id where a.email = ?`,
          [res.body.email],
        );
        expect(sub.rows[0].code).to.equal(expected);
        expect(sub.rows[0].status).to.equal('trial');
        expect(Number(sub.rows[0].days_left)).to.be.within(13.99, 14);
      }
    });

    it('shows the trial on the usage page', async () => {
      const res = await signup(signupBody({ plan: 'pro' }));
      const usage = await request(t.app).get('/user/v1/usage/').set('Authorization', `Bearer ${res.body.token}`);
      expect(usage.status).to.equal(200);
      expect(usage.body.plan).to.deep.equal({ code: 'pro', name: 'Pro' });
      expect(usage.body.subscription).to.include({ status: 'trial', active: true });
      const left = (Date.parse(usage.body.subscription.expires_at) - Date.now()) / 86_400_000;
      expect(left).to.be.within(13.99, 14);
    });
  });

  describe('an email already registered', () => {
    it('is 409 email_taken, whatever its case, and says nothing about the account', async () => {
      const first = signupBody({ first_name: 'Original', organisation: 'Secret Org' });
      expect((await signup(first)).status).to.equal(201);
      const again = await signup(signupBody({ email: first.email.toUpperCase() }));
      expect(again.status).to.equal(409);
      expect(again.body.code).to.equal('email_taken');
      expect(again.body).to.not.have.property('details');
      expect(again.body.error).to.not.match(/Original|Secret|Asha|trial|basic/);
      const n = await t.deps.db('accounts').whereRaw('email = lower(?)', [first.email]).count<{ count: string }[]>('* as count');
      expect(Number(n[0].count)).to.equal(1);
    });

    it('lets exactly one of two simultaneous signups with one email through', async () => {
      const body = signupBody();
      const results = await Promise.all([signup(body), signup({ ...body, email: body.email.toUpperCase() })]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409]);
      const keys = await t.deps.db.raw(
        'select count(*)::int as n from api_keys k join accounts a on a.id = k.account_id where a.email = ?',
        [body.email],
      );
      expect(keys.rows[0].n).to.equal(1);
    });
  });

  it('is documented with its 201, 400, 409 and 503 and no security', () => {
    const op = (t.openapi as { paths: Record<string, { post: { security: unknown[]; responses: Record<string, unknown> } }> }).paths[
      '/user/v1/signup/'
    ].post;
    expect(op.security).to.deep.equal([]);
    expect(op.responses).to.have.keys('201', '400', '409', '503');
  });
});
