// Status, alert and proprietor changes that arrive only as trademark fields. The contract's events
// for them normally come from the set's own entries (a new status history or alert entry, a proprietor
// record), which are merged after trademarks. A delta may change the field without such an entry, and
// the change would then reach no subscriber. So the trademark step notes each stored mark's old and
// new value, and once every entity is merged an event is written for each change the run has not
// already announced with an event of the same name for that mark: one event per change, never two.
import type { ClientBase } from 'pg';
import { eventSql } from '../../webhooks/events.ts';
import { stageTable } from './stage.ts';

const CHANGES = 'import_field_changes';

export async function createFieldChanges(client: ClientBase): Promise<void> {
  await client.query(
    `create temp table ${CHANGES} (line integer not null, ord integer not null, event text not null,
       application_number text not null, old_value jsonb, new_value jsonb) on commit drop`,
  );
}

/**
 * Notes the changes of stored marks before trademarks are upserted (the old values go then). Values
 * have the shapes of the entry-based events; a blank alert is null, as an alert entry's old_alert is.
 * A proprietor name is `{name}`, the name key of the proprietor record that event usually carries.
 */
export async function noteFieldChanges(client: ClientBase): Promise<number> {
  const r = await client.query(
    `insert into ${CHANGES} (line, ord, event, application_number, old_value, new_value)
     select s.line, v.ord, v.event, s.application_number, v.old_value, v.new_value
     from ${stageTable({ name: 'trademarks' })} s join trademarks t on t.application_number = s.application_number
       cross join lateral (values
         (1, ${eventSql('trademark.status_changed')}, jsonb_build_object('status', t.status), jsonb_build_object('status', s.status)),
         (2, ${eventSql('trademark.alert_changed')},
           jsonb_build_object('alert', nullif(t.alert, '')), jsonb_build_object('alert', nullif(s.alert, ''))),
         (3, ${eventSql('trademark.proprietor_changed')},
           jsonb_build_object('name', t.proprietor_name), jsonb_build_object('name', s.proprietor_name))
       ) v(ord, event, old_value, new_value)
     where v.old_value is distinct from v.new_value`,
  );
  // Temp tables have no statistics until analyzed; the outbox check below is planned from these.
  await client.query(`analyze ${CHANGES}`);
  return r.rowCount ?? 0;
}

/** Writes the noted changes no event of this run announced yet; changed_at is the import time. */
export async function writeFieldEvents(client: ClientBase, runId: number, importTime: Date): Promise<number> {
  const r = await client.query(
    `insert into outbox (event, application_number, old_value, new_value, changed_at, import_run_id)
     select c.event, c.application_number, c.old_value, c.new_value, $2::timestamptz, $1
     from ${CHANGES} c
     where not exists (select 1 from outbox o
                       where o.application_number = c.application_number and o.event = c.event and o.import_run_id = $1)
     order by c.line, c.ord`,
    [runId, importTime],
  );
  return r.rowCount ?? 0;
}
