import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import type { Db } from '../../src/db/knex.ts';
import { DeliveryRepository } from '../../src/webhooks/deliveryRepository.ts';
import { type DeliveryJob, OutboxRelay } from '../../src/webhooks/outboxRelay.ts';
import { createAccount } from '../helpers/accounts.ts';
import { cloneTestDatabase } from '../helpers/db.ts';

describe('outbox relay', () => {
  let db: Db;
  let redis: Redis;
  let deliveries: Queue;
  let hooks: string[];
  const settings = { maxAttempts: 4, retryDelayMs: 100, requeueAfterMs: 60_000 };
  const relayOf = (s: ConstructorParameters<typeof OutboxRelay>[2]) => new OutboxRelay(new DeliveryRepository(db), deliveries, s);

  before(async () => {
    ({ db } = await cloneTestDatabase());
    redis = new Redis('redis://127.0.0.1:6379/0', { maxRetriesPerRequest: null });
    // A prefix of its own, so parallel runs and other tests never see these jobs.
    deliveries = new Queue('webhook-deliveries', { connection: redis, prefix: `test-${randomBytes(4).toString('hex')}` });
    await db('trademarks').insert(
      ['4100001', '4100002'].map((app) => ({
        application_number: app,
        word_mark: 'ZEST',
        class_number: 30,
        status: 'Registered',
        application_date: '2020-01-01',
        tm_type: 'WORD',
        slug: `zest-${app}`,
      })),
    );
    const { accountId } = await createAccount(db);
    const hook = (events: string[], apps: string[], active = true) => ({ events, apps, active });
    hooks = [];
    for (const h of [
      hook(['*'], ['4100001']),
      hook(['trademark.document_added'], ['4100001', '4100002']),
      hook(['*'], ['4100001'], false),
    ]) {
      const [{ id }] = await db('webhooks')
        .insert({ account_id: accountId, url: 'https://hooks.example.in/x', events: h.events, secret: Buffer.alloc(40), active: h.active })
        .returning('id');
      await db('webhook_marks').insert(h.apps.map((a) => ({ webhook_id: id, application_number: a })));
      hooks.push(id);
    }
    await db('outbox').insert([
      {
        event: 'trademark.status_changed',
        application_number: '4100001',
        old_value: null,
        new_value: JSON.stringify({ status: 'Registered' }),
        changed_at: '2026-11-16T10:00:00Z',
      },
      {
        event: 'trademark.document_added',
        application_number: '4100001',
        old_value: null,
        new_value: JSON.stringify({ id: 5 }),
        changed_at: '2026-11-16T12:00:00Z',
      },
      {
        event: 'trademark.document_added',
        application_number: '4100002',
        old_value: null,
        new_value: JSON.stringify({ id: 6 }),
        changed_at: '2026-11-16T12:00:00Z',
      },
    ]);
  });

  after(async () => {
    await deliveries.obliterate({ force: true });
    await deliveries.close();
    redis.disconnect();
    await db.destroy();
  });

  const jobIds = async () => (await deliveries.getJobs(['waiting', 'delayed'], 0, -1, true)).map((j) => j.id).sort();

  it(
    'fans each event out to the active webhooks that monitor its mark and want it, ' + 'marks it done, and queues one job per delivery',
    async () => {
      const relay = relayOf({ ...settings, batch: 2 });
      expect(await relay.relayOnce()).to.deep.equal({ events: 2, deliveries: 3 });
      expect(await relay.relayOnce()).to.deep.equal({ events: 1, deliveries: 1 });
      expect(await relay.relayOnce()).to.deep.equal({ events: 0, deliveries: 0 });
      const [e1, e2, e3] = (await db('outbox').orderBy('id')).map((r) => r.id);
      expect(await jobIds()).to.deep.equal(
        [`d-${e1}-${hooks[0]}`, `d-${e2}-${hooks[0]}`, `d-${e2}-${hooks[1]}`, `d-${e3}-${hooks[1]}`].sort(),
      );
      const job = (await deliveries.getJob(`d-${e1}-${hooks[0]}`))!;
      expect(job.data as DeliveryJob).to.deep.equal({ outboxId: e1, webhookId: hooks[0] });
      expect(job.opts.attempts).to.equal(4);
      const rows = await db('outbox').orderBy('id');
      expect(rows.every((r) => r.fanned_out_at !== null && Number(r.seq) > 0)).to.equal(true);
      expect(new Set(rows.map((r) => r.seq)).size).to.equal(3);
    },
  );

  it('hands overdue pending deliveries over again, with the attempts they have left, never duplicating a queued job', async () => {
    const [e1] = (await db('outbox').orderBy('id')).map((r) => r.id);
    // As if long ago: the queue still holds three of them, and lost the fourth (Redis restarted, say) after two attempts.
    await db('webhook_deliveries').update({
      queued_at: db.raw(`now() - interval '1 hour'`),
      next_attempt_at: db.raw(`now() - interval '1 hour'`),
    });
    await db('webhook_deliveries').where({ outbox_id: e1, webhook_id: hooks[0] }).update({ attempts: 2 });
    await (await deliveries.getJob(`d-${e1}-${hooks[0]}`))!.remove();
    expect(await relayOf(settings).relayOnce()).to.deep.equal({ events: 0, deliveries: 4 });
    expect(await jobIds()).to.have.length(4);
    expect((await deliveries.getJob(`d-${e1}-${hooks[0]}`))!.opts.attempts).to.equal(2);
    // Just handed over: not again before requeueAfterMs.
    expect(await relayOf(settings).relayOnce()).to.deep.equal({ events: 0, deliveries: 0 });
  });

  it('leaves finished deliveries alone', async () => {
    await db('webhook_deliveries').update({ status: 'delivered', queued_at: db.raw(`now() - interval '1 hour'`) });
    expect(await relayOf(settings).relayOnce()).to.deep.equal({ events: 0, deliveries: 0 });
  });
});
