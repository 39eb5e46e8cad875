// SQL of the renewal_due reminders (src/webhooks/renewals.ts says when each is due).
import type { Db } from '../db/knex.ts';
import { eventSql } from './events.ts';
import { RENEWAL_THRESHOLDS } from './renewals.ts';

export class RenewalRepository {
  constructor(private readonly db: Db) {}

  /** Writes the reminders due on `date` (YYYY-MM-DD, default today in UTC); returns how many. */
  async writeDue(date?: string): Promise<number> {
    const windows = RENEWAL_THRESHOLDS.map((t, i) => `(${t}, ${RENEWAL_THRESHOLDS[i + 1] ?? -1})`).join(', ');
    return this.db.transaction(async (trx) => {
      // One run at a time: the check for an existing reminder and the event it guards are one step.
      await trx.raw(`select pg_advisory_xact_lock(hashtext('nishaan.renewals'))`);
      const r = await trx.raw(
        `with today as (select coalesce(?::date, (now() at time zone 'UTC')::date) as d),
         due as (
           select t.application_number, t.expire_at, th.days, t.expire_at - today.d as days_left
           from today, trademarks t, (values ${windows}) th(days, below)
           where t.expire_at between today.d and today.d + ${RENEWAL_THRESHOLDS[0]}
             and t.expire_at - today.d <= th.days and t.expire_at - today.d > th.below
             and not exists (select 1 from renewal_reminders r where r.application_number = t.application_number
                             and r.threshold_days = th.days and r.expire_at = t.expire_at)),
         ev as (
           insert into outbox (event, application_number, old_value, new_value, changed_at)
           select ${eventSql('trademark.renewal_due')}, application_number, null,
             jsonb_build_object('expire_at', to_char(expire_at, 'DD/MM/YYYY'), 'days_before', days, 'days_left', days_left), now()
           from due order by expire_at, application_number
           returning id, application_number, new_value)
         insert into renewal_reminders (application_number, threshold_days, expire_at, outbox_id)
         select application_number, (new_value->>'days_before')::smallint, to_date(new_value->>'expire_at', 'DD/MM/YYYY'), id from ev`,
        [date ?? null],
      );
      return r.rowCount ?? 0;
    });
  }
}
