import type { Db } from '../db/knex.ts';
import { isoTimestamp } from '../db/sql.ts';
import type { Category } from './access.ts';
import type { PlanGrants, Resource } from './callerRepository.ts';

export interface PlanRow {
  id: number;
  code: string;
  name: string;
  custom: boolean;
  categories: string[];
  quotas: Partial<Record<Resource, number>>;
  concurrency: number;
  bulk_search_limit: number;
  bulk_logo_limit: number;
  webhook_enabled: boolean;
  monitored_marks_limit: number | null;
  accounts: number;
}

export interface NewPlan extends PlanGrants {
  code: string;
  name: string;
}

export interface AccountOverview {
  id: string;
  email: string;
  name: string;
  organisation: string | null;
  created_at: string;
  plan_code: string | null;
  status: string | null;
  expires_at: string | null;
  active: boolean;
  addons: { category: string; expires_at: string | null; active: boolean }[];
  keys: { display_prefix: string; name: string; active: boolean; last_used_at: string | null }[];
}

/** `now() + N days`, or no expiry when N is null. */
const EXPIRY = `case when ?::int is null then null else now() + make_interval(days => ?::int) end`;

/** What the admin CLI reads and writes: plans, subscriptions and add-ons. */
export class AdminRepository {
  constructor(private readonly db: Db) {}

  async listPlans(): Promise<PlanRow[]> {
    const r = await this.db.raw(
      `select p.id, p.code, p.name, p.custom, p.categories, p.quotas, p.concurrency, p.bulk_search_limit, p.bulk_logo_limit,
         p.webhook_enabled, p.monitored_marks_limit, (select count(*) from subscriptions s where s.plan_id = p.id)::int as accounts
       from plans p order by p.custom, p.id`,
    );
    return r.rows;
  }

  async plan(code: string): Promise<PlanRow | undefined> {
    return (await this.listPlans()).find((p) => p.code === code);
  }

  /** The new plan's id, or null when the code is taken. */
  async createPlan(p: NewPlan): Promise<number | null> {
    const rows = await this.db('plans')
      .insert({
        code: p.code,
        name: p.name,
        custom: true,
        categories: p.categories,
        quotas: JSON.stringify(p.quotas),
        concurrency: p.concurrency,
        bulk_search_limit: p.bulkSearchLimit,
        bulk_logo_limit: p.bulkLogoLimit,
        webhook_enabled: p.webhookEnabled,
        monitored_marks_limit: p.monitoredMarksLimit,
      })
      .onConflict('code')
      .ignore()
      .returning('id');
    return rows[0]?.id ?? null;
  }

  async accountId(email: string): Promise<string | undefined> {
    const r = await this.db.raw('select id from accounts where email = ?', [email.trim().toLowerCase()]);
    return r.rows[0]?.id;
  }

  /** Puts the account on a plan, active, until `days` from now (null: no expiry). */
  async assign(accountId: string, planId: number, days: number | null): Promise<void> {
    await this.db.raw(
      `insert into subscriptions (account_id, plan_id, status, expires_at) values (?, ?, 'active', ${EXPIRY})
       on conflict (account_id) do update set plan_id = excluded.plan_id, status = 'active', started_at = now(),
         expires_at = excluded.expires_at, updated_at = now()`,
      [accountId, planId, days, days],
    );
  }

  /** Activates the current plan until `days` from now (null: no expiry); false when there is no subscription. */
  async activate(accountId: string, days: number | null): Promise<boolean> {
    const r = await this.db.raw(
      `update subscriptions set status = 'active', expires_at = ${EXPIRY}, updated_at = now() where account_id = ?`,
      [days, days, accountId],
    );
    return r.rowCount > 0;
  }

  /** Ends the subscription now; false when there is none. */
  async expire(accountId: string): Promise<boolean> {
    const r = await this.db.raw(
      `update subscriptions set status = 'inactive', expires_at = least(coalesce(expires_at, now()), now()), updated_at = now()
       where account_id = ?`,
      [accountId],
    );
    return r.rowCount > 0;
  }

  async grantAddon(accountId: string, category: Category, days: number | null): Promise<void> {
    await this.db.raw(
      `insert into account_addons (account_id, category, expires_at) values (?, ?, ${EXPIRY})
       on conflict (account_id, category) do update set granted_at = now(), expires_at = excluded.expires_at`,
      [accountId, category, days, days],
    );
  }

  /** False when the account did not have the add-on. */
  async revokeAddon(accountId: string, category: Category): Promise<boolean> {
    const r = await this.db.raw('delete from account_addons where account_id = ? and category = ?', [accountId, category]);
    return r.rowCount > 0;
  }

  async overview(accountId: string): Promise<AccountOverview> {
    const r = await this.db.raw(
      `select a.id, a.email, a.first_name || ' ' || a.last_name as name, a.organisation, ${isoTimestamp('a.created_at')} as created_at,
         p.code as plan_code, s.status, ${isoTimestamp('s.expires_at')} as expires_at,
         coalesce(s.status in ('trial', 'active') and (s.expires_at is null or s.expires_at > now()), false) as active,
         coalesce((select json_agg(json_build_object('category', ad.category, 'expires_at', ${isoTimestamp('ad.expires_at')},
             'active', ad.expires_at is null or ad.expires_at > now()) order by ad.category)
           from account_addons ad where ad.account_id = a.id), '[]') as addons,
         coalesce((select json_agg(json_build_object('display_prefix', k.display_prefix, 'name', k.name,
             'active', k.revoked_at is null, 'last_used_at', ${isoTimestamp('k.last_used_at')}) order by k.seq)
           from api_keys k where k.account_id = a.id), '[]') as keys
       from accounts a left join subscriptions s on s.account_id = a.id left join plans p on p.id = s.plan_id
       where a.id = ?`,
      [accountId],
    );
    return r.rows[0];
  }
}
