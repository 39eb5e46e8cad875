import { type Clock, Expiring, systemClock } from '../clock.ts';
import type { ChangeListener } from '../db/listener.ts';
import { AppError } from '../errors.ts';
import { CATEGORIES, type Category } from './access.ts';
import { onAccessChange } from './callerCache.ts';
import { RESOURCES, type Resource } from './callerRepository.ts';
import type { PlanRepository, PlanRow } from './planRepository.ts';
import { FEATURES, type Feature, featuresOf } from './planRules.ts';

/** A plan as GET /user/v1/plans/ shows it: exactly the grants the request pipeline enforces. */
export interface PublicPlan {
  code: string;
  name: string;
  categories: Category[];
  quotas: Record<Resource, number>;
  trial_quotas: Record<Resource, number>;
  concurrency: number;
  bulk_search_limit: number;
  bulk_logo_limit: number;
  monitored_marks_limit: number | null;
  features: Record<Feature, boolean>;
}

export interface PlanList {
  trial_days: number;
  plans: PublicPlan[];
  /** Categories on no plan: an admin grants them to an account (docs/plans.md, *Add-ons*). */
  add_ons: Category[];
}

const MAX_AGE_MS = 60_000;

const quotasOf = (q: Partial<Record<Resource, number>>) =>
  Object.fromEntries(RESOURCES.map((r) => [r, Number(q[r] ?? 0)])) as Record<Resource, number>;

function publicPlan(p: PlanRow): PublicPlan {
  const quotas = quotasOf(p.quotas);
  return {
    code: p.code,
    name: p.name,
    categories: CATEGORIES.filter((c) => p.categories.includes(c)),
    quotas,
    trial_quotas: quotasOf(p.trialQuotas),
    concurrency: p.concurrency,
    bulk_search_limit: p.bulkSearchLimit,
    bulk_logo_limit: p.bulkLogoLimit,
    monitored_marks_limit: p.monitoredMarksLimit,
    features: featuresOf({ ...p, quotas }),
  };
}

/** Which plans would have let a refused request through, by the refusal's code and details; null when no plan decides it. */
function wouldAllow(err: AppError, plans: PublicPlan[]): PublicPlan[] | null {
  const d = (err.details ?? {}) as { category?: Category; feature?: Feature; items?: number; requested?: number };
  switch (err.code) {
    case 'category_not_on_plan':
      return d.category ? plans.filter((p) => p.categories.includes(d.category!)) : null;
    case 'clearance_not_on_plan':
    case 'watches_not_on_plan':
    case 'webhooks_not_on_plan':
    case 'bulk_not_on_plan':
      return d.feature && FEATURES.includes(d.feature) ? plans.filter((p) => p.features[d.feature!]) : null;
    case 'bulk_size_exceeds_plan': {
      const key = 'bulk_search_limit' in (err.details as object) ? 'bulk_search_limit' : 'bulk_logo_limit';
      return plans.filter((p) => p[key] >= (d.items ?? Infinity));
    }
    case 'monitored_limit_exceeded':
      return plans.filter((p) => p.monitored_marks_limit === null || p.monitored_marks_limit >= (d.requested ?? Infinity));
    default:
      return null;
  }
}

/**
 * The plans anyone can sign up for, kept in memory: read once, again when PostgreSQL announces a change to a
 * plan (or may have missed one), and at most a minute old. It answers the public plan list and names, in
 * every 403 a plan decides, the plans that would have allowed the request.
 */
export class PlanCatalogue {
  private readonly plans: Expiring<PlanList>;

  constructor(repo: PlanRepository, listener: ChangeListener, trialDays: number, clock: Clock = systemClock) {
    this.plans = new Expiring(
      async () => {
        const plans = (await repo.publicPlans()).map(publicPlan);
        return { trial_days: trialDays, plans, add_ons: CATEGORIES.filter((c) => !plans.some((p) => p.categories.includes(c))) };
      },
      MAX_AGE_MS,
      clock,
    );
    onAccessChange(listener, { account: () => undefined, all: () => this.plans.drop() });
  }

  list(): Promise<PlanList> {
    return this.plans.get();
  }

  /** The refusal with the plans that include what it lacked (details.plans, and said in the message); others as they are. */
  async explain(err: AppError): Promise<AppError> {
    const allowing = wouldAllow(err, (await this.list()).plans);
    if (allowing === null) return err;
    const names = allowing.map((p) => p.name);
    const where = names.length
      ? `; included in ${names.join(', ')} (GET /user/v1/plans/)`
      : '; on no plan: an add-on granted on request (GET /user/v1/plans/)';
    return new AppError(err.code, err.message + where, { ...(err.details as object), plans: allowing.map((p) => p.code) }, err.headers);
  }
}
