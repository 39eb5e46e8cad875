import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { generateApiKey } from '../../src/accounts/keys.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { bearer } from './support.ts';

function expect401(res: request.Response): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(401);
  expect(res.body.code).to.equal('unauthorized');
  expect(res.body.error).to.be.a('string').and.not.equal('');
}

describe('authentication', () => {
  let t: TestApp;
  let a: TestAccount;
  before(async () => {
    t = await createTestApp();
    a = await createAccount(t.deps.db);
  });
  after(async () => t.close());

  describe('API keys on data endpoints', () => {
    const get = () => request(t.app).get('/v1/journals/');

    it('accepts the key in X-API-Key', async () => {
      expect((await get().set('X-API-Key', a.key)).status).to.equal(200);
    });

    it('accepts the key in the legacy Authorization: Api-Key header, in any case of the scheme', async () => {
      expect((await get().set('Authorization', `Api-Key ${a.key}`)).status).to.equal(200);
      expect((await get().set('Authorization', `api-key ${a.key}`)).status).to.equal(200);
    });

    it('refuses a missing key with 401', async () => {
      expect401(await get());
    });

    it('refuses malformed keys with 401', async () => {
      for (const key of ['', 'nsh_short', `${a.key}x`, a.key.replace('nsh_', 'abc_'), `nsh_${'!'.repeat(32)}`]) {
        expect401(await get().set('X-API-Key', key));
      }
      expect401(await get().set('Authorization', 'Api-Key'));
    });

    it('refuses an unknown key of the right shape with 401', async () => {
      expect401(await get().set('X-API-Key', generateApiKey()));
      expect401(await get().set('Authorization', `Api-Key ${generateApiKey()}`));
    });

    it('refuses a revoked key with 401, in either header', async () => {
      const b = await createAccount(t.deps.db);
      expect((await get().set('X-API-Key', b.key)).status).to.equal(200);
      const keys = await request(t.app).get('/user/v1/keys/').set('Authorization', bearer(t, b.accountId));
      const del = await request(t.app).delete(`/user/v1/keys/${keys.body.keys[0].id}/`).set('Authorization', bearer(t, b.accountId));
      expect(del.status).to.equal(200);
      expect401(await get().set('X-API-Key', b.key));
      expect401(await get().set('Authorization', `Api-Key ${b.key}`));
    });

    it('does not take a bearer token (or a key sent as one) on a key endpoint', async () => {
      expect401(await get().set('Authorization', bearer(t, a.accountId)));
      expect401(await get().set('Authorization', `Bearer ${a.key}`));
    });
  });

  describe('bearer tokens on /user/v1/ endpoints', () => {
    const keys = () => request(t.app).get('/user/v1/keys/');
    const sign = (payload: object, opts: jwt.SignOptions = {}, secret = t.deps.config.JWT_SECRET) =>
      `Bearer ${jwt.sign(payload, secret, { algorithm: 'HS256', ...opts })}`;

    it('accepts a valid token', async () => {
      expect((await keys().set('Authorization', bearer(t, a.accountId))).status).to.equal(200);
    });

    it('refuses a missing or malformed Authorization header with 401', async () => {
      expect401(await keys());
      expect401(await keys().set('Authorization', 'Bearer'));
      expect401(await keys().set('Authorization', 'Bearer not.a.jwt'));
      expect401(await keys().set('Authorization', 'Token abc'));
    });

    it('refuses an API key instead of a token with 401', async () => {
      expect401(await keys().set('X-API-Key', a.key));
      expect401(await keys().set('Authorization', `Api-Key ${a.key}`));
      expect401(await keys().set('Authorization', `Bearer ${a.key}`));
    });

    it('refuses an expired token with 401', async () => {
      const exp = Math.floor(Date.now() / 1000) - 60;
      expect401(await keys().set('Authorization', sign({ typ: 'dashboard', sub: a.accountId, exp })));
    });

    it('refuses a token that never expires (no exp), rightly signed, with 401', async () => {
      const forever = sign({ typ: 'dashboard', sub: a.accountId });
      expect(jwt.decode(forever.slice(7)) as object).to.not.have.property('exp');
      expect401(await keys().set('Authorization', forever));
      // The same claims with an expiry are accepted: it is the missing exp that is refused.
      expect((await keys().set('Authorization', sign({ typ: 'dashboard', sub: a.accountId }, { expiresIn: 60 }))).status).to.equal(200);
    });

    it('refuses tokens with a wrong signature, type, algorithm or subject with 401', async () => {
      expect401(
        await keys().set('Authorization', sign({ typ: 'dashboard', sub: a.accountId }, {}, 'some-other-secret-0123456789-0123456789')),
      );
      expect401(await keys().set('Authorization', sign({ typ: 'refresh', sub: a.accountId })));
      expect401(await keys().set('Authorization', sign({ typ: 'dashboard' })));
      expect401(await keys().set('Authorization', sign({ typ: 'dashboard', sub: a.accountId }, { algorithm: 'HS512' })));
      const header = Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url');
      const claims = Buffer.from(JSON.stringify({ typ: 'dashboard', sub: a.accountId })).toString('base64url');
      const none = `${header}.${claims}.`;
      expect401(await keys().set('Authorization', `Bearer ${none}`));
    });

    it('refuses a token whose account no longer exists with 401', async () => {
      const gone = await createAccount(t.deps.db);
      const token = bearer(t, gone.accountId);
      await t.deps.db('accounts').where({ id: gone.accountId }).delete();
      expect401(await keys().set('Authorization', token));
      // Not even a syntactically valid account id: still 401, never a 500.
      expect401(await keys().set('Authorization', sign({ typ: 'dashboard', sub: 'not-a-uuid' })));
    });

    it('guards every account endpoint', async () => {
      const id = '5b0f8d30-4b6c-4f6e-9b6c-2b2f0f0e0f0e';
      expect401(await request(t.app).get('/user/v1/usage/'));
      expect401(await request(t.app).post('/user/v1/keys/').send({}));
      expect401(await request(t.app).delete(`/user/v1/keys/${id}/`));
      expect401(await request(t.app).post(`/user/v1/keys/${id}/rotate/`));
    });
  });

  it('documents the four schemes and which operations use which', () => {
    const doc = t.openapi as {
      components: { securitySchemes: Record<string, unknown> };
      paths: Record<string, Record<string, { security: Record<string, unknown>[] }>>;
    };
    expect(doc.components.securitySchemes).to.include.keys('ApiKey', 'LegacyApiKey', 'Bearer', 'SessionCookie');
    // The dashboard's cookie session stands in for the bearer token and the key (test/accounts/session.test.ts).
    expect(doc.paths['/user/v1/keys/'].get.security).to.deep.equal([{ Bearer: [] }, { SessionCookie: [] }]);
    expect(doc.paths['/user/v1/usage/'].get.security).to.deep.equal([{ Bearer: [] }, { SessionCookie: [] }]);
    expect(doc.paths['/user/v1/login/'].post.security).to.deep.equal([]);
    expect(doc.paths['/v1/journals/'].get.security).to.deep.equal([{ ApiKey: [] }, { LegacyApiKey: [] }, { SessionCookie: [] }]);
  });
});
