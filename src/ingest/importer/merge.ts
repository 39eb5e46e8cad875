// Set-based SQL that moves staged rows into the registry tables: refusing rows that refer to
// unknown records, writing outbox events (deltas only) from the difference between staged and
// stored rows, then inserting or updating. Everything runs on the import's one connection, inside
// its one transaction.
import type { ClientBase } from 'pg';
import { type EventName, eventSql } from '../../webhooks/events.ts';
import { type Entity, type EntityName, stagedColumns } from './entities.ts';
import { stageTable } from './stage.ts';

const REJECTS = 'import_rejects';
const NEW_TRADEMARKS = 'import_new_trademarks';

const fileOf = (e: Entity) => `${e.name}.jsonl`;
const list = (cols: string[], alias?: string) => cols.map((c) => (alias ? `${alias}.${c}` : c)).join(', ');

/** Temp tables every run needs: refused rows found in SQL, and trademarks new in this set. */
export async function createRunTables(client: ClientBase): Promise<void> {
  await client.query(`create temp table ${REJECTS} (line integer not null, reason text not null) on commit drop`);
  await client.query(`create temp table ${NEW_TRADEMARKS} (application_number text primary key) on commit drop`);
}

/**
 * Within one set the last line for a key wins; earlier ones are refused, since a set is meant to
 * hold each record once. Only run when keys did not arrive in ascending order.
 */
export async function rejectDuplicates(client: ClientBase, e: Entity): Promise<number> {
  const s = stageTable(e);
  const r = await client.query(
    `with last as (select ${e.key} as k, max(line) as keep from ${s} group by ${e.key} having count(*) > 1),
          gone as (delete from ${s} st using last where st.${e.key} = last.k and st.line <> last.keep
                   returning st.line, last.keep)
     insert into ${REJECTS} (line, reason) select line, 'duplicate ${e.key} (superseded by line ' || keep || ')' from gone`,
  );
  return r.rowCount ?? 0;
}

interface Reference {
  column: string;
  table: string;
  target: string;
  /**
   * The referenced record must belong to the same trademark: a cited mark of another mark's exam
   * report, or a document filed under another mark's opposition, would link two marks' records.
   */
  sameMark?: true;
}

const APP: Reference = { column: 'application_number', table: 'trademarks', target: 'application_number' };

const REFERENCES: Record<EntityName, Reference[]> = {
  journals: [],
  trademarks: [{ column: 'journal_id', table: 'journals', target: 'id' }],
  status_history: [APP],
  proprietors: [APP],
  attorneys: [APP],
  oppositions: [APP],
  hearings: [APP],
  documents: [APP, { column: 'opposition_id', table: 'oppositions', target: 'id', sameMark: true }],
  exam_reports: [APP],
  cited_marks: [APP, { column: 'exam_report_id', table: 'exam_reports', target: 'id', sameMark: true }],
  alerts: [APP],
  logos: [APP],
};

/**
 * Refuses rows naming a record that is neither stored nor (already merged) from this set, or that
 * belongs to another mark. Runs after the referenced entity's merge, so "in the set" is simply "in
 * the table".
 */
export async function rejectUnknown(client: ClientBase, e: Entity): Promise<number> {
  const s = stageTable(e);
  let n = 0;
  for (const ref of REFERENCES[e.name]) {
    const r = await client.query(
      `with gone as (delete from ${s} st where st.${ref.column} is not null
                      and not exists (select 1 from ${ref.table} t where t.${ref.target} = st.${ref.column})
                     returning st.line)
       insert into ${REJECTS} (line, reason) select line, 'unknown ${ref.column}' from gone`,
    );
    n += r.rowCount ?? 0;
    if (!ref.sameMark) continue;
    // Rows naming an unknown record are gone already, so "no match" here means "another mark's".
    const m = await client.query(
      `with gone as (delete from ${s} st where st.${ref.column} is not null
                      and not exists (select 1 from ${ref.table} t where t.${ref.target} = st.${ref.column}
                                        and t.application_number = st.application_number)
                     returning st.line)
       insert into ${REJECTS} (line, reason) select line, '${ref.column} belongs to another application_number' from gone`,
    );
    n += m.rowCount ?? 0;
  }
  if (e.name === 'journals') {
    // journal_number is unique: a number another journal already has (stored, or earlier in the set) is refused.
    const r = await client.query(
      `with gone as (delete from ${s} st
                     where exists (select 1 from journals j where j.journal_number = st.journal_number and j.id <> st.id)
                       or exists (select 1 from ${s} o where o.journal_number = st.journal_number and o.id <> st.id and o.line < st.line)
                     returning st.line)
       insert into ${REJECTS} (line, reason) select line, 'journal_number already belongs to another journal' from gone`,
    );
    n += r.rowCount ?? 0;
  }
  return n;
}

/** Refused rows of this entity, in line order, a page at a time (there may be millions). */
export async function* takeRejects(client: ClientBase, e: Entity): AsyncGenerator<string[]> {
  let after = 0;
  for (;;) {
    const r = await client.query<{ line: number; reason: string }>(
      `select line, reason from ${REJECTS} where line > $1 order by line limit 10000`,
      [after],
    );
    if (!r.rows.length) break;
    yield r.rows.map((x) => `${fileOf(e)}:${x.line}: ${x.reason}`);
    after = r.rows[r.rows.length - 1].line;
  }
  await client.query(`truncate ${REJECTS}`);
}

/**
 * Remembers which staged trademarks are new, before they are written: their linked records make no events.
 * They are also kept with the run (import_new_marks), where the similarity watches read a delta's new filings.
 */
export async function rememberNewTrademarks(client: ClientBase, runId: number): Promise<number> {
  const r = await client.query(
    `insert into ${NEW_TRADEMARKS} select s.application_number from ${stageTable({ name: 'trademarks' })} s
     where not exists (select 1 from trademarks t where t.application_number = s.application_number)`,
  );
  await client.query(`analyze ${NEW_TRADEMARKS}`);
  await client.query(
    `insert into import_new_marks (import_run_id, application_number) select $1, application_number from ${NEW_TRADEMARKS}`,
    [runId],
  );
  return r.rowCount ?? 0;
}

// ---- events -------------------------------------------------------------------------------------

/** jsonb object of columns; timestamps come out as ISO 8601 in UTC (the transaction's time zone). */
const obj = (alias: string, cols: string[]) => `jsonb_build_object(${cols.map((c) => `'${c}', ${alias}.${c}`).join(', ')})`;

type EventSpec =
  /** A staged id the table does not have yet, for a trademark that is not new in this set. */
  | { event: EventName; when: 'new'; oldValue?: string; newValue: string; filter?: string; changedAt?: string }
  /** A stored record whose `compare` columns differ; old and new values are `fields` of each side. */
  | { event: EventName; when: 'changed'; fields: string[]; compare: string[] };

const OPPOSITION = [
  'id',
  'opposition_number',
  'opponent_name',
  'opponent_address',
  'opposition_date',
  'status',
  'decision',
  'decision_date',
];
const HEARING = ['id', 'hearing_date', 'hearing_type', 'virtual_room_link', 'time_slot', 'status'];
const DOCUMENT = ['id', 'name', 'document_type', 'upload_date', 'content_type'];
const PROPRIETOR = ['id', 'name', 'entity_type', 'address', 'state', 'country', 'trading_as'];
const ATTORNEY = ['id', 'name', 'agent_code', 'address', 'email', 'phone'];

const EVENTS: Partial<Record<EntityName, EventSpec[]>> = {
  status_history: [
    {
      event: 'trademark.status_changed',
      when: 'new',
      oldValue: `jsonb_build_object('status', s.old_status)`,
      newValue: `jsonb_build_object('status', s.new_status)`,
      changedAt: 's.changed_at',
    },
  ],
  alerts: [
    {
      event: 'trademark.alert_changed',
      when: 'new',
      oldValue: `jsonb_build_object('alert', s.old_alert)`,
      newValue: `jsonb_build_object('alert', s.new_alert)`,
      changedAt: 's.changed_at',
    },
  ],
  oppositions: [
    { event: 'trademark.opposition_filed', when: 'new', newValue: obj('s', OPPOSITION) },
    {
      event: 'trademark.opposition_updated',
      when: 'changed',
      fields: ['id', 'opposition_number', 'status', 'decision', 'decision_date'],
      compare: ['status', 'decision', 'decision_date'],
    },
  ],
  hearings: [
    { event: 'trademark.hearing_scheduled', when: 'new', newValue: obj('s', HEARING) },
    {
      event: 'trademark.hearing_updated',
      when: 'changed',
      fields: HEARING,
      compare: ['hearing_date', 'hearing_type', 'virtual_room_link', 'time_slot', 'status'],
    },
  ],
  documents: [
    { event: 'trademark.document_added', when: 'new', newValue: obj('s', DOCUMENT), filter: 's.opposition_id is null' },
    {
      event: 'trademark.opposition_document_added',
      when: 'new',
      newValue: obj('s', ['opposition_id', ...DOCUMENT]),
      filter: 's.opposition_id is not null',
    },
  ],
  exam_reports: [
    { event: 'trademark.exam_report_added', when: 'new', newValue: obj('s', ['id', 'report_date', 'objection_reasons', 'reply_due_date']) },
  ],
  cited_marks: [
    { event: 'trademark.cited_mark_added', when: 'new', newValue: obj('s', ['id', 'exam_report_id', 'cited_application_number']) },
  ],
  proprietors: [
    { event: 'trademark.proprietor_changed', when: 'new', newValue: obj('s', PROPRIETOR) },
    { event: 'trademark.proprietor_changed', when: 'changed', fields: PROPRIETOR, compare: ['application_number', ...PROPRIETOR] },
  ],
  attorneys: [
    { event: 'trademark.attorney_changed', when: 'new', newValue: obj('s', ATTORNEY) },
    { event: 'trademark.attorney_changed', when: 'changed', fields: ATTORNEY, compare: ['application_number', ...ATTORNEY] },
  ],
};

function eventSelect(e: Entity, spec: EventSpec, ord: number): string {
  const s = stageTable(e);
  if (spec.when === 'new') {
    return `select s.line, ${ord} as ord, ${eventSql(spec.event)} as event, s.application_number,
        ${spec.oldValue ?? 'null::jsonb'} as old_value, ${spec.newValue} as new_value,
        ${spec.changedAt ?? 'null::timestamptz'} as changed_at
      from ${s} s
      where not exists (select 1 from ${e.table} t where t.id = s.id)
        and not exists (select 1 from ${NEW_TRADEMARKS} n where n.application_number = s.application_number)
        ${spec.filter ? `and ${spec.filter}` : ''}`;
  }
  return `select s.line, ${ord} as ord, ${eventSql(spec.event)} as event, s.application_number, ${obj('t', spec.fields)} as old_value,
        ${obj('s', spec.fields)} as new_value, null::timestamptz as changed_at
      from ${s} s join ${e.table} t on t.id = s.id
      where (${list(spec.compare, 't')}) is distinct from (${list(spec.compare, 's')})`;
}

/** Trademark-level events: only for stored trademarks, comparing the stored row with the staged one. */
function trademarkEventSelects(): string[] {
  const s = stageTable({ name: 'trademarks' });
  const journal = (a: string) =>
    `jsonb_build_object('journal_id', ${a}.id, 'journal_number', ${a}.journal_number, 'publication_date', ${a}.publication_date)`;
  // expire_at is DD/MM/YYYY in events as in every response (the contract's format for it).
  return [
    `select s.line, 1 as ord, ${eventSql('trademark.expiry_changed')} as event, s.application_number,
        jsonb_build_object('expire_at', to_char(t.expire_at, 'DD/MM/YYYY')) as old_value,
        jsonb_build_object('expire_at', to_char(s.expire_at, 'DD/MM/YYYY')) as new_value,
        null::timestamptz as changed_at
      from ${s} s join trademarks t on t.application_number = s.application_number
      where s.expire_at is distinct from t.expire_at`,
    `select s.line, 2, ${eventSql('trademark.journal_published')}, s.application_number,
        case when oj.id is null then null else ${journal('oj')} end, ${journal('nj')}, null::timestamptz
      from ${s} s join trademarks t on t.application_number = s.application_number
        join journals nj on nj.id = s.journal_id
        left join journals oj on oj.id = t.journal_id
      where s.journal_id is distinct from t.journal_id`,
  ];
}

/**
 * Writes this entity's outbox rows (before its rows are written, so old values are still there).
 * `changed_at` is the record's own timestamp where it has one, else the import time.
 */
export async function writeEvents(client: ClientBase, e: Entity, runId: number, importTime: Date): Promise<number> {
  const selects = e.name === 'trademarks' ? trademarkEventSelects() : (EVENTS[e.name] ?? []).map((spec, i) => eventSelect(e, spec, i + 1));
  if (!selects.length) return 0;
  const r = await client.query(
    `insert into outbox (event, application_number, old_value, new_value, changed_at, import_run_id)
     select event, application_number, old_value, new_value, coalesce(changed_at, $2::timestamptz), $1
     from (${selects.join('\nunion all\n')}) ev
     order by line, ord`,
    [runId, importTime],
  );
  return r.rowCount ?? 0;
}

// ---- writing rows -------------------------------------------------------------------------------

/** Plain INSERT: the target was empty and the staged keys are unique (baseline fast path). */
export async function insertAll(client: ClientBase, e: Entity): Promise<number> {
  const cols = list(stagedColumns(e));
  const r = await client.query(`insert into ${e.table} (${cols}) select ${cols} from ${stageTable(e)}`);
  return r.rowCount ?? 0;
}

/**
 * Upsert that leaves identical rows alone (no dead tuples, no updated_at bump), so importing a
 * set twice changes nothing.
 */
export async function upsert(client: ClientBase, e: Entity): Promise<{ inserted: number; updated: number }> {
  const cols = stagedColumns(e);
  const set = cols.filter((c) => c !== e.key).map((c) => `${c} = excluded.${c}`);
  if (e.name === 'trademarks') set.push('updated_at = now()');
  // A logo whose image changed is set back to pending (its vectors dropped) by a trigger on logos
  // (migrations/20261125000010_logo_index.ts); the same image keeps its index.
  const changed = cols.filter((c) => c !== e.key);
  const r = await client.query<{ inserted: number; updated: number }>(
    `with w as (
       insert into ${e.table} as t (${list(cols)}) select ${list(cols)} from ${stageTable(e)}
       on conflict (${e.key}) do update set ${set.join(', ')}
       where (${list(changed, 't')}) is distinct from (${list(changed, 'excluded')})
       returning (xmax = 0) as fresh)
     select count(*) filter (where fresh)::int as inserted, count(*) filter (where not fresh)::int as updated from w`,
  );
  return r.rows[0];
}

// ---- baseline bulk load -------------------------------------------------------------------------

/**
 * Drops the table's plain indexes and its foreign keys, returning the statements that recreate
 * them. Building an index once after a bulk insert, and checking a foreign key with one join, is
 * several times faster than maintaining them row by row. Being DDL inside the import's
 * transaction, a failure restores them with everything else.
 */
export async function dropSecondary(client: ClientBase, table: string): Promise<{ label: string; sql: string }[]> {
  const idx = await client.query<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
     from pg_index i
     where i.indrelid = $1::regclass and not i.indisunique and not i.indisprimary
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [table],
  );
  const fks = await client.query<{ name: string; def: string }>(
    `select quote_ident(conname) as name, pg_get_constraintdef(oid) as def
     from pg_constraint where conrelid = $1::regclass and contype = 'f'`,
    [table],
  );
  for (const i of idx.rows) await client.query(`drop index ${i.name}`);
  for (const f of fks.rows) await client.query(`alter table ${table} drop constraint ${f.name}`);
  return [
    ...idx.rows.map((i) => ({ label: `index ${i.name} built`, sql: i.def })),
    ...fks.rows.map((f) => ({ label: `foreign key ${f.name} checked`, sql: `alter table ${table} add constraint ${f.name} ${f.def}` })),
  ];
}

export async function isEmpty(client: ClientBase, table: string): Promise<boolean> {
  const r = await client.query(`select not exists (select 1 from ${table}) as empty`);
  return r.rows[0].empty as boolean;
}
