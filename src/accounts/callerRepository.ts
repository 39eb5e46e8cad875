import type { Db } from '../db/knex.ts';
import { Prepared } from '../db/prepared.ts';
import { isoTimestamp } from '../db/sql.ts';
import type { Category } from './access.ts';

export type Resource = 'api_calls' | 'doc_views' | 'logo_searches' | 'pdf_reports' | 'excel_reports' | 'clearances';
export const RESOURCES: readonly Resource[] = ['api_calls', 'doc_views', 'logo_searches', 'pdf_reports', 'excel_reports', 'clearances'];

/** A plan's monthly quotas during a trial: its trial quotas laid over its paid ones (docs/plans.md). */
export const trialQuotas = (plan: string) => `(${plan}.quotas || ${plan}.trial_quotas)`;

/** A subscription's monthly quotas: the plan's, or its trial quotas while the subscription is a trial. */
export const effectiveQuotas = (plan: string, subscription: string) =>
  `(case when ${subscription}.status = 'trial' then ${trialQuotas(plan)} else ${plan}.quotas end)`;

/** What a plan grants (a plan row, plus add-ons once resolved for an account). */
export interface PlanGrants {
  categories: Category[];
  quotas: Record<Resource, number>;
  concurrency: number;
  bulkSearchLimit: number;
  bulkLogoLimit: number;
  webhookEnabled: boolean;
  monitoredMarksLimit: number | null;
}

/** Everything the request pipeline needs to know about a caller, read fresh on every request. */
export interface Caller extends PlanGrants {
  accountId: string;
  keyId: string | null;
  planCode: string;
  subscriptionActive: boolean;
  subscriptionStatus: string;
  expiresAt: string | null;
  /**
   * When the answer changes by time alone (the subscription or an add-on expires), as epoch ms;
   * null when nothing will expire. Caches read the caller again then.
   */
  refreshAt?: number | null;
}

// One statement: key → account → subscription → plan, plus add-ons that have not expired. The
// plan is never cached, so an admin's change applies to the very next request.
const CALLER_SQL = (where: string) => `
  select a.id as "accountId", k.id as "keyId", p.code as "planCode", s.status as "subscriptionStatus",
    (s.status in ('trial', 'active') and (s.expires_at is null or s.expires_at > now())) as "subscriptionActive",
    ${isoTimestamp('s.expires_at')} as "expiresAt",
    array(select distinct c from unnest(p.categories || coalesce((select array_agg(ad.category) from account_addons ad
      where ad.account_id = a.id and (ad.expires_at is null or ad.expires_at > now())), '{}')) c order by c) as categories,
    ${effectiveQuotas('p', 's')} as quotas, p.concurrency, p.bulk_search_limit as "bulkSearchLimit", p.bulk_logo_limit as "bulkLogoLimit",
    p.webhook_enabled as "webhookEnabled", p.monitored_marks_limit as "monitoredMarksLimit",
    (extract(epoch from least(case when s.expires_at > now() then s.expires_at end,
      (select min(ad.expires_at) from account_addons ad
        where ad.account_id = a.id and ad.expires_at > now()))) * 1000)::float8 as "refreshAt"
  from accounts a
  join subscriptions s on s.account_id = a.id
  join plans p on p.id = s.plan_id
  ${where}`;

const BY_KEY = new Prepared(
  'caller_by_key',
  CALLER_SQL('join api_keys k on k.account_id = a.id where k.key_hash = ? and k.revoked_at is null'),
);

export class CallerRepository {
  constructor(private readonly db: Db) {}

  // Runs on every keyed request the CallerCache cannot answer.
  async byKeyHash(hash: Buffer): Promise<Caller | undefined> {
    return (await BY_KEY.run<Caller>(this.db, [hash]))[0];
  }

  async byAccountId(accountId: string): Promise<Caller | undefined> {
    const r = await this.db.raw(CALLER_SQL('left join lateral (select null::uuid as id) k on true where a.id = ?'), [accountId]);
    return r.rows[0];
  }

  private readonly touched = new Map<string, number>();

  /**
   * Best effort and off the request's path: a lost update only makes "last used" a little stale.
   * At most once a minute per key and process, so a busy key costs no write per request.
   */
  touchKey(keyId: string): void {
    const now = Date.now();
    if ((this.touched.get(keyId) ?? 0) > now - 60_000) return;
    if (this.touched.size > 100_000) this.touched.clear();
    this.touched.set(keyId, now);
    void this.db
      .raw(
        `update api_keys set last_used_at = now() where id = ? and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
        [keyId],
      )
      .catch(() => undefined);
  }
}
