import { expect } from 'chai';
import request from 'supertest';
import { EVENT_NAMES } from '../../src/webhooks/events.ts';
import { expectFields } from '../accounts/support.ts';
import type { TestApp } from '../helpers/app.ts';
import { importFixture, type Owner, owner, startApp } from './support.ts';

const HOOK = 'https://127.0.0.1:9/hook';

describe('webhooks: registration and management', () => {
  let t: TestApp;
  let pro: Owner;

  before(async () => {
    t = await startApp();
    await importFixture(t, 'baseline');
    pro = await owner(t, { monitored_marks_limit: 3 });
  });
  after(() => t.close());

  it('registers a webhook: 201 with the secret shown once, then never again', async () => {
    const res = await pro
      .post('/user/v1/webhooks/')
      .send({ url: HOOK, monitored_applications: ['4100001', '4100002', '4100001'], events: ['trademark.status_changed'] });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.deep.include({
      url: HOOK,
      events: ['trademark.status_changed'],
      monitored_applications: ['4100001', '4100002'],
      active: true,
      status: 'active',
      failure_count: 0,
    });
    expect(res.body.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body.stats).to.deep.include({ deliveries: 0, pending: 0 });
    const list = await pro.get('/user/v1/webhooks/list/');
    expect(list.status).to.equal(200);
    expect(list.body.count).to.equal(1);
    expect(list.body.monitored_marks).to.deep.equal({ used: 2, limit: 3 });
    expect(list.body.webhooks[0].id).to.equal(res.body.id);
    expect(JSON.stringify(list.body)).not.to.contain(res.body.secret);
    const stored = await t.deps.db('webhooks').where({ id: res.body.id }).first();
    expect(stored.secret.toString('latin1')).not.to.contain(res.body.secret.slice(6, 20));
    await pro.del(`/user/v1/webhooks/${res.body.id}/`).expect(200);
  });

  it('keeps a secret the client gives, and refuses a weak one naming secret', async () => {
    const ok = await pro
      .post('/user/v1/webhooks/')
      .send({ url: HOOK, monitored_applications: ['4100001'], events: ['*'], secret: 'a-long-enough-secret-123' });
    expect(ok.status).to.equal(201);
    expect(ok.body.secret).to.equal('a-long-enough-secret-123');
    expect(ok.body.events).to.deep.equal(['*']);
    expectFields(
      await pro.post('/user/v1/webhooks/').send({ url: HOOK, monitored_applications: ['4100001'], events: ['*'], secret: 'short' }),
      'secret',
    );
    await pro.del(`/user/v1/webhooks/${ok.body.id}/`).expect(200);
  });

  it('refuses an unknown event with a 400 naming it', async () => {
    const res = await pro
      .post('/user/v1/webhooks/')
      .send({ url: HOOK, monitored_applications: ['4100001'], events: ['trademark.status_changed', 'trademark.renamed'] });
    expectFields(res, 'events');
    expect(res.body.error).to.contain('trademark.renamed');
    expect(res.body.details[0].message).to.contain('trademark.renamed');
  });

  it('accepts every event of the contract by name', async () => {
    const res = await pro.post('/user/v1/webhooks/').send({ url: HOOK, monitored_applications: ['4100003'], events: EVENT_NAMES });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.events).to.have.members(EVENT_NAMES);
    await pro.del(`/user/v1/webhooks/${res.body.id}/`).expect(200);
  });

  it('refuses http: URLs, credentials in URLs, and private or loopback addresses', async () => {
    for (const url of ['http://hooks.example.in/x', 'https://user:pw@hooks.example.in/x', 'not a url']) {
      expectFields(await pro.post('/user/v1/webhooks/').send({ url, monitored_applications: ['4100001'], events: ['*'] }), 'url');
    }
    // Classified without connecting anywhere: IP literals, and a name the local hosts file resolves.
    for (const url of [
      'https://10.1.2.3/x',
      'https://192.168.1.1/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://[::ffff:172.16.0.1]/x',
      'https://127.0.0.2:8443/x',
      'https://[::ffff:0:127.0.0.1]/x',
      'https://[::127.0.0.1]/x',
      'https://[64:ff9b::7f00:1]/x',
    ]) {
      const res = await pro.post('/user/v1/webhooks/').send({ url, monitored_applications: ['4100001'], events: ['*'] });
      expectFields(res, 'url');
      expect(res.body.details[0].message).to.match(/private|loopback|link-local|IPv4-translated|global unicast|NAT64/);
    }
  });

  it('refuses application numbers that are not in the register, naming them', async () => {
    const res = await pro.post('/user/v1/webhooks/').send({ url: HOOK, monitored_applications: ['4100001', '999999999'], events: ['*'] });
    expectFields(res, 'monitored_applications');
    expect(res.body.error).to.contain('999999999');
  });

  it("enforces the monitored-mark limit across all of an account's webhooks, counting a mark once", async () => {
    const a = await pro.post('/user/v1/webhooks/').send({ url: HOOK, monitored_applications: ['4100001', '4100002'], events: ['*'] });
    expect(a.status).to.equal(201);
    // The same marks again plus one: 3 distinct, within the limit.
    const b = await pro.post('/user/v1/webhooks/').send({ url: `${HOOK}2`, monitored_applications: ['4100002', '4100003'], events: ['*'] });
    expect(b.status, JSON.stringify(b.body)).to.equal(201);
    const c = await pro.post('/user/v1/webhooks/').send({ url: `${HOOK}3`, monitored_applications: ['4100004'], events: ['*'] });
    expect(c.status).to.equal(403);
    expect(c.body).to.deep.include({ code: 'monitored_limit_exceeded' });
    expect(c.body.details).to.deep.include({ limit: 3, requested: 4 });
    const up = await pro.put(`/user/v1/webhooks/${b.body.id}/`).send({ monitored_applications: ['4100003', '4100004'] });
    expect(up.status).to.equal(403);
    // Replacing a webhook's own marks is counted without its old ones.
    const swap = await pro.put(`/user/v1/webhooks/${b.body.id}/`).send({ monitored_applications: ['4100004'] });
    expect(swap.status, JSON.stringify(swap.body)).to.equal(200);
    expect(swap.body.monitored_applications).to.deep.equal(['4100004']);
    await pro.del(`/user/v1/webhooks/${a.body.id}/`).expect(200);
    await pro.del(`/user/v1/webhooks/${b.body.id}/`).expect(200);
  });

  it('answers 403 without webhook_enabled; turning a webhook off stays allowed', async () => {
    const basic = await owner(t, { webhook_enabled: false, monitored_marks_limit: 0 });
    const res = await basic.post('/user/v1/webhooks/').send({ url: HOOK, monitored_applications: ['4100001'], events: ['*'] });
    expect(res.status).to.equal(403);
    expect(res.body.code).to.equal('webhooks_not_on_plan');
    const w = await pro.post('/user/v1/webhooks/').send({ url: HOOK, monitored_applications: ['4100001'], events: ['*'] });
    await t.deps.db('webhooks').where({ id: w.body.id }).update({ account_id: basic.account.accountId });
    expect((await basic.put(`/user/v1/webhooks/${w.body.id}/`).send({ url: `${HOOK}x` })).status).to.equal(403);
    const off = await basic.put(`/user/v1/webhooks/${w.body.id}/`).send({ active: false });
    expect(off.status).to.equal(200);
    expect(off.body).to.deep.include({ active: false, status: 'inactive' });
  });

  it('refuses a plan without webhooks with 403 before reading the body: a weak secret is only a 400 on a plan with them', async () => {
    const basic = await owner(t, { webhook_enabled: false, monitored_marks_limit: 0 });
    const body = { url: HOOK, monitored_applications: ['4100001'], events: ['nope'], secret: 'short' };
    const refused = await basic.post('/user/v1/webhooks/').send(body);
    expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
    expect(refused.body.code).to.equal('webhooks_not_on_plan');
    for (const path of ['/user/v1/webhooks/not-a-uuid/test/', '/user/v1/webhooks/not-a-uuid/deliveries/x/replay/']) {
      expect((await basic.post(path)).body.code, path).to.equal('webhooks_not_on_plan');
    }
    expectFields(await pro.post('/user/v1/webhooks/').send(body), 'secret');
  });

  it('updates url, events, monitored applications and active status; a disabled webhook is turned on with a fresh count', async () => {
    const w = (await pro.post('/user/v1/webhooks/').send({ url: HOOK, monitored_applications: ['4100001'], events: ['*'] })).body;
    await t.deps
      .db('webhooks')
      .where({ id: w.id })
      .update({ active: false, failure_count: 10, disabled_at: t.deps.db.fn.now(), disabled_reason: '10 failed attempts in a row' });
    expect((await pro.get(`/user/v1/webhooks/${w.id}/`)).body).to.deep.include({ status: 'disabled', failure_count: 10 });
    const res = await pro
      .put(`/user/v1/webhooks/${w.id}/`)
      .send({ url: `${HOOK}/v2`, events: ['trademark.hearing_scheduled', 'trademark.hearing_updated'], active: true });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({
      url: `${HOOK}/v2`,
      active: true,
      status: 'active',
      failure_count: 0,
      disabled_reason: null,
      disabled_at: null,
    });
    expect(res.body.events).to.deep.equal(['trademark.hearing_scheduled', 'trademark.hearing_updated']);
    expectFields(await pro.put(`/user/v1/webhooks/${w.id}/`).send({}), '(body)');
    expectFields(await pro.put(`/user/v1/webhooks/${w.id}/`).send({ events: ['nope'] }), 'events');
    expectFields(await pro.put(`/user/v1/webhooks/${w.id}/`).send({ url: 'http://x.example/' }), 'url');
    await pro.del(`/user/v1/webhooks/${w.id}/`).expect(200);
    expect((await pro.get(`/user/v1/webhooks/${w.id}/`)).status).to.equal(404);
  });

  it("scopes every operation to the owner: another account's webhook is 404", async () => {
    const w = (await pro.post('/user/v1/webhooks/').send({ url: HOOK, monitored_applications: ['4100001'], events: ['*'] })).body;
    const other = await owner(t);
    for (const r of [
      other.get(`/user/v1/webhooks/${w.id}/`),
      other.put(`/user/v1/webhooks/${w.id}/`).send({ active: false }),
      other.del(`/user/v1/webhooks/${w.id}/`),
      other.get(`/user/v1/webhooks/${w.id}/deliveries/`),
      other.post(`/user/v1/webhooks/${w.id}/test/`),
      other.post(`/user/v1/webhooks/${w.id}/deliveries/1/replay/`),
    ]) {
      expect((await r).status).to.equal(404);
    }
    expect((await other.get('/user/v1/webhooks/list/')).body.count).to.equal(0);
    expect((await pro.get(`/user/v1/webhooks/${w.id}/`)).body.active).to.equal(true);
    expectFields(await pro.get('/user/v1/webhooks/not-a-uuid/'), 'webhook_id');
    expect((await request(t.app).get('/user/v1/webhooks/list/')).status).to.equal(401);
    await pro.del(`/user/v1/webhooks/${w.id}/`).expect(200);
  });
});
