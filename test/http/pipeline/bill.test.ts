import { expect } from 'chai';
import type { Resource } from '../../../src/accounts/callerRepository.ts';
import { Bill } from '../../../src/http/pipeline/bill.ts';
import type { Charge } from '../../../src/limits/credits.ts';
import { createAccount } from '../../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

// The bill against the real ledger: what a request was charged, and what of it goes back.
describe('request pipeline: the bill', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  const LIMIT = 10_000;
  const take = async (accountId: string, resource: Resource, units: number): Promise<Charge> =>
    (await t.ledger.take(accountId, resource, units, LIMIT))!;
  const used = async (accountId: string) => ({
    api_calls: await t.used(accountId, 'api_calls'),
    doc_views: await t.used(accountId, 'doc_views'),
  });

  it('gives back everything on it, each charge once, and nothing taken adds nothing', async () => {
    const a = await createAccount(t.deps.db);
    const bill = new Bill(t.ledger);
    const credit = await take(a.accountId, 'api_calls', 1);
    bill.add(credit);
    bill.add(null);
    bill.add(undefined);
    // The admission's credit confirmed by the charge step is the same charge: still one credit.
    bill.add(credit);
    bill.add(await take(a.accountId, 'doc_views', 4));
    expect(await used(a.accountId)).to.deep.equal({ api_calls: 1, doc_views: 4 });
    expect([bill.held('api_calls'), bill.held('doc_views')]).to.deep.equal([1, 4]);
    await bill.refundAll();
    expect(await used(a.accountId)).to.deep.equal({ api_calls: 0, doc_views: 0 });
    await bill.refundAll();
    expect(await used(a.accountId)).to.deep.equal({ api_calls: 0, doc_views: 0 });
  });

  it('gives back part of one resource, never more than it holds, and the rest when the request fails', async () => {
    const a = await createAccount(t.deps.db);
    const bill = new Bill(t.ledger);
    bill.add(await take(a.accountId, 'api_calls', 1));
    bill.add(await take(a.accountId, 'doc_views', 3));
    bill.add(await take(a.accountId, 'doc_views', 2));
    await bill.givePart('doc_views', 4);
    expect(await used(a.accountId)).to.deep.equal({ api_calls: 1, doc_views: 1 });
    expect(bill.held('doc_views')).to.equal(1);
    await bill.givePart('doc_views', 5);
    expect(await used(a.accountId)).to.deep.equal({ api_calls: 1, doc_views: 0 });
    await bill.refundAll();
    expect(await used(a.accountId)).to.deep.equal({ api_calls: 0, doc_views: 0 });
  });

  it('gives each credit back once when refunds run side by side', async () => {
    const a = await createAccount(t.deps.db);
    const bill = new Bill(t.ledger);
    bill.add(await take(a.accountId, 'doc_views', 6));
    await Promise.all([bill.givePart('doc_views', 4), bill.refundAll(), bill.givePart('doc_views', 4), bill.refundAll()]);
    expect(await used(a.accountId)).to.deep.equal({ api_calls: 0, doc_views: 0 });
    // Credits given back are the account's again, not the bill's: a later charge is counted as usual.
    await take(a.accountId, 'doc_views', 2);
    await bill.refundAll();
    expect(await t.used(a.accountId, 'doc_views')).to.equal(2);
  });
});
