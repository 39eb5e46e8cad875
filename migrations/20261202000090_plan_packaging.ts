import type { Knex } from 'knex';

// Clearance and watches on the seeded plans (issue 40, docs/plans.md *Seeded plans*): clearance becomes a
// metered resource, `clearances`, with its own monthly quota, and a plan may give a trial smaller quotas
// than it gives once paid (`trial_quotas`, laid over `quotas` while the subscription is a trial). Custom
// plans that held cat_threats, which gated clearance until now, keep clearance: their clearances quota is
// their api_calls quota, which is what clearance drew on before. A batch item's credits are renamed with it.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table plans add column trial_quotas jsonb not null default '{}';
    update plans set quotas = quotas || '{"clearances": 0}' where code = 'basic' and not custom;
    update plans set quotas = quotas || '{"clearances": 500}', trial_quotas = '{"clearances": 25}' where code = 'pro' and not custom;
    update plans set quotas = quotas || '{"clearances": 2500}', trial_quotas = '{"clearances": 100}'
      where code = 'business' and not custom;
    update plans set quotas = quotas || jsonb_build_object('clearances',
        case when 'cat_threats' = any(categories) then coalesce((quotas->>'api_calls')::bigint, 0) else 0 end)
      where custom and quotas->'clearances' is null;
    alter table clearance_batch_items rename column api_calls to clearances;

    -- A new public plan is announced too, so that the plan list every API process keeps is never short of
    -- one. Custom plans are on no list; an account moved onto one is announced by its subscription.
    create trigger plans_insert_access after insert on plans
      for each row when (not new.custom) execute function nishaan_access_changed();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger plans_insert_access on plans;
    alter table clearance_batch_items rename column clearances to api_calls;
    update plans set quotas = quotas - 'clearances';
    alter table plans drop column trial_quotas;
  `);
}
