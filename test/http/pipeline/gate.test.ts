import { expect } from 'chai';
import type { Request } from 'express';
import type { Caller } from '../../../src/accounts/callerRepository.ts';
import { checkBulk } from '../../../src/accounts/planRules.ts';
import { gateCategory, gateFeature } from '../../../src/http/pipeline/gate.ts';
import { refusal } from './support.ts';

describe('request pipeline: what the plan allows', () => {
  describe('gateCategory', () => {
    const req = (categories: string[]) => ({ viewer: { accountId: 'a', categories: new Set(categories) } }) as unknown as Request;

    it('lets a plan with the category through, and any request where the endpoint needs none', () => {
      gateCategory(req(['cat_documents']), 'cat_documents');
      gateCategory({} as Request, undefined);
    });

    it('refuses a plan without the category with 403 category_not_on_plan naming it', () => {
      const err = refusal(() => gateCategory(req(['cat_documents']), 'cat_opp_docs'));
      expect(err.code).to.equal('category_not_on_plan');
      expect(err.details).to.deep.equal({ category: 'cat_opp_docs' });
    });
  });

  describe('gateFeature', () => {
    const caller = (c: Partial<Caller>) =>
      ({ subscriptionActive: true, subscriptionStatus: 'active', expiresAt: null, webhookEnabled: true, planCode: 'pro', ...c }) as Caller;

    it('lets a plan with the feature through, and any request where the endpoint needs none', () => {
      gateFeature(caller({}), 'webhooks');
      gateFeature(undefined, undefined);
    });

    it('refuses a plan without the feature, or an inactive subscription, with 403', () => {
      const off = refusal(() => gateFeature(caller({ webhookEnabled: false, planCode: 'basic' }), 'webhooks'));
      expect(off.code).to.equal('webhooks_not_on_plan');
      expect(off.details).to.deep.equal({ feature: 'webhooks', plan: 'basic' });
      const lapsed = refusal(() => gateFeature(caller({ subscriptionActive: false, subscriptionStatus: 'expired' }), 'webhooks'));
      expect(lapsed.code).to.equal('subscription_inactive');
    });
  });

  describe('checkBulk', () => {
    const caller = { bulkSearchLimit: 50, bulkLogoLimit: 0, subscriptionActive: true, planCode: 'pro' } as Caller;

    it("lets a bulk request of at most the plan's size through", () => {
      checkBulk(caller, 'search', 50);
    });

    it('refuses a family the plan lacks, and a request larger than the plan allows, with 403', () => {
      const none = refusal(() => checkBulk(caller, 'logo', 1));
      expect(none.code).to.equal('bulk_not_on_plan');
      expect(none.details).to.deep.equal({ feature: 'bulk_logo', plan: 'pro' });
      const big = refusal(() => checkBulk(caller, 'search', 51));
      expect(big.code).to.equal('bulk_size_exceeds_plan');
      expect(big.details).to.deep.equal({ bulk_search_limit: 50, items: 51 });
      expect(big.message).to.equal('your plan allows 50 items per bulk search request; this one has 51');
    });
  });
});
