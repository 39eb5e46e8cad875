import { AppError } from '../errors.ts';
import type { Caller } from './callerRepository.ts';

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

/** Webhooks need an active subscription on a plan with webhook_enabled (contract §6, §7). */
export function requireWebhooks(caller: Caller): void {
  requireActive(caller, 'your subscription is not active: renew it to manage webhooks');
  if (!caller.webhookEnabled) throw new AppError('webhooks_not_on_plan', 'webhooks are not on your plan', { plan: caller.planCode });
}

const FEATURES = { webhooks: requireWebhooks } as const;

/** A part of the product an endpoint as a whole needs the caller's plan to include. */
export type Feature = keyof typeof FEATURES;

export function requireFeature(caller: Caller, feature: Feature): void {
  FEATURES[feature](caller);
}

/** A bulk request's size against the caller's plan: 403 when the plan has no bulk of this family, or fewer items per request. */
export function checkBulk(caller: Caller, family: 'search' | 'logo', items: number): void {
  const limit = family === 'search' ? caller.bulkSearchLimit : caller.bulkLogoLimit;
  const feature = family === 'search' ? 'bulk_search_limit' : 'bulk_logo_limit';
  if (limit <= 0) throw new AppError('bulk_not_on_plan', `bulk ${family} is not on your plan`, { [feature]: limit });
  if (items > limit) {
    throw new AppError('bulk_size_exceeds_plan', `your plan allows ${limit} items per bulk ${family} request; this one has ${items}`, {
      [feature]: limit,
      items,
    });
  }
}
