import { expect } from 'chai';
import type { WebhookWorkers } from '../../workers/webhooks.ts';
import type { TestApp } from '../helpers/app.ts';
import { Receiver } from '../helpers/receiver.ts';
import { smtpServer } from '../helpers/smtp.ts';
import { importFixture, type Owner, owner, startApp, startWorkers, until } from './support.ts';

describe('webhooks: retries, disabling and replay', () => {
  let t: TestApp;
  let receiver: Receiver;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let workers: WebhookWorkers;
  let acct: Owner;

  before(async function () {
    this.timeout(60_000);
    receiver = await new Receiver().start();
    smtp = await smtpServer();
    t = await startApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Nishaan <alerts@nishaan.test>' });
    await importFixture(t, 'baseline');
    acct = await owner(t);
    workers = await startWorkers(t);
  });
  after(async () => {
    await workers.close();
    await receiver.close();
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
    await t.close();
  });

  const hook = async (path: string) =>
    (
      await acct
        .post('/user/v1/webhooks/')
        .send({ url: `${receiver.url}${path}`, monitored_applications: ['4100002'], events: ['trademark.alert_changed'] })
    ).body;
  const change = async (n: number) => {
    const [{ id }] = await t.deps
      .db('outbox')
      .insert({
        event: 'trademark.alert_changed',
        application_number: '4100002',
        old_value: null,
        new_value: JSON.stringify({ alert: `alert ${n}` }),
        changed_at: new Date().toISOString(),
      })
      .returning('id');
    return id as number;
  };
  const delivery = (outboxId: number, webhookId: string) =>
    t.deps.db('webhook_deliveries').where({ outbox_id: outboxId, webhook_id: webhookId }).first();
  const at = (p: string) => receiver.received.filter((r) => r.path === p);

  it('retries a failed delivery after the backoff under the same webhook-id, until it succeeds', async () => {
    const w = await hook('/flaky');
    receiver.answer = (r) => (r.path === '/flaky' && at('/flaky').length <= 2 ? { status: 503, body: 'busy, try later' } : { status: 200 });
    const id = await change(1);
    await until('three attempts', () => at('/flaky').length === 3);
    await until('the delivery to be recorded', async () => (await delivery(id, w.id))?.status === 'delivered');
    const got = at('/flaky');
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).to.equal(1);
    expect(got[1].at - got[0].at).to.be.at.least(140);
    const log = (await acct.get(`/user/v1/webhooks/${w.id}/deliveries/`)).body.deliveries[0];
    expect(log.attempt_log.map((a: { status_code: number }) => a.status_code)).to.deep.equal([503, 503, 200]);
    expect(log.attempt_log[0]).to.deep.include({ error: 'HTTP 503', response_excerpt: 'busy, try later' });
    expect(log).to.deep.include({ status: 'delivered', attempts: 3 });
    // A success clears the count of failures.
    expect((await acct.get(`/user/v1/webhooks/${w.id}/`)).body.failure_count).to.equal(0);
  });

  it('gives up after 3 retries: exactly 4 attempts, then the delivery is failed', async () => {
    const w = await hook('/down');
    receiver.answer = (r) => (r.path === '/down' ? { status: 500 } : { status: 200 });
    const id = await change(2);
    await until('the delivery to fail', async () => (await delivery(id, w.id))?.status === 'failed');
    expect(at('/down')).to.have.length(4);
    expect((await delivery(id, w.id)).attempts).to.equal(4);
    // No fifth attempt can come: a failed delivery is final. Were its job handed out again (a relay, a stalled
    // job), the attempt finds nothing to send, rather than this test waiting for an attempt that is absent.
    expect(await t.deps.services.deliverer.attempt({ outboxId: id, webhookId: w.id })).to.equal('gone');
    expect(at('/down')).to.have.length(4);
    expect(
      await t.deps.db('webhook_deliveries').where({ outbox_id: id, webhook_id: w.id, status: 'pending' }).count('* as n'),
    ).to.deep.equal([{ n: 0 }]);
    await acct.del(`/user/v1/webhooks/${w.id}/`).expect(200);
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    const w = await hook('/moved');
    receiver.answer = (r) => (r.path === '/moved' ? { status: 302, headers: { Location: `${receiver.url}/elsewhere` } } : { status: 200 });
    const id = await change(3);
    await until('the delivery to fail', async () => (await delivery(id, w.id))?.status === 'failed');
    expect(at('/moved')).to.have.length(4);
    expect(at('/elsewhere')).to.have.length(0);
    expect((await delivery(id, w.id)).last_error).to.equal('redirect not followed (HTTP 302)');
    await acct.del(`/user/v1/webhooks/${w.id}/`).expect(200);
  });

  it('disables the webhook at the 10th failed attempt in a row, mails its owner over SMTP, and sends nothing more', async () => {
    await acct.del(`/user/v1/webhooks/${(await acct.get('/user/v1/webhooks/list/')).body.webhooks[0].id}/`).expect(200);
    const w = await hook('/broken');
    // A watch sends its hits to it: the mail names the watch, which keeps recording its hits.
    const watch = await acct.post('/user/v1/watches/').send({ word_mark: 'Sunrise Foods', classes: [30], webhook_id: w.id });
    expect(watch.status, JSON.stringify(watch.body)).to.equal(201);
    receiver.answer = (r) => (r.path === '/broken' ? { status: 500 } : { status: 200 });
    const first = await change(10);
    await until('the first delivery to fail', async () => (await delivery(first, w.id))?.status === 'failed');
    const second = await change(11);
    await until('the second delivery to fail', async () => (await delivery(second, w.id))?.status === 'failed');
    expect((await acct.get(`/user/v1/webhooks/${w.id}/`)).body).to.deep.include({ failure_count: 8, status: 'active' });
    const third = await change(12);
    await until('the webhook to be disabled', async () => (await acct.get(`/user/v1/webhooks/${w.id}/`)).body.status === 'disabled');
    await until('the mail', () => smtp.mails.length === 1);
    const view = (await acct.get(`/user/v1/webhooks/${w.id}/`)).body;
    expect(view).to.deep.include({ active: false, failure_count: 10 });
    expect(view.disabled_reason).to.contain('10 failed attempts in a row');
    expect(at('/broken')).to.have.length(10);
    const d3 = await delivery(third, w.id);
    expect(d3).to.deep.include({ status: 'cancelled', attempts: 2 });
    expect(smtp.mails[0].to).to.deep.equal([acct.account.email]);
    expect(smtp.mails[0].from).to.equal('alerts@nishaan.test');
    expect(smtp.mails[0].data).to.match(/Subject: Nishaan: your webhook was disabled/);
    expect(smtp.mails[0].data).to.contain(w.id);
    // Quoted-printable soft line breaks undone.
    const text = smtp.mails[0].data.replace(/=\r\n/g, '');
    expect(text).to.contain('your similarity watch: Sunrise Foods. They keep watching');
    await acct.del(`/user/v1/watches/${watch.body.id}/`).expect(200);
    expect((await t.deps.db('mail_outbox').first()).sent_at).to.be.instanceOf(Date);

    // While disabled, changes make no deliveries.
    const fourth = await change(13);
    await until('the event to be fanned out', async () => (await t.deps.db('outbox').where({ id: fourth }).first()).fanned_out_at !== null);
    expect(await delivery(fourth, w.id)).to.equal(undefined);
    expect((await acct.post(`/user/v1/webhooks/${w.id}/deliveries/${d3.id}/replay/`)).status).to.equal(409);

    // Turned on again once the endpoint is fixed: a replay sends the cancelled delivery under its webhook-id.
    receiver.answer = () => ({ status: 204 });
    expect((await acct.put(`/user/v1/webhooks/${w.id}/`).send({ active: true })).body).to.deep.include({
      status: 'active',
      failure_count: 0,
    });
    const replay = await acct.post(`/user/v1/webhooks/${w.id}/deliveries/${d3.id}/replay/`);
    expect(replay.status, JSON.stringify(replay.body)).to.equal(202);
    expect(replay.body).to.deep.include({ status: 'pending' });
    await until('the replay', async () => (await delivery(third, w.id)).status === 'delivered');
    const sent = at('/broken');
    expect(sent).to.have.length(11);
    expect(sent[10].headers['webhook-id']).to.equal(replay.body.message_id);
    expect(sent[10].headers['webhook-id']).to.equal(sent[8].headers['webhook-id']);
    expect(JSON.parse(sent[10].body).change.new_value).to.deep.equal({ alert: 'alert 12' });
  });
});
