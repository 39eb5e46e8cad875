import { expect } from 'chai';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/knex.ts';
import { OutboxRelay, type RegistryEvent } from '../../src/webhooks/outboxRelay.ts';
import { cloneTestDatabase } from '../helpers/db.ts';

describe('outbox relay', () => {
  let db: Db;
  let redis: Redis;
  let queue: Queue;

  before(async () => {
    ({ db } = await cloneTestDatabase());
    redis = new Redis('redis://127.0.0.1:6379/0', { maxRetriesPerRequest: null });
    // A queue name of its own, so parallel runs and other tests never see these jobs.
    queue = new Queue(`test-events-${randomBytes(4).toString('hex')}`, { connection: redis });
    await db('trademarks').insert({
      application_number: '4100001', word_mark: 'ZEST', class_number: 30, status: 'Registered', application_date: '2020-01-01',
      tm_type: 'WORD', slug: 'zest-4100001',
    });
    await db('outbox').insert([
      { event: 'trademark.status_changed', application_number: '4100001', old_value: JSON.stringify('Objected'), new_value: JSON.stringify('Registered'), changed_at: '2026-11-16T10:00:00Z' },
      { event: 'trademark.alert_changed', application_number: '4100001', old_value: null, new_value: JSON.stringify('Reply pending'), changed_at: '2026-11-16T11:00:00Z' },
      { event: 'trademark.document_added', application_number: '4100001', old_value: null, new_value: JSON.stringify({ id: 5 }), changed_at: '2026-11-16T12:00:00Z' },
    ]);
  });

  after(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    redis.disconnect();
    await db.destroy();
  });

  it('moves every unrelayed row to the queue once, in order, and marks it relayed', async () => {
    const relay = new OutboxRelay(db, queue, 2);
    expect(await relay.relayOnce()).to.equal(2);
    expect(await relay.relayOnce()).to.equal(1);
    expect(await relay.relayOnce()).to.equal(0);
    const jobs = await queue.getJobs(['waiting'], 0, -1, true);
    const data = jobs.map((j) => j.data as RegistryEvent);
    expect(data.map((d) => d.event)).to.deep.equal(['trademark.status_changed', 'trademark.alert_changed', 'trademark.document_added']);
    expect(data[0]).to.deep.include({ application_number: '4100001', old_value: 'Objected', new_value: 'Registered', changed_at: '2026-11-16T10:00:00Z' });
    const left = await db('outbox').whereNull('relayed_at').count<{ count: string }[]>('* as count');
    expect(Number(left[0].count)).to.equal(0);
  });

  it('does not enqueue a row twice when it is relayed again after a lost commit', async () => {
    // As if the enqueue had succeeded and the transaction marking the row had not.
    await db('outbox').update({ relayed_at: null });
    expect(await new OutboxRelay(db, queue).relayOnce()).to.equal(3);
    const counts = await queue.getJobCounts('waiting');
    expect(counts.waiting).to.equal(3);
  });
});
