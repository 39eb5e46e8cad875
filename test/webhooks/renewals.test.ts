import { expect } from 'chai';
import type { WebhookWorkers } from '../../workers/webhooks.ts';
import type { TestApp } from '../helpers/app.ts';
import { insertMarks } from '../helpers/marks.ts';
import { Receiver } from '../helpers/receiver.ts';
import { owner, startApp, startWorkers, until } from './support.ts';

const day = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** The contract's DD/MM/YYYY, as expire_at reads in every response and event. */
const ddmmyyyy = (iso: string) => iso.split('-').reverse().join('/');

describe('webhooks: renewal_due reminders', () => {
  let t: TestApp;
  let workers: WebhookWorkers;
  let receiver: Receiver;
  // Far enough ahead that the run the workers make for today at start finds nothing of these marks due.
  const D = day(new Date().toISOString().slice(0, 10), 400);

  before(async function () {
    this.timeout(60_000);
    receiver = await new Receiver().start();
    t = await startApp();
    await insertMarks(t.deps.db, [
      { app: '5100001', mark: 'NINETY' },
      { app: '5100002', mark: 'TWENTY' },
      { app: '5100003', mark: 'FIVE' },
      { app: '5100004', mark: 'FAR' },
      { app: '5100005', mark: 'PAST' },
      { app: '5100006', mark: 'NONE' },
    ]);
    const expiries: Record<string, string | null> = {
      5100001: day(D, 90),
      5100002: day(D, 20),
      5100003: day(D, 5),
      5100004: day(D, 200),
      5100005: day(D, -1),
      5100006: null,
    };
    for (const [app, expire_at] of Object.entries(expiries))
      await t.deps.db('trademarks').where({ application_number: app }).update({ expire_at });
    const o = await owner(t);
    await o
      .post('/user/v1/webhooks/')
      .send({ url: `${receiver.url}/r`, monitored_applications: ['5100001'], events: ['trademark.renewal_due'] })
      .expect(201);
    workers = await startWorkers(t);
  });
  after(async () => {
    await workers.close();
    await receiver.close();
    await t.close();
  });

  const reminders = async () =>
    (await t.deps.db('renewal_reminders').orderBy(['application_number', 'threshold_days'])).map(
      (r) => `${r.application_number}@${r.threshold_days}`,
    );

  it('writes one reminder per mark at the threshold whose window it is in', async () => {
    expect(await workers.runRenewalsNow(D)).to.equal(3);
    expect(await reminders()).to.deep.equal(['5100001@90', '5100002@30', '5100003@7']);
    const ev = await t.deps.db('outbox').where({ event: 'trademark.renewal_due', application_number: '5100001' }).first();
    expect(ev.new_value).to.deep.equal({ expire_at: ddmmyyyy(day(D, 90)), days_before: 90, days_left: 90 });
    expect(ev.old_value).to.equal(null);
  });

  it('writes nothing on a second run, the same day or while a mark stays in its window', async () => {
    expect(await workers.runRenewalsNow(D)).to.equal(0);
    expect(await workers.runRenewalsNow(day(D, 30))).to.equal(0);
    expect(await t.deps.db('outbox').where({ event: 'trademark.renewal_due' }).count('* as n')).to.deep.equal([{ n: 3 }]);
  });

  it('fires each later threshold once as the date comes', async () => {
    expect(await workers.runRenewalsNow(day(D, 60))).to.equal(1); // 5100001: 30 days left
    expect(await workers.runRenewalsNow(day(D, 60))).to.equal(0);
    expect(await workers.runRenewalsNow(day(D, 84))).to.equal(1); // 6 days left
    expect(await workers.runRenewalsNow(day(D, 90))).to.equal(0);
    expect((await reminders()).filter((r) => r.startsWith('5100001'))).to.deep.equal(['5100001@7', '5100001@30', '5100001@90']);
  });

  it('re-arms when the expiry date changes', async () => {
    await t.deps
      .db('trademarks')
      .where({ application_number: '5100001' })
      .update({ expire_at: day(D, 84 + 3650) });
    expect(await workers.runRenewalsNow(day(D, 84 + 3650 - 90))).to.equal(1);
    expect(await workers.runRenewalsNow(day(D, 84 + 3650 - 90))).to.equal(0);
  });

  it('delivers each reminder of a monitored mark once', async () => {
    await receiver.waitFor(4);
    // Every delivery of a reminder is done, and a delivered one is final: nothing more can be sent for them.
    const pending = async () =>
      Number(
        (await t.deps
          .db('webhook_deliveries as d')
          .join('outbox as o', 'o.id', 'd.outbox_id')
          .where('o.event', 'trademark.renewal_due')
          .whereNot('d.status', 'delivered')
          .count('* as n')
          .first())!.n,
      );
    await until('every reminder delivered', async () => (await pending()) === 0);
    const got = receiver.received.map((r) => JSON.parse(r.body));
    expect(got.map((b) => `${b.event} ${b.trademark.application_number} ${b.change.new_value.days_before}`).sort()).to.deep.equal([
      'trademark.renewal_due 5100001 30',
      'trademark.renewal_due 5100001 7',
      'trademark.renewal_due 5100001 90',
      'trademark.renewal_due 5100001 90',
    ]);
    expect(new Set(got.map((b) => b.change.new_value.expire_at)).size).to.equal(2);
  });
});
