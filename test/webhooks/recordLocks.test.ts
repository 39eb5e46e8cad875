import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createDb, type Db } from '../../src/db/knex.ts';
import { type AttemptOutcome, DeliveryRepository, type DeliveryWork } from '../../src/webhooks/deliveryRepository.ts';
import { createAccount } from '../helpers/accounts.ts';
import { cloneTestDatabase } from '../helpers/db.ts';

// Many attempts of one webhook finish at once when its endpoint is down: their records must neither
// deadlock nor lose a failure, and the webhook must be disabled at exactly the threshold.
describe('webhooks: recording attempts concurrently', () => {
  let db: Db;
  let repo: DeliveryRepository;
  let accountId: string;

  before(async () => {
    const clone = await cloneTestDatabase();
    await clone.db.destroy();
    // Room for every record of a burst to hold a connection at once.
    db = createDb(clone.url, 40);
    repo = new DeliveryRepository(db);
    accountId = (await createAccount(db, { webhook_enabled: true })).accountId;
  });
  after(() => db.destroy());

  /** A webhook with `n` pending deliveries, each loaded as the deliverer loads it. */
  async function webhookWith(n: number): Promise<{ id: string; work: DeliveryWork[] }> {
    const id = randomUUID();
    await db('webhooks').insert({ id, account_id: accountId, url: 'https://hooks.example.in/x', events: ['*'], secret: Buffer.alloc(32) });
    const outbox = await db('outbox')
      .insert(
        Array.from({ length: n }, (_, i) => ({
          event: 'trademark.alert_changed',
          application_number: String(4100000 + i),
          old_value: null,
          new_value: JSON.stringify({ alert: `a${i}` }),
          changed_at: new Date().toISOString(),
        })),
      )
      .returning('id');
    await db('webhook_deliveries').insert(outbox.map((o: { id: number }) => ({ webhook_id: id, outbox_id: o.id })));
    const work = await repo.loadMany(outbox.map((o: { id: number }) => ({ outboxId: o.id, webhookId: id })));
    return { id, work: work as DeliveryWork[] };
  }

  const count = async (q: ReturnType<Db>) => Number((await q.count<{ n: string }[]>('* as n'))[0].n);
  const failure: AttemptOutcome = { ok: false, statusCode: 500, latencyMs: 3, error: 'HTTP 500', excerpt: 'down' };
  const success: AttemptOutcome = { ok: true, statusCode: 200, latencyMs: 3, error: null, excerpt: null };
  const opts = { final: false, retryDelayMs: 60_000, disableAfter: 10, mail: () => ({ subject: 'disabled', body: 'disabled' }) };

  it('counts every one of 40 simultaneous failures, disables at exactly the 10th, and mails the owner once', async () => {
    const { id, work } = await webhookWith(40);
    const results = await Promise.allSettled(work.map((w) => repo.record(w, failure, opts)));
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).to.deep.equal([]);
    expect(results.filter((r) => r.status === 'fulfilled' && r.value.disabled)).to.have.length(1);

    const hook = await db('webhooks').where({ id }).first();
    expect(hook).to.include({ active: false, failure_count: 40 });
    expect(hook.disabled_reason).to.match(/^10 failed attempts in a row/);
    expect(await count(db('webhook_attempts').join('webhook_deliveries as d', 'd.id', 'delivery_id').where('d.webhook_id', id))).to.equal(
      40,
    );
    expect(await count(db('mail_outbox').where({ subject: 'disabled' }))).to.equal(1);
    // Nothing is left owed to a disabled webhook.
    expect(await count(db('webhook_deliveries').where({ webhook_id: id, status: 'pending' }))).to.equal(0);
  });

  it('records successes beside the failure that disables the webhook without a deadlock, each delivery ending once', async () => {
    const { id, work } = await webhookWith(60);
    // Five successes among 55 failures: some run of failures reaches the threshold whatever the order.
    const results = await Promise.allSettled(
      work.map((w, i) =>
        i < 10 && i % 2 === 0
          ? repo.recordSuccesses([{ work: w, outcome: success }])
          : repo.record(w, failure, { ...opts, disableAfter: 5 }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).to.deep.equal([]);
    expect(await count(db('webhook_attempts').join('webhook_deliveries as d', 'd.id', 'delivery_id').where('d.webhook_id', id))).to.equal(
      60,
    );
    const byStatus = await db('webhook_deliveries').where({ webhook_id: id }).select('status').count('* as n').groupBy('status');
    expect(Object.fromEntries(byStatus.map((r) => [r.status, Number(r.n)]))).to.deep.equal({ delivered: 5, cancelled: 55 });
  });
});
