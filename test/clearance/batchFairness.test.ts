import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { CLEARANCE_BATCH_QUEUE } from '../../src/clearance/batchService.ts';
import { startClearanceBatchWorker } from '../../workers/clearanceBatch.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks } from '../helpers/marks.ts';
import { until } from '../webhooks/support.ts';

// Batch clearance shares its workers between accounts (issue 39, item 6): one account's thousand names queued
// first no longer hold every worker while another account's single name waits behind them. Each chunk is ranked
// by its place in its own account's line, so every account's next chunk comes before any account's later ones.

describe('batch clearance between accounts', function () {
  this.timeout(120_000);
  const prefix = `test-fair-${randomBytes(4).toString('hex')}`;
  let t: TestApp;
  let connection: Redis;
  let worker: ReturnType<typeof startClearanceBatchWorker> | undefined;

  before(async () => {
    t = await createTestApp({ QUEUE_PREFIX: prefix });
    await insertMarks(t.deps.db, [
      { app: '8200001', mark: 'SUNRISE OIL', cls: 29 },
      { app: '8200002', mark: 'KAVERI TEA', cls: 30 },
    ]);
    connection = new Redis(t.deps.config.REDIS_URL, { maxRetriesPerRequest: null });
  });
  after(async () => {
    await worker?.close();
    const q = new Queue(CLEARANCE_BATCH_QUEUE, { connection, prefix });
    await q.obliterate({ force: true });
    await q.close();
    connection.disconnect();
    await t.close();
  });

  /** When each proposal of a job was answered, in index order. */
  const answeredAt = async (id: string) =>
    (await t.deps.db('clearance_batch_items').where({ batch_id: id }).orderBy('idx').select('answered_at')).map(
      (r: { answered_at: Date }) => r.answered_at.getTime(),
    );

  it("screens another account's one-name batch at the next free worker, ahead of the rest of a large batch queued before it", async () => {
    const big = await t.client();
    const small = await t.client();
    const other = await t.client();
    const names = ['SUNRISE FOODS', 'KAVERI', 'BLUE MOON', 'NEW LOTUS', 'GOLDEN LEAF'];
    const proposals = (n: number) => Array.from({ length: n }, (_, i) => ({ word_mark: `${names[i % names.length]} ${i}`, classes: [30] }));
    // Queued while no worker runs: 6 chunks of 25 for one account, then 2 of the same account's second job, then
    // one name each for two other accounts.
    const first = (await big.post('/v1/clearance/batch/').send({ proposals: proposals(150) })).body.job_id as string;
    const second = (await big.post('/v1/clearance/batch/').send({ proposals: proposals(50) })).body.job_id as string;
    const one = (await small.post('/v1/clearance/batch/').send({ proposals: proposals(1) })).body.job_id as string;
    const two = (await other.post('/v1/clearance/batch/').send({ proposals: proposals(1) })).body.job_id as string;
    // One worker, one chunk at a time: the order it takes them in is the queue's order.
    worker = startClearanceBatchWorker(t.deps, { prefix, concurrency: 1, intervalMs: 60_000 });
    const ids = [first, second, one, two];
    await until(
      'every job screened',
      async () =>
        Number((await t.deps.db('clearance_batches').whereIn('id', ids).where({ status: 'completed' }).count('* as n').first())!.n) === 4,
      { ms: 90_000 },
    );
    const big1 = await answeredAt(first);
    const big2 = await answeredAt(second);
    const [small1] = await answeredAt(one);
    const [other1] = await answeredAt(two);
    // The large job's first chunk was queued first and goes first; the single names come right after it,
    // before its second chunk (index 25 on), not after all 150 names and the same account's second job.
    const secondChunkStart = Math.min(...big1.slice(25));
    expect(small1!, 'the first small job').to.be.below(secondChunkStart);
    expect(other1!, 'the second small job').to.be.below(secondChunkStart);
    expect(Math.max(...big1.slice(0, 25))).to.be.below(small1!);
    // Within one account its jobs keep their order: the second job's chunks come after the first job's.
    expect(Math.min(...big2)).to.be.above(Math.min(...big1.slice(125)));
  });
});
