import { verify as verifyGithubStyle } from '@octokit/webhooks-methods';
import { expect } from 'chai';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import request from 'supertest';
import { CATEGORIES } from '../../src/accounts/access.ts';
import { DeliveryRepository } from '../../src/webhooks/deliveryRepository.ts';
import { WebhookPayload } from '../../src/webhooks/schemas.ts';
import type { WebhookWorkers } from '../../workers/webhooks.ts';
import type { TestApp } from '../helpers/app.ts';
import { type Received, Receiver } from '../helpers/receiver.ts';
import { importFixture, type Owner, owner, startApp, startWorkers, until } from './support.ts';

/** Verifies both signatures of a delivery with independent libraries, and returns its body. */
async function verified(r: Received, secret: string, raw = false) {
  expect(r.headers['x-nishaan-signature']).to.match(/^sha256=[0-9a-f]{64}$/);
  expect(await verifyGithubStyle(secret, r.body, r.headers['x-nishaan-signature'])).to.equal(true);
  expect(await verifyGithubStyle(`${secret}x`, r.body, r.headers['x-nishaan-signature'])).to.equal(false);
  const std = raw ? new StandardWebhook(secret, { format: 'raw' }) : new StandardWebhook(secret);
  const body = std.verify(r.body, {
    'webhook-id': r.headers['webhook-id'],
    'webhook-timestamp': r.headers['webhook-timestamp'],
    'webhook-signature': r.headers['webhook-signature'],
  });
  expect(body).to.deep.equal(JSON.parse(r.body));
  return body as Record<string, any>;
}

describe('webhooks: delivery of imported changes', () => {
  let t: TestApp;
  let receiver: Receiver;
  let workers: WebhookWorkers;
  let full: Owner;
  let narrow: Owner;
  let hookA: { id: string; secret: string };
  let hookB: { id: string; secret: string };

  before(async function () {
    this.timeout(60_000);
    receiver = await new Receiver().start();
    t = await startApp();
    await importFixture(t, 'baseline');
    full = await owner(t);
    narrow = await owner(t, { categories: CATEGORIES.filter((c) => c !== 'cat_attorney' && c !== 'cat_status_history') });
    hookA = (await full.post('/user/v1/webhooks/').send({ url: `${receiver.url}/a`, monitored_applications: ['4100001'], events: ['*'] }))
      .body;
    const b = await narrow.post('/user/v1/webhooks/').send({
      url: `${receiver.url}/b?tenant=7`,
      monitored_applications: ['4100001', '4100003'],
      events: ['*'],
      secret: 'b-secret-of-twenty-chars',
    });
    hookB = b.body;
    workers = await startWorkers(t);
    await importFixture(t, 'delta');
    await receiver.waitFor(8 + 6 + 3);
    // Nothing more is owed: every delivery of the import is finished.
    await until('deliveries to finish', async () => (await t.deps.db('webhook_deliveries').where({ status: 'pending' })).length === 0);
  });
  after(async () => {
    await workers.close();
    await receiver.close();
    await t.close();
  });

  const at = (p: string) => receiver.received.filter((r) => r.path === p);

  it("delivers every event of a monitored mark, signed, with the contract's headers", async () => {
    const got = at('/a');
    expect(got.map((r) => r.headers['x-nishaan-event']).sort()).to.deep.equal([
      'trademark.alert_changed',
      'trademark.attorney_changed',
      'trademark.document_added',
      'trademark.expiry_changed',
      'trademark.hearing_updated',
      'trademark.journal_published',
      'trademark.proprietor_changed',
      'trademark.status_changed',
    ]);
    for (const r of got) {
      expect(r.headers['content-type']).to.equal('application/json');
      expect(r.headers['user-agent']).to.match(/^Nishaan-Webhooks\//);
      expect(r.headers['webhook-id']).to.match(/^msg_\d+_[0-9a-f]{32}$/);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).to.be.below(60);
      expect(r.headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
      const body = await verified(r, hookA.secret);
      expect(Object.keys(body)).to.have.members(['event', 'event_id', 'trademark', 'change', 'full_record']);
      expect(WebhookPayload.safeParse(body).success, 'the payload matches its documented schema').to.equal(true);
      expect(body.event).to.equal(r.headers['x-nishaan-event']);
      expect(body.trademark).to.deep.equal({
        application_number: '4100001',
        word_mark: body.full_record.word_mark,
        class_number: body.full_record.class_number,
      });
      expect(body.change).to.have.keys('old_value', 'new_value', 'changed_at');
    }
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).to.equal(got.length);
  });

  it('carries the change itself and the record as it now is', async () => {
    const status = JSON.parse(at('/a').find((r) => r.headers['x-nishaan-event'] === 'trademark.status_changed')!.body);
    expect(status.change).to.deep.equal({
      old_value: { status: 'Objected' },
      new_value: { status: 'Registered' },
      changed_at: '2024-02-01T05:30:00Z',
    });
    expect(status.full_record).to.include({ application_number: '4100001', status: 'Registered' });
    expect(status.full_record.attorneys[0].email).to.equal('filings@mehta.example');
    expect(status.full_record.omitted_categories).to.deep.equal([]);
  });

  it("gives full_record only the categories on the owner's plan, and sends no event whose category the plan lacks", async () => {
    const got = at('/b?tenant=7');
    const events = got.map((r) => `${JSON.parse(r.body).trademark.application_number} ${r.headers['x-nishaan-event']}`).sort();
    expect(events).to.deep.equal([
      '4100001 trademark.alert_changed',
      '4100001 trademark.document_added',
      '4100001 trademark.expiry_changed',
      '4100001 trademark.hearing_updated',
      '4100001 trademark.journal_published',
      '4100001 trademark.proprietor_changed',
      '4100003 trademark.hearing_scheduled',
      '4100003 trademark.journal_published',
      '4100003 trademark.opposition_updated',
    ]);
    for (const r of got) {
      const body = await verified(r, hookB.secret, true);
      expect(body.full_record).not.to.have.any.keys('attorneys', 'status_history');
      expect(body.full_record.omitted_categories).to.have.members(['cat_attorney', 'cat_status_history']);
    }
    const log = await narrow.get(`/user/v1/webhooks/${hookB.id}/deliveries/?status=cancelled`);
    expect(log.body.deliveries.map((d: { event: string; last_error: string }) => [d.event, d.last_error]).sort()).to.deep.equal([
      ['trademark.attorney_changed', 'cat_attorney is not on the plan'],
      ['trademark.attorney_changed', 'cat_attorney is not on the plan'],
      ['trademark.status_changed', 'cat_status_history is not on the plan'],
    ]);
  });

  it('delivers only monitored applications', () => {
    const apps = receiver.received.map((r) => JSON.parse(r.body).trademark.application_number);
    expect(apps).not.to.include.members(['4100002', '4100004']);
  });

  it("logs each delivery with its attempts, and counts them in the webhook's statistics", async () => {
    const log = await full.get(`/user/v1/webhooks/${hookA.id}/deliveries/?limit=100`);
    expect(log.status).to.equal(200);
    expect(log.body.count).to.equal(8);
    for (const d of log.body.deliveries) {
      expect(d).to.deep.include({ status: 'delivered', attempts: 1, last_status_code: 200, last_error: null, next_attempt_at: null });
      expect(d.attempt_log).to.have.length(1);
      expect(d.attempt_log[0]).to.deep.include({ attempt: 1, status_code: 200, error: null, response_excerpt: null });
      expect(d.attempt_log[0].latency_ms).to.be.a('number');
      expect(at('/a').some((r) => r.headers['webhook-id'] === d.message_id)).to.equal(true);
    }
    const list = await full.get('/user/v1/webhooks/list/');
    expect(list.body.webhooks[0].stats).to.deep.include({ deliveries: 8, delivered: 8, failed: 0, pending: 0, cancelled: 0 });
    expect(list.body.webhooks[0].stats.last_success_at).to.be.a('string');
  });

  it('sends a signed test ping on request and reports the answer', async () => {
    const before = receiver.received.length;
    const res = await full.post(`/user/v1/webhooks/${hookA.id}/test/`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ event: 'webhook.ping', delivered: true, status_code: 200, error: null });
    const ping = receiver.received[before];
    expect(ping.headers['webhook-id']).to.equal(res.body.message_id);
    const body = await verified(ping, hookA.secret);
    expect(body).to.deep.include({ event: 'webhook.ping', event_id: res.body.event_id, webhook_id: hookA.id, trademark: null });
  });

  it("logs each test ping in the webhook's delivery log with its one attempt, without counting failures or replaying it", async () => {
    receiver.answer = (r) =>
      r.path === '/a' && JSON.parse(r.body).event === 'webhook.ping' ? { status: 500, body: 'not today' } : { status: 200 };
    try {
      const failed = await full.post(`/user/v1/webhooks/${hookA.id}/test/`);
      expect(failed.body).to.deep.include({ delivered: false, status_code: 500, error: 'HTTP 500' });
      // Eleven failed pings in a row, one past the threshold that disables a webhook for its deliveries' failures.
      for (let i = 0; i < 10; i++) expect((await full.post(`/user/v1/webhooks/${hookA.id}/test/`)).body.delivered).to.equal(false);
      const log = await full.get(`/user/v1/webhooks/${hookA.id}/deliveries/?limit=100`);
      expect(log.body.count).to.equal(8 + 1 + 11);
      const pings = log.body.deliveries.filter((d: { event: string }) => d.event === 'webhook.ping');
      expect(pings).to.have.length(12);
      // Newest first: the eleven failed pings, then the one of the test before.
      expect(pings[0]).to.deep.include({
        status: 'failed',
        attempts: 1,
        last_status_code: 500,
        application_number: null,
        next_attempt_at: null,
      });
      expect(pings[10].id).to.equal(failed.body.delivery_id);
      const first = pings[11];
      expect(first).to.deep.include({
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
        application_number: null,
      });
      expect(first.attempt_log).to.have.length(1);
      expect(first.attempt_log[0]).to.deep.include({ attempt: 1, status_code: 200, error: null });
      expect(first.message_id).to.equal(receiver.received.find((r) => JSON.parse(r.body).event === 'webhook.ping')!.headers['webhook-id']);
      const logged = log.body.deliveries.find((d: { id: string }) => d.id === failed.body.delivery_id);
      expect(logged).to.deep.include({ event_id: failed.body.event_id, message_id: failed.body.message_id, status: 'failed' });
      expect(logged.attempt_log).to.have.length(1);
      expect(logged.attempt_log[0]).to.deep.include({ attempt: 1, status_code: 500, error: 'HTTP 500', response_excerpt: 'not today' });
      expect(logged.attempt_log[0].latency_ms).to.be.a('number');
      const hook = (await full.get(`/user/v1/webhooks/${hookA.id}/`)).body;
      expect(hook).to.deep.include({ status: 'active', failure_count: 0, disabled_reason: null });
      expect(hook.stats).to.deep.include({ deliveries: 20, delivered: 9, failed: 11, last_failure_at: null });
      const replay = await full.post(`/user/v1/webhooks/${hookA.id}/deliveries/${failed.body.delivery_id}/replay/`);
      expect(replay.status).to.equal(409);
      expect(replay.body.code).to.equal('not_replayable');
      const after = (await full.get(`/user/v1/webhooks/${hookA.id}/deliveries/?status=failed`)).body.deliveries;
      expect(after.find((d: { id: string }) => d.id === failed.body.delivery_id)).to.deep.include({ status: 'failed', attempts: 1 });
      // A ping is sent once: nothing of it is left for the queue, and it is not a registry change in the feed.
      expect(await t.deps.db('webhook_deliveries').where({ status: 'pending' })).to.have.length(0);
      const feed = await request(t.app).get('/v1/changes/?since=0&limit=100').set('X-API-Key', full.account.key);
      expect(feed.body.changes.map((c: { event: string }) => c.event)).not.to.include('webhook.ping');
    } finally {
      receiver.answer = () => ({ status: 200, body: 'ok' });
    }
  });

  it('serves the same events to pollers through the changes feed, gated and charged like every read', async () => {
    const key = (o: Owner) => o.account.key;
    const read = (o: Owner, q: string) => request(t.app).get(`/v1/changes/${q}`).set('X-API-Key', key(o));
    const before = await t.used(full.account.accountId, 'api_calls');
    const first = await read(full, '?since=0&limit=5');
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.deep.include({ count: 5, has_more: true, omitted_events: [] });
    const rest = await read(full, `?since=${first.body.next_since}&limit=100`);
    expect(rest.body.count).to.equal(12);
    expect(rest.body.has_more).to.equal(false);
    const all = [...first.body.changes, ...rest.body.changes];
    expect(all[0]).to.have.keys('event_id', 'event', 'trademark', 'change', 'recorded_at');
    const hookEventIds = at('/a')
      .map((r) => JSON.parse(r.body))
      .filter((b) => b.event !== 'webhook.ping')
      .map((b) => b.event_id);
    expect(all.map((c: { event_id: string }) => c.event_id)).to.include.members(hookEventIds);
    expect(await t.used(full.account.accountId, 'api_calls')).to.equal(before + 2);
    const empty = await read(full, `?since=${rest.body.next_since}`);
    expect(empty.body).to.deep.include({ count: 0, next_since: rest.body.next_since });
    const gated = await read(narrow, '?since=0&limit=100&application_numbers=4100001,4100003');
    expect(gated.body.omitted_events).to.have.members(['trademark.status_changed', 'trademark.attorney_changed']);
    expect(gated.body.changes.map((c: { event: string }) => c.event)).not.to.include.members([
      'trademark.status_changed',
      'trademark.attorney_changed',
    ]);
    expect(gated.body.count).to.equal(9);
    const byEvent = await read(full, '?events=trademark.opposition_filed');
    expect(byEvent.body.changes.map((c: { trademark: { application_number: string } }) => c.trademark.application_number)).to.deep.equal([
      '4100004',
    ]);
    const bad = await read(full, '?since=yesterday&events=trademark.nope');
    expect(bad.status).to.equal(400);
    expect(bad.body.details.map((d: { parameter: string }) => d.parameter).sort()).to.deep.equal(['events', 'since']);
    expect((await request(t.app).get('/v1/changes/')).status).to.equal(401);
  });

  it('prunes old test pings with the rest of the log: their deliveries, attempts and own outbox rows', async () => {
    const db = t.deps.db;
    const pings = (await db('outbox').where({ event: 'webhook.ping', webhook_id: hookA.id }).orderBy('id')).map((o) => o.id);
    expect(pings).to.have.length(12);
    const old = pings.slice(0, 2);
    await db('outbox')
      .whereIn('id', old)
      .update({ created_at: db.raw(`now() - interval '31 days'`) });
    await db('webhook_deliveries')
      .whereIn('outbox_id', old)
      .update({ finished_at: db.raw(`now() - interval '31 days'`) });
    expect(await new DeliveryRepository(db).purge(30)).to.equal(2);
    expect(await db('outbox').whereIn('id', old)).to.have.length(0);
    expect(await db('outbox').whereIn('id', pings)).to.have.length(10);
    expect((await full.get(`/user/v1/webhooks/${hookA.id}/deliveries/?limit=100`)).body.count).to.equal(18);
  });
});
