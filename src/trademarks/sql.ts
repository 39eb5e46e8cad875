// SQL fragments shared by every query that returns trademarks or their linked tables, so a field
// is formatted the same way everywhere (expire_at DD/MM/YYYY, timestamps ISO 8601 UTC).

import type { Knex } from 'knex';
import { isoDate as date, isoTimestamp as iso } from '../db/sql.ts';
import type { MarkFilter } from './markFilter.ts';

export const SUMMARY_COLUMNS = `t.application_number, t.word_mark, t.class_number::int as class_number, t.status,
  ${date('t.application_date')} as application_date, to_char(t.expire_at, 'DD/MM/YYYY') as expire_at,
  t.proprietor_name, (select own.entity_id from owner_names own where own.name = t.proprietor_name) as owner_id,
  t.state, t.tm_type, t.filing_mode, t.alert, t.slug`;

/** Each linked table as a JSON array aggregated for the trademark aliased `t`. */
export const LINKED_SQL = {
  status_history: `coalesce((select json_agg(json_build_object('id', h.id, 'old_status', h.old_status,
      'new_status', h.new_status, 'changed_at', ${iso('h.changed_at')}) order by h.changed_at, h.id)
    from status_history h where h.application_number = t.application_number), '[]'::json)`,
  alerts: `coalesce((select json_agg(json_build_object('id', a.id, 'old_alert', a.old_alert,
      'new_alert', a.new_alert, 'changed_at', ${iso('a.changed_at')}) order by a.changed_at, a.id)
    from alerts a where a.application_number = t.application_number), '[]'::json)`,
  proprietors: `coalesce((select json_agg(json_build_object('id', p.id, 'name', p.name, 'entity_type', p.entity_type,
      'address', p.address, 'state', p.state, 'country', p.country, 'trading_as', p.trading_as) order by p.id)
    from proprietors p where p.application_number = t.application_number), '[]'::json)`,
  attorneys: `coalesce((select json_agg(json_build_object('id', at.id, 'name', at.name, 'agent_code', at.agent_code,
      'address', at.address, 'email', at.email, 'phone', at.phone) order by at.id)
    from attorneys at where at.application_number = t.application_number), '[]'::json)`,
  oppositions: `coalesce((select json_agg(json_build_object('id', o.id, 'opposition_number', o.opposition_number,
      'opponent', json_build_object('name', o.opponent_name, 'address', o.opponent_address),
      'opposition_date', ${date('o.opposition_date')}, 'status', o.status, 'decision', o.decision,
      'decision_date', ${date('o.decision_date')}) order by o.opposition_date, o.id)
    from oppositions o where o.application_number = t.application_number), '[]'::json)`,
  hearings: `coalesce((select json_agg(json_build_object('id', hr.id, 'hearing_date', ${date('hr.hearing_date')},
      'hearing_type', hr.hearing_type, 'virtual_room_link', hr.virtual_room_link, 'time_slot', hr.time_slot,
      'status', hr.status) order by hr.hearing_date, hr.id)
    from hearings hr where hr.application_number = t.application_number), '[]'::json)`,
  documents: `coalesce((select json_agg(json_build_object('id', d.id, 'name', d.name, 'document_type', d.document_type,
      'upload_date', ${date('d.upload_date')}, 'opposition_id', d.opposition_id) order by d.upload_date, d.id)
    from documents d where d.application_number = t.application_number), '[]'::json)`,
  exam_reports: `coalesce((select json_agg(json_build_object('id', e.id, 'report_date', ${date('e.report_date')},
      'objection_reasons', e.objection_reasons, 'reply_due_date', ${date('e.reply_due_date')},
      'cited_application_numbers', coalesce((select json_agg(c.cited_application_number order by c.id)
        from cited_marks c where c.exam_report_id = e.id), '[]'::json)) order by e.report_date, e.id)
    from exam_reports e where e.application_number = t.application_number), '[]'::json)`,
  cited: `coalesce((select json_agg(json_build_object('cited_application_number', c.cited_application_number,
      'exam_report_id', c.exam_report_id, 'report_date', ${date('e.report_date')}, 'word_mark', m.word_mark,
      'class_number', m.class_number, 'status', m.status, 'proprietor_name', m.proprietor_name) order by e.report_date, c.id)
    from cited_marks c join exam_reports e on e.id = c.exam_report_id
    left join trademarks m on m.application_number = c.cited_application_number
    where c.application_number = t.application_number), '[]'::json)`,
} as const;

export type LinkedTable = keyof typeof LINKED_SQL;

/**
 * The conditions of a mark filter (src/trademarks/markFilter.ts) on the trademark aliased `t`, with
 * their bindings in order (knex `?` placeholders); `true` for no filter.
 */
export function markFilterSql(f: MarkFilter | null): { sql: string; bindings: Knex.RawBinding[] } {
  const where: string[] = [];
  const bindings: Knex.RawBinding[] = [];
  const add = (condition: string, value: Knex.RawBinding) => {
    where.push(condition);
    bindings.push(value);
  };
  // A multi-class application is in each of its classes (docs/decisions.md).
  if (f?.classes) {
    where.push('(t.class_number = any(?::int[]) or t.classes && ?::smallint[])');
    bindings.push(f.classes, f.classes);
  }
  for (const column of ['status', 'tm_type', 'filing_mode', 'state'] as const) {
    const values = f?.[column];
    if (values) add(`t.${column} = any(?::text[])`, values);
  }
  // Days since 1970-01-01 added to that date: any year the parameters take is a date PostgreSQL has.
  const days = f?.applicationDays;
  if (days && days.from !== null) add(`t.application_date >= date '1970-01-01' + ?::int`, days.from);
  if (days && days.to !== null) add(`t.application_date <= date '1970-01-01' + ?::int`, days.to);
  // Any shared code (trademarks_vienna_idx); the list already holds every code below the ones asked for.
  if (f?.vienna) add('t.vienna_codes && ?::text[]', f.vienna);
  return { sql: where.length ? where.join(' and ') : 'true', bindings };
}
