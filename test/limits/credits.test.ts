import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { blockSize, CreditLedger } from '../../src/limits/credits.ts';
import { monthOf, QuotaRepository } from '../../src/limits/quotaRepository.ts';
import { RedisHealth } from '../../src/redis.ts';
import { createAccount } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { unreachableRedis } from '../helpers/redis.ts';
import { seedRegistry } from '../helpers/seed.ts';

describe('credit ledger (PostgreSQL counts, Redis balance)', () => {
  let t: TestApp;
  let quotas: QuotaRepository;
  let ledger: CreditLedger;
  const month = () => monthOf(new Date());
  const counted = async (accountId: string, r: 'api_calls' | 'doc_views') => (await quotas.usage(accountId, month()))[r] ?? 0;

  before(async () => {
    t = await createTestApp();
    await seedRegistry(t.deps.db);
    quotas = new QuotaRepository(t.deps.db);
    ledger = new CreditLedger(t.deps.redis, quotas, `test:${randomBytes(5).toString('hex')}`, t.deps.log);
  });
  after(async () => t.close());

  it('moves credits in blocks and counts use as moved less balance', async () => {
    const a = await createAccount(t.deps.db);
    for (let i = 0; i < 3; i++) expect(await ledger.take(a.accountId, 'doc_views', 1, 10_000)).to.not.equal(null);
    expect(await counted(a.accountId, 'doc_views')).to.equal(blockSize(10_000));
    expect(await ledger.used(a.accountId, 'doc_views')).to.equal(3);
  });

  it('moves one request at a time near the limit, and refuses whole when short', async () => {
    const a = await createAccount(t.deps.db);
    expect(await ledger.take(a.accountId, 'doc_views', 5, 12)).to.not.equal(null);
    expect(await ledger.take(a.accountId, 'doc_views', 8, 12)).to.equal(null);
    expect(await ledger.used(a.accountId, 'doc_views')).to.equal(5);
    expect(await ledger.take(a.accountId, 'doc_views', 7, 12)).to.not.equal(null);
    expect(await ledger.take(a.accountId, 'doc_views', 1, 12)).to.equal(null);
    expect(await ledger.used(a.accountId, 'doc_views')).to.equal(12);
    expect(await counted(a.accountId, 'doc_views')).to.equal(12);
  });

  it('tops a low balance up in the background, one top-up at a time', async () => {
    const a = await createAccount(t.deps.db);
    const limit = 10_000;
    expect(await ledger.take(a.accountId, 'doc_views', 1, limit)).to.not.equal(null);
    // Half a block left is enough: nothing to do.
    await ledger.keepUp(a.accountId, 'doc_views', limit, blockSize(limit) / 2);
    expect(await counted(a.accountId, 'doc_views')).to.equal(blockSize(limit));
    // Two requests find it low at once: the second joins the top-up the first began, and one block moves.
    const first = ledger.keepUp(a.accountId, 'doc_views', limit, 3);
    const second = ledger.keepUp(a.accountId, 'doc_views', limit, 2);
    expect(second).to.equal(first);
    await Promise.all([first, second]);
    expect(await counted(a.accountId, 'doc_views')).to.equal(2 * blockSize(limit));
    expect(await ledger.used(a.accountId, 'doc_views')).to.equal(1);
  });

  it('gives a refund back to the balance it came from', async () => {
    const a = await createAccount(t.deps.db);
    const c = await ledger.take(a.accountId, 'doc_views', 4, 1000);
    await ledger.refund(c!);
    expect(await ledger.used(a.accountId, 'doc_views')).to.equal(0);
  });

  it('does not spend a balance taken under another limit: it goes back and the new limit applies', async () => {
    const a = await createAccount(t.deps.db);
    expect(await ledger.take(a.accountId, 'doc_views', 1, 100_000)).to.not.equal(null);
    expect(await counted(a.accountId, 'doc_views')).to.equal(blockSize(100_000));
    // The plan now allows 3 in all: one is used, two remain, whatever the old balance held.
    expect(await ledger.take(a.accountId, 'doc_views', 2, 3)).to.not.equal(null);
    expect(await ledger.take(a.accountId, 'doc_views', 1, 3)).to.equal(null);
    expect(await ledger.used(a.accountId, 'doc_views')).to.equal(3);
    expect(await counted(a.accountId, 'doc_views')).to.equal(3);
  });

  it('loses at most one block when Redis forgets the balance, and carries on', async () => {
    const a = await createAccount(t.deps.db);
    const limit = 10_000;
    expect(await ledger.take(a.accountId, 'doc_views', 1, limit)).to.not.equal(null);
    await t.deps.redis.del(ledger.key(a.accountId, month(), 'doc_views'));
    expect(await ledger.take(a.accountId, 'doc_views', 1, limit)).to.not.equal(null);
    expect(await counted(a.accountId, 'doc_views')).to.equal(2 * blockSize(limit));
  });

  it('charges and refunds in PostgreSQL while Redis is unreachable, never past the limit', async () => {
    const a = await createAccount(t.deps.db);
    const down = unreachableRedis();
    const offline = new CreditLedger(down, quotas, 'test:down', t.deps.log);
    try {
      const c = await offline.take(a.accountId, 'doc_views', 2, 3);
      expect(c).to.include({ via: 'postgres' });
      expect(await offline.take(a.accountId, 'doc_views', 2, 3)).to.equal(null);
      await offline.refund(c!);
      expect(await counted(a.accountId, 'doc_views')).to.equal(0);
    } finally {
      down.disconnect();
    }
  });

  it('gives a block back to PostgreSQL when Redis certainly never got it, and keeps one it may have got counted', async () => {
    const a = await createAccount(t.deps.db);
    // Redis away: the block moved out of PostgreSQL cannot reach a balance, and the call was never sent.
    const down = unreachableRedis();
    const offline = new CreditLedger(down, quotas, 'test:down', t.deps.log);
    try {
      await offline.topUp(a.accountId, 'doc_views', 0, 10_000).then(
        () => expect.fail('a top-up without Redis succeeded'),
        (err: Error) => expect(err.name).to.equal('RedisUnavailable'),
      );
      expect(await counted(a.accountId, 'doc_views')).to.equal(0);
      // While the outage lasts calls are refused without being made: the same.
      await offline.topUp(a.accountId, 'doc_views', 0, 10_000).catch(() => undefined);
      expect(await counted(a.accountId, 'doc_views')).to.equal(0);
    } finally {
      down.disconnect();
    }
    // A call that reached Redis but whose answer did not come back (no answer within the deadline) may have been
    // applied: the block stays counted, never over-granted.
    const b = await createAccount(t.deps.db);
    const slow = new CreditLedger(
      t.deps.redis,
      quotas,
      `test:${randomBytes(5).toString('hex')}`,
      t.deps.log,
      new RedisHealth(t.deps.log, 0),
    );
    await slow.topUp(b.accountId, 'doc_views', 0, 10_000).catch(() => undefined);
    expect(await counted(b.accountId, 'doc_views')).to.equal(blockSize(10_000));
  });

  it('gives balances of past months back to PostgreSQL when swept', async () => {
    const a = await createAccount(t.deps.db);
    const past = '2026-01-01';
    await t.deps.db('usage_counters').insert({ account_id: a.accountId, month: past, resource: 'doc_views', used: 64 });
    await t.deps.redis.hset(ledger.key(a.accountId, past, 'doc_views'), 'b', '60', 'l', '1000');
    expect(await ledger.sweep()).to.be.at.least(60);
    const r = await t.deps.db('usage_counters').where({ account_id: a.accountId, month: past, resource: 'doc_views' }).first();
    expect(Number(r.used)).to.equal(4);
    expect(await t.deps.redis.exists(ledger.key(a.accountId, past, 'doc_views'))).to.equal(0);
  });

  it("keeps an API request's credit in the shared balance: usage counts exactly what was answered", async () => {
    const c = await t.client();
    for (let i = 0; i < 5; i++) expect((await c.get('/v1/journals/7/')).status).to.equal(200);
    expect((await c.get('/v1/journals/999/')).status).to.equal(404);
    expect(await t.used(c.account.accountId, 'api_calls')).to.equal(5);
    expect(await counted(c.account.accountId, 'api_calls')).to.equal(blockSize(1_000_000));
  });
});
