import { AppError, type ErrorCode } from '../errors.ts';
import type { Caller, PlanGrants } from './callerRepository.ts';

// What a subscription allows beyond its categories, decided here once. An endpoint that needs a
// feature declares it, and the request pipeline refuses it before reading the input, as it does a
// missing category (src/http/pipeline/gate.ts); the services apply the same rules where only the
// request's body can tell whether they apply.

/** An account's subscription as far as the rules below need it. */
export type Subscription = Pick<Caller, 'subscriptionActive' | 'subscriptionStatus' | 'expiresAt'>;

/** 403 subscription_inactive unless the subscription is active (a trial or paid, not expired); `message` says what it holds back. */
export function requireActive(s: Subscription, message: string): void {
  if (!s.subscriptionActive) {
    throw new AppError('subscription_inactive', message, { status: s.subscriptionStatus, expires_at: s.expiresAt });
  }
}

/** What each feature needs of a plan, apart from an active subscription: one rule for the gates, the plan list and its 403s. */
export const FEATURE_RULES = {
  webhooks: (g: PlanGrants) => g.webhookEnabled,
  // Clearance is metered: a plan sells it by giving it a monthly clearances quota (a trial's may be smaller).
  clearance: (g: PlanGrants) => (g.quotas.clearances ?? 0) > 0,
  // A watch reports to one of the account's webhooks and counts as a monitored mark.
  watches: (g: PlanGrants) => g.webhookEnabled && g.monitoredMarksLimit !== 0,
  bulk_search: (g: PlanGrants) => g.bulkSearchLimit > 0,
  bulk_logo: (g: PlanGrants) => g.bulkLogoLimit > 0,
} as const satisfies Record<string, (g: PlanGrants) => boolean>;

/** A part of the product a plan includes or not. */
export type Feature = keyof typeof FEATURE_RULES;
export const FEATURES = Object.keys(FEATURE_RULES) as Feature[];

const REFUSALS: Record<Feature, { code: ErrorCode; what: string }> = {
  webhooks: { code: 'webhooks_not_on_plan', what: 'webhooks are' },
  clearance: { code: 'clearance_not_on_plan', what: 'clearance is' },
  watches: { code: 'watches_not_on_plan', what: 'similarity watches are' },
  bulk_search: { code: 'bulk_not_on_plan', what: 'bulk search is' },
  bulk_logo: { code: 'bulk_not_on_plan', what: 'bulk logo search is' },
};

export const featuresOf = (g: PlanGrants): Record<Feature, boolean> =>
  Object.fromEntries(FEATURES.map((f) => [f, FEATURE_RULES[f](g)])) as Record<Feature, boolean>;

/** 403 unless the caller's subscription is active and its plan includes the feature (details name the feature and the plan). */
export function requireFeature(caller: Caller, feature: Feature): void {
  const { code, what } = REFUSALS[feature];
  requireActive(caller, `your subscription is not active: renew it to use ${feature.replace('_', ' ')}`);
  if (!FEATURE_RULES[feature](caller))
    throw new AppError(code, `${what} not on your plan (${caller.planCode})`, { feature, plan: caller.planCode });
}

/** Webhooks need an active subscription on a plan with webhook_enabled (contract §6, §7). */
export const requireWebhooks = (caller: Caller): void => requireFeature(caller, 'webhooks');

/** A bulk request's size against the caller's plan: 403 when the plan has no bulk of this family, or fewer items per request. */
export function checkBulk(caller: Caller, family: 'search' | 'logo', items: number): void {
  const limit = family === 'search' ? caller.bulkSearchLimit : caller.bulkLogoLimit;
  const feature = family === 'search' ? 'bulk_search_limit' : 'bulk_logo_limit';
  if (limit <= 0) requireFeature(caller, family === 'search' ? 'bulk_search' : 'bulk_logo');
  if (items > limit) {
    throw new AppError('bulk_size_exceeds_plan', `your plan allows ${limit} items per bulk ${family} request; this one has ${items}`, {
      [feature]: limit,
      items,
    });
  }
}
