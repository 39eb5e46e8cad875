import { expect } from 'chai';
import { Admission } from '../../../src/http/pipeline/admit.ts';
import { chargeUpFront, costOf, deferredCharge, isDefaultCost } from '../../../src/http/pipeline/charge.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { callerOf, guardFor, rejection } from './support.ts';

describe('request pipeline: charge', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  it('costs one api_calls credit on key endpoints unless declared otherwise, nothing elsewhere', () => {
    expect(costOf(undefined, 'apiKey')).to.deep.equal({ resource: 'api_calls' });
    expect(costOf(undefined, 'bearer')).to.equal(null);
    expect(costOf(undefined, 'none')).to.equal(null);
    expect(costOf(null, 'apiKey')).to.equal(null);
    const declared = { resource: 'doc_views' as const, deferred: true };
    expect(costOf(declared, 'apiKey')).to.equal(declared);
    expect(isDefaultCost({ resource: 'api_calls' })).to.equal(true);
    expect(isDefaultCost({ resource: 'api_calls', units: () => 3 })).to.equal(false);
    expect(isDefaultCost({ resource: 'logo_searches' })).to.equal(false);
    expect(isDefaultCost(null)).to.equal(false);
  });

  it('confirms the default credit taken at admission without taking another, and refuses when none was left', async () => {
    const { guard, callers } = guardFor(t);
    const c = await t.client({ quotas: { api_calls: 10 } });
    const caller = await callerOf(callers, c.account.key);
    const credit = await t.ledger.take(caller.accountId, 'api_calls', 1, 10);
    const bill = guard.bill();
    bill.add(credit);
    await chargeUpFront(guard, { caller, credit }, 'api_calls', 1, bill);
    expect(bill.held('api_calls')).to.equal(1);
    expect(await t.used(caller.accountId, 'api_calls')).to.equal(1);
    const err = await rejection(chargeUpFront(guard, { caller, credit: null }, 'api_calls', 1, guard.bill()));
    expect(err.code).to.equal('quota_exceeded');
    expect(err.details).to.include({ limit: 10, needed: 1, resource: 'api_calls' });
  });

  it('takes a declared cost whole, or refuses it whole (429) when fewer credits are left', async () => {
    const { guard, callers } = guardFor(t);
    const c = await t.client({ quotas: { logo_searches: 5 } });
    const caller = await callerOf(callers, c.account.key);
    const bill = guard.bill();
    await chargeUpFront(guard, { caller }, 'logo_searches', 3, bill);
    expect(bill.held('logo_searches')).to.equal(3);
    const err = await rejection(chargeUpFront(guard, { caller }, 'logo_searches', 3, bill));
    expect(err.code).to.equal('quota_exceeded');
    expect(err.details).to.include({ limit: 5, remaining: 2, needed: 3, resource: 'logo_searches' });
    expect(bill.held('logo_searches')).to.equal(3);
    expect(await t.used(caller.accountId, 'logo_searches')).to.equal(3);
    await bill.refundAll();
    expect(await t.used(caller.accountId, 'logo_searches')).to.equal(0);
  });

  it('lets a deferred-cost handler charge what it hands out, of the declared resource or another, on the bill', async () => {
    const { guard, callers } = guardFor(t);
    const c = await t.client();
    const caller = await callerOf(callers, c.account.key);
    const bill = guard.bill();
    const charge = deferredCharge(guard, new Admission(guard, caller, { caller }), { resource: 'doc_views', deferred: true }, bill, 'op');
    await charge(4);
    await charge(1, 'api_calls');
    expect([bill.held('doc_views'), bill.held('api_calls')]).to.deep.equal([4, 1]);
    expect([await t.used(caller.accountId, 'doc_views'), await t.used(caller.accountId, 'api_calls')]).to.deep.equal([4, 1]);
    await bill.refundAll();
    expect([await t.used(caller.accountId, 'doc_views'), await t.used(caller.accountId, 'api_calls')]).to.deep.equal([0, 0]);
  });

  it('refuses ctx.charge to an endpoint without a deferred cost, or before its admission is known', async () => {
    const { guard, callers } = guardFor(t);
    const caller = await callerOf(callers, t.account.key);
    const admitted = new Admission(guard, caller, { caller });
    const message = (p: Promise<unknown>) =>
      p.then(
        () => '',
        (err: Error) => err.message,
      );
    expect(await message(deferredCharge(guard, admitted, { resource: 'api_calls' }, guard.bill(), 'getThing')(1))).to.equal(
      'getThing charges through ctx.charge without a deferred cost',
    );
    expect(await message(deferredCharge(guard, admitted, null, guard.bill(), 'getThing')(1))).to.contain('without a deferred cost');
    const pending = new Admission(guard, caller, undefined, new Promise(() => undefined));
    expect(
      await message(deferredCharge(guard, pending, { resource: 'doc_views', deferred: true }, guard.bill(), 'getThing')(1)),
    ).to.contain('without a deferred cost');
  });

  it("charges nothing with the checks off (the benchmark's unguarded app)", async () => {
    const { guard, callers } = guardFor(t, {}, true);
    const caller = await callerOf(callers, t.account.key);
    const bill = guard.bill();
    await chargeUpFront(guard, { caller }, 'logo_searches', 3, bill);
    expect(bill.held('logo_searches')).to.equal(0);
  });
});
