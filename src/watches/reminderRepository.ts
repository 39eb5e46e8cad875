import type { Db } from '../db/knex.ts';
import { eventSql } from '../webhooks/events.ts';
import { deadlineSql, journalFieldsSql } from './deadlines.ts';

// watch.deadline_approaching (docs/watches.md): the daily reminders job (beside trademark.renewal_due's) reminds each
// open hit (not dismissed) of an advertised mark 30 and 7 days before its opposition deadline, on UTC dates, as the
// renewal reminders count: a hit is reminded at the threshold whose window it is in — (7, 30] days left for 30, [0, 7]
// for 7 — so a hit first recorded 5 days before its deadline gets the 7-day reminder only, and a day the job missed
// is caught up. Each reminder is recorded once per hit, threshold and deadline (watch_reminders), whatever the
// channels; its event goes to the watch's webhook when it has one that is on.

export const DEADLINE_THRESHOLDS = [30, 7] as const;

export class ReminderRepository {
  constructor(private readonly db: Db) {}

  /** Writes the reminders due on `date` (YYYY-MM-DD, default today in UTC); how many. */
  async writeDue(date?: string): Promise<number> {
    const windows = DEADLINE_THRESHOLDS.map((t, i) => `(${t}, ${DEADLINE_THRESHOLDS[i + 1] ?? -1})`).join(', ');
    return this.db.transaction(async (trx) => {
      // One run at a time: the check for an existing reminder and the event it guards are one step.
      await trx.raw(`select pg_advisory_xact_lock(hashtext('nishaan.watch_reminders'))`);
      const r = await trx.raw(
        `with today as (select coalesce(?::date, (now() at time zone 'UTC')::date) as d),
         due as (
           select h.id as hit_id, h.watch_id, h.application_number, h.result, h.state, t.journal_id, th.days,
             dl.deadline, dl.deadline - today.d as days_left, case when k.active then w.webhook_id end as webhook_id
           from today cross join watch_hits h
           join watches w on w.id = h.watch_id
           left join webhooks k on k.id = w.webhook_id
           join trademarks t on t.application_number = h.application_number
           join journals j on j.id = t.journal_id
           cross join lateral (select ${deadlineSql('j.publication_date')} as deadline) dl
           join (values ${windows}) th(days, below) on dl.deadline - today.d <= th.days and dl.deadline - today.d > th.below
           where h.state <> 'dismissed' and dl.deadline >= today.d
             and not exists (select 1 from watch_reminders r where r.hit_id = h.id and r.days_before = th.days
                             and r.deadline = dl.deadline)),
         ev as (
           insert into outbox (event, application_number, old_value, new_value, changed_at, webhook_id)
           select ${eventSql('watch.deadline_approaching')}, d.application_number, null,
             jsonb_build_object('hit_id', d.hit_id, 'watch_id', d.watch_id, 'days_before', d.days, 'days_left', d.days_left,
               'state', d.state, 'word_mark', d.result->'word_mark', 'class_number', d.result->'class_number',
               'risk_level', d.result->'risk_level', 'overall_similarity_score', d.result->'overall_similarity_score')
               || ${journalFieldsSql('j')},
             now(), d.webhook_id
           from due d join journals j on j.id = d.journal_id where d.webhook_id is not null
           order by d.deadline, d.application_number
           returning id, (new_value->>'hit_id')::uuid as hit_id, (new_value->>'days_before')::smallint as days)
         insert into watch_reminders (hit_id, days_before, deadline, outbox_id)
         select d.hit_id, d.days, d.deadline, ev.id from due d left join ev on ev.hit_id = d.hit_id and ev.days = d.days`,
        [date ?? null],
      );
      return r.rowCount ?? 0;
    });
  }
}
