import { expect } from 'chai';
import request from 'supertest';
import type { Security } from '../../../src/http/definition.ts';
import { identify } from '../../../src/http/pipeline/identify.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { guardFor, stepApp } from './support.ts';

describe('request pipeline: identify', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  // Answers who was identified and the viewer the later steps will see.
  const app = (security: Security, ipPerMinute = 1_000_000, inactiveMessage?: string) => {
    const { guard, tokens } = guardFor(t, { ipPerMinute });
    const server = stepApp(t, async (req) => {
      const caller = await identify(guard, req, security, inactiveMessage);
      return { account: caller?.accountId ?? null, viewer: req.viewer?.accountId ?? null };
    });
    return { server, tokens };
  };

  it("finds an API key's account and sets its viewer", async () => {
    const res = await request(app('apiKey').server).get('/step').set('X-API-Key', t.account.key);
    expect(res.body).to.deep.equal({ account: t.account.accountId, viewer: t.account.accountId });
  });

  it('refuses a bad key with 401 counted against its IP, so guessing keys is limited', async () => {
    const { server } = app('apiKey', 2);
    const bad = () =>
      request(server)
        .get('/step')
        .set('X-API-Key', `nsh_${'0'.repeat(32)}`);
    expect((await bad()).body.code).to.equal('unauthorized');
    expect((await bad()).body.code).to.equal('unauthorized');
    expect((await bad()).body.code).to.equal('ip_rate_limited');
  });

  it("words an inactive subscription's 403 as the endpoint asks, keeping its code and details", async () => {
    const inactive = await t.client({}, 'inactive');
    const plain = await request(app('apiKey').server).get('/step').set('X-API-Key', inactive.account.key);
    expect(plain.status).to.equal(403);
    expect(plain.body.code).to.equal('subscription_inactive');
    const worded = await request(app('apiKey', 1_000_000, 'session expired: reopen the document').server)
      .get('/step')
      .set('X-API-Key', inactive.account.key);
    expect(worded.status).to.equal(403);
    expect(worded.body).to.include({ code: 'subscription_inactive', error: 'session expired: reopen the document' });
    expect(worded.body.details).to.deep.equal(plain.body.details);
  });

  it("counts a bearer request against its IP before its token is read, then finds the token's account", async () => {
    const { server, tokens } = app('bearer', 2);
    const token = tokens.issue(t.account.accountId).token;
    expect((await request(server).get('/step').set('Authorization', 'Bearer nonsense')).body.code).to.equal('unauthorized');
    expect((await request(server).get('/step').set('Authorization', `Bearer ${token}`)).body).to.deep.equal({
      account: t.account.accountId,
      viewer: null,
    });
    // The window is full: even a good token is refused now.
    expect((await request(server).get('/step').set('Authorization', `Bearer ${token}`)).body.code).to.equal('ip_rate_limited');
  });

  it('identifies nobody on a public endpoint, counting the request against its IP', async () => {
    const { server } = app('none', 1);
    expect((await request(server).get('/step').set('X-API-Key', t.account.key)).body).to.deep.equal({ account: null, viewer: null });
    expect((await request(server).get('/step')).body.code).to.equal('ip_rate_limited');
  });
});
