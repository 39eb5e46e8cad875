import { z } from '../schema/zod.ts';
import { CATEGORIES } from './access.ts';
import { RESOURCES } from './callerRepository.ts';
import { FEATURES } from './planRules.ts';

// GET /user/v1/plans/: every plan a signup may choose, as the request pipeline enforces it (docs/plans.md).

const quotas = (what: string) =>
  z
    .object(Object.fromEntries(RESOURCES.map((r) => [r, z.number().int()])) as Record<(typeof RESOURCES)[number], z.ZodNumber>)
    .openapi({ description: what });

export const PublicPlan = z
  .object({
    code: z.string().openapi({ example: 'pro', description: 'What signup and the admin CLI call the plan' }),
    name: z.string().openapi({ example: 'Pro' }),
    categories: z.array(z.enum(CATEGORIES)).openapi({ description: 'The plan-gated categories it opens (contract §6)' }),
    quotas: quotas('Monthly credits per metered resource once paid (0: not on the plan)'),
    trial_quotas: quotas('Monthly credits during the trial that signup starts'),
    concurrency: z.number().int().openapi({ description: 'Requests in flight at once' }),
    bulk_search_limit: z.number().int().openapi({ description: 'Items per bulk search request (0: no bulk search)' }),
    bulk_logo_limit: z.number().int().openapi({ description: 'Items per bulk logo search request (0: no bulk logo search)' }),
    monitored_marks_limit: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Marks the account's webhooks and watches monitor together; null: unlimited" }),
    features: z
      .object(Object.fromEntries(FEATURES.map((f) => [f, z.boolean()])) as Record<(typeof FEATURES)[number], z.ZodBoolean>)
      .openapi({ description: 'The parts of the product the plan includes; a request for one it lacks is 403 `<feature>_not_on_plan`' }),
  })
  .openapi('PublicPlan');

export const PlanList = z
  .object({
    trial_days: z.number().int().openapi({ description: 'Length of the trial signup starts, in days', example: 14 }),
    plans: z.array(PublicPlan),
    add_ons: z
      .array(z.enum(CATEGORIES))
      .openapi({ description: 'Categories on no plan: granted to an account on request (403 `category_not_on_plan` names none)' }),
  })
  .openapi('PlanList');
