import type { Db } from '../db/knex.ts';
import { type PlanGrants, type Resource, trialQuotas } from './callerRepository.ts';

/** A plan anyone may sign up for, as its row holds it. */
export interface PlanRow extends PlanGrants {
  code: string;
  name: string;
  /** The plan's quotas while a subscription to it is a trial (its paid ones, with the trial's laid over them). */
  trialQuotas: Partial<Record<Resource, number>>;
}

export class PlanRepository {
  constructor(private readonly db: Db) {}

  /** The plans that are not custom, in the order they were made (basic, pro, business). */
  async publicPlans(): Promise<PlanRow[]> {
    const r = await this.db.raw<{ rows: PlanRow[] }>(
      `select code, name, categories, quotas, ${trialQuotas('plans')} as "trialQuotas", concurrency, bulk_search_limit as "bulkSearchLimit",
         bulk_logo_limit as "bulkLogoLimit", webhook_enabled as "webhookEnabled", monitored_marks_limit as "monitoredMarksLimit"
       from plans where not custom order by id`,
    );
    return r.rows;
  }
}
