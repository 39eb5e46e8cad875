import { expect } from 'chai';
import request from 'supertest';
import { KEY_PATTERN } from '../../src/accounts/keys.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, expectFields } from './support.ts';

const KEY_FIELDS = ['id', 'name', 'display_prefix', 'created_at', 'last_used_at', 'revoked_at', 'active'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('API key management under /user/v1/keys/', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  /** A bearer-authenticated client for one account. */
  const as = (acc: TestAccount) => {
    const auth = bearer(t, acc.accountId);
    return {
      list: () => request(t.app).get('/user/v1/keys/').set('Authorization', auth),
      create: (body?: object) => request(t.app).post('/user/v1/keys/').set('Authorization', auth).send(body),
      revoke: (id: string) => request(t.app).delete(`/user/v1/keys/${id}/`).set('Authorization', auth),
      rotate: (id: string) => request(t.app).post(`/user/v1/keys/${id}/rotate/`).set('Authorization', auth),
    };
  };
  const works = async (key: string) => (await request(t.app).get('/v1/journals/').set('X-API-Key', key)).status;

  it("lists the account's keys without the key or its hash", async () => {
    const a = await createAccount(t.deps.db);
    const res = await as(a).list();
    expect(res.status).to.equal(200);
    expect(res.body.count).to.equal(1);
    expect(Object.keys(res.body.keys[0]).sort()).to.deep.equal([...KEY_FIELDS].sort());
    expect(res.body.keys[0]).to.include({ name: 'test', display_prefix: a.key.slice(0, 8), revoked_at: null, active: true });
    expect(res.body.keys[0].created_at).to.match(ISO);
    expect(JSON.stringify(res.body)).to.not.contain(a.key);
  });

  it('shows when a key was last used', async () => {
    const a = await createAccount(t.deps.db);
    expect((await as(a).list()).body.keys[0].last_used_at).to.equal(null);
    expect(await works(a.key)).to.equal(200);
    // The touch is written off the request's path: wait for it rather than for a fixed time.
    let last: string | null = null;
    for (let i = 0; i < 100 && !last; i++) {
      last = (await as(a).list()).body.keys[0].last_used_at;
      if (!last) await new Promise((r) => setTimeout(r, 20));
    }
    expect(last).to.match(ISO);
  });

  it('caps an account at 20 active keys with 409 key_limit_reached, and frees a place on revocation', async () => {
    const a = await createAccount(t.deps.db);
    for (let i = 0; i < 19; i++) expect((await as(a).create({ name: `k${i}` })).status).to.equal(201);
    const res = await as(a).create({ name: 'one too many' });
    expect(res.status).to.equal(409);
    expect(res.body).to.include({ code: 'key_limit_reached' });
    expect(res.body.details).to.deep.equal({ limit: 20, active: 20 });
    const first = (await as(a).list()).body.keys[0].id;
    await as(a).revoke(first);
    expect((await as(a).create({ name: 'replacement' })).status).to.equal(201);
  });

  it('creates a key, shown once, that works at once; the list then has both', async () => {
    const a = await createAccount(t.deps.db);
    const res = await as(a).create({ name: '  ci-server ' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.api_key).to.match(KEY_PATTERN);
    expect(Object.keys(res.body.key).sort()).to.deep.equal([...KEY_FIELDS].sort());
    expect(res.body.key).to.include({ name: 'ci-server', display_prefix: res.body.api_key.slice(0, 8), active: true, revoked_at: null });
    expect(await works(res.body.api_key)).to.equal(200);
    const list = await as(a).list();
    expect(list.body.count).to.equal(2);
    expect(list.body.keys.map((k: { id: string }) => k.id)).to.include(res.body.key.id);
    expect(JSON.stringify(list.body)).to.not.contain(res.body.api_key);
  });

  it('names a key "default" when no name is given, with or without a body', async () => {
    const a = await createAccount(t.deps.db);
    expect((await as(a).create({})).body.key.name).to.equal('default');
    expect((await request(t.app).post('/user/v1/keys/').set('Authorization', bearer(t, a.accountId))).body.key.name).to.equal('default');
  });

  it('refuses a bad name with 400 naming name', async () => {
    const a = await createAccount(t.deps.db);
    expectFields(await as(a).create({ name: '' }), 'name');
    expectFields(await as(a).create({ name: 7 }), 'name');
    expectFields(await as(a).create({ name: 'x'.repeat(101) }), 'name');
  });

  it('refuses to create or rotate keys while the subscription is inactive (403), but still lists and revokes', async () => {
    const a = await createAccount(t.deps.db, {}, 'inactive');
    const created = await as(a).create({ name: 'x' });
    expect(created.status).to.equal(403);
    expect(created.body.code).to.equal('subscription_inactive');
    expect(created.body.details).to.include({ status: 'inactive' });
    const list = await as(a).list();
    expect(list.status).to.equal(200);
    const id = list.body.keys[0].id;
    expect((await as(a).rotate(id)).body.code).to.equal('subscription_inactive');
    expect((await as(a).revoke(id)).status).to.equal(200);
    // An expired trial counts as inactive too.
    const b = await createAccount(t.deps.db, {}, 'trial');
    await t.deps
      .db('subscriptions')
      .where({ account_id: b.accountId })
      .update({ expires_at: t.deps.db.raw(`now() - interval '1 second'`) });
    expect((await as(b).create({})).status).to.equal(403);
  });

  it('revokes a key at once; revoking it again is harmless and answers the same key', async () => {
    const a = await createAccount(t.deps.db);
    const id = (await as(a).list()).body.keys[0].id;
    // Used first, so the refusal below is not just a key this process never saw.
    expect(await works(a.key)).to.equal(200);
    const res = await as(a).revoke(id);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ id, active: false });
    expect(res.body.revoked_at).to.match(ISO);
    expect(await works(a.key)).to.equal(401);
    const again = await as(a).revoke(id);
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(res.body);
    expect((await as(a).list()).body.keys[0]).to.include({ active: false, revoked_at: res.body.revoked_at });
  });

  it('rotates a key: a new key with the same name, the old one revoked', async () => {
    const a = await createAccount(t.deps.db);
    const old = (await as(a).list()).body.keys[0];
    expect(await works(a.key)).to.equal(200);
    const res = await as(a).rotate(old.id);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.api_key).to.match(KEY_PATTERN);
    expect(res.body.key).to.include({ name: old.name, active: true, display_prefix: res.body.api_key.slice(0, 8) });
    expect(res.body.key.id).to.not.equal(old.id);
    expect(res.body.revoked).to.include({ id: old.id, active: false });
    expect(await works(a.key)).to.equal(401);
    expect(await works(res.body.api_key)).to.equal(200);
    const list = (await as(a).list()).body;
    expect(list.keys.map((k: { id: string; active: boolean }) => [k.id, k.active])).to.deep.equal([
      [old.id, false],
      [res.body.key.id, true],
    ]);
  });

  it('answers 404 for rotating a revoked key (there is no active key with that id), and changes nothing', async () => {
    const a = await createAccount(t.deps.db);
    const id = (await as(a).list()).body.keys[0].id;
    await as(a).revoke(id);
    const res = await as(a).rotate(id);
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('not_found');
    expect((await as(a).list()).body.count).to.equal(1);
  });

  it('gives one new key for two simultaneous rotations of one key', async () => {
    const a = await createAccount(t.deps.db);
    const id = (await as(a).list()).body.keys[0].id;
    const results = await Promise.all([as(a).rotate(id), as(a).rotate(id)]);
    expect(results.map((r) => r.status).sort()).to.deep.equal([201, 404]);
    const keys = (await as(a).list()).body.keys;
    expect(keys.filter((k: { active: boolean }) => k.active)).to.have.length(1);
    expect(keys).to.have.length(2);
  });

  it('answers 404 for an unknown key id and 400 naming key_id for one that is not a UUID', async () => {
    const a = await createAccount(t.deps.db);
    const unknown = '5b0f8d30-4b6c-4f6e-9b6c-2b2f0f0e0f0e';
    expect((await as(a).revoke(unknown)).status).to.equal(404);
    expect((await as(a).rotate(unknown)).status).to.equal(404);
    for (const bad of ['abc', '123', `${unknown}0`, "x'; drop table api_keys; --"]) {
      expectFields(await as(a).revoke(encodeURIComponent(bad)), 'key_id');
      expectFields(await as(a).rotate(encodeURIComponent(bad)), 'key_id');
    }
  });

  describe('tenancy', () => {
    let a: TestAccount;
    let b: TestAccount;
    let aKeyId: string;
    before(async () => {
      a = await createAccount(t.deps.db);
      b = await createAccount(t.deps.db);
      aKeyId = (await as(a).list()).body.keys[0].id;
    });

    it("never lists another account's keys", async () => {
      const list = await as(b).list();
      expect(list.body.count).to.equal(1);
      expect(list.body.keys.map((k: { id: string }) => k.id)).to.not.include(aKeyId);
      expect(list.body.keys[0].display_prefix).to.equal(b.key.slice(0, 8));
    });

    it("answers 404 when B revokes or rotates A's key, exactly as for a key that does not exist, and A's key keeps working", async () => {
      const revoke = await as(b).revoke(aKeyId);
      const rotate = await as(b).rotate(aKeyId);
      for (const res of [revoke, rotate]) {
        expect(res.status).to.equal(404);
        expect(res.body.code).to.equal('not_found');
        expect(res.body).to.not.have.property('details');
      }
      expect(await works(a.key)).to.equal(200);
      const aList = (await as(a).list()).body;
      expect(aList.count).to.equal(1);
      expect(aList.keys[0]).to.include({ id: aKeyId, active: true });
      expect((await as(b).list()).body.count).to.equal(1);
    });
  });

  it('documents the key endpoints with their errors', () => {
    const paths = (t.openapi as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }).paths;
    expect(paths['/user/v1/keys/'].get.responses).to.include.keys('200', '401');
    expect(paths['/user/v1/keys/'].post.responses).to.include.keys('201', '400', '401', '403');
    expect(paths['/user/v1/keys/{key_id}/'].delete.responses).to.include.keys('200', '400', '401', '404');
    expect(paths['/user/v1/keys/{key_id}/rotate/'].post.responses).to.include.keys('201', '400', '401', '403', '404');
  });
});
